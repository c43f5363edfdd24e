package io.github.sm3ffm.internal.libcrypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The idle slots of a pool of its own (not the shared ones, which other tests use): where a thread finds the
 * context it gave back, how many it keeps, and the books after threads take and give back at once.
 */
class ContextPoolTest {
    @Test
    void aThreadFindsTheContextItGaveBackFirst() {
        ContextPool<Sm3Context> pool = new ContextPool<>(Sm3Context.KIND);
        Sm3Context first = pool.borrow();
        Sm3Context second = pool.borrow();
        pool.giveBack(first, true);
        assertSame(first, pool.borrow(), "the context given back is the one found next");
        pool.giveBack(first, true);
        pool.giveBack(second, true);
        freeIdle(pool);
    }

    @Test
    void stagedBytesLeaveTheHeapZeroedAndAWipeZeroesEveryWordTheyReached() {
        ContextPool<Sm3Context> pool = new ContextPool<>(Sm3Context.KIND);
        Sm3Context c = pool.borrow();
        byte[] pending = new byte[32];
        for (int i = 0; i < 13; i++) {
            pending[i] = (byte) (i + 1);
        }
        // Behind five bytes already staged, as a digest stream's heap bytes follow those it staged directly.
        c.stage(new byte[] {9, 9, 9, 9, 9}, 0, 0, 5);
        c.stageAndZero(pending, 13, 5);
        assertArrayEquals(new byte[32], pending, "the heap copy is zeroed as it is staged");
        byte[] staged = c.staging().asSlice(0, 21).toArray(ValueLayout.JAVA_BYTE);
        for (int i = 0; i < 5; i++) {
            assertEquals(9, staged[i], "byte " + i + " staged before");
        }
        for (int i = 0; i < 13; i++) {
            assertEquals(i + 1, staged[5 + i], "byte " + i + " staged behind them");
        }
        c.staging().set(ValueLayout.JAVA_BYTE, 20, (byte) 7);
        c.wipe();
        assertArrayEquals(new byte[PooledContext.STAGING_SIZE], c.staging().toArray(ValueLayout.JAVA_BYTE),
                "the wipe reaches the whole last word that was staged");
        pool.giveBack(c, true);
        freeIdle(pool);
    }

    /**
     * A digest at the start of an array goes there in place and never into the staging buffer; anywhere else,
     * through the buffer's output, which the wipe then zeroes. Nothing around the digest is written either way.
     */
    @Test
    void aDigestAtTheStartOfAnArrayGoesThereInPlaceElseThroughTheStagingBuffer() {
        ContextPool<Sm3Context> pool = new ContextPool<>(Sm3Context.KIND);
        Sm3Context c = pool.borrow();
        byte[] abc = {'a', 'b', 'c'};
        byte[] expected = java.util.HexFormat.of().parseHex(KnownAnswers.SM3_ABC);
        for (int[] shape : new int[][] {{32, 0}, {41, 0}, {41, 9}, {64, 32}}) {
            byte[] out = new byte[shape[0]];
            int offset = shape[1];
            java.util.Arrays.fill(out, (byte) 0x5a);
            c.start();
            c.updateArray(abc, 0, abc.length);
            c.finish(out, offset);
            String where = out.length + "-byte array at " + offset;
            assertArrayEquals(expected, java.util.Arrays.copyOfRange(out, offset, offset + expected.length), where);
            for (int i = 0; i < out.length; i++) {
                if (i < offset || i >= offset + expected.length) {
                    assertEquals(0x5a, out[i], "byte " + i + " of a " + where + " left alone");
                }
            }
            byte[] output = c.output().toArray(ValueLayout.JAVA_BYTE);
            // The message was staged at the start of the buffer, where the output region lies too.
            assertArrayEquals(offset == 0 ? java.util.Arrays.copyOf(abc, expected.length) : expected, output,
                    "the staging buffer's output after a digest into a " + where);
            c.wipe();
            assertArrayEquals(new byte[PooledContext.STAGING_SIZE], c.staging().toArray(ValueLayout.JAVA_BYTE),
                    "the wipe after a digest into a " + where);
        }
        pool.giveBack(c, true);
        freeIdle(pool);
    }

    @Test
    void aThreadKeepsAsManyIdleAsItProbesAndFreesTheRest() {
        ContextPool<Sm3Context> pool = new ContextPool<>(Sm3Context.KIND);
        List<Sm3Context> taken = new ArrayList<>();
        for (int i = 0; i < ContextPool.PROBES + 3; i++) {
            taken.add(pool.borrow());
        }
        long live = PooledContext.live();
        taken.forEach(c -> pool.giveBack(c, true));
        assertEquals(ContextPool.PROBES, pool.idleContexts().size(), "idle after one thread gave back");
        assertEquals(live - 3, PooledContext.live(), "the contexts beyond the probed slots were freed");
        // And they are found again, without allocating.
        for (int i = 0; i < ContextPool.PROBES; i++) {
            taken.set(i, pool.borrow());
        }
        assertEquals(live - 3, PooledContext.live(), "borrowed again from the idle slots");
        assertTrue(pool.idleContexts().isEmpty());
        taken.subList(0, ContextPool.PROBES).forEach(c -> pool.giveBack(c, true));
        freeIdle(pool);
    }

    @Test
    void threadsTakingAndGivingBackAtOnceLoseNoContextAndNeverShareOne() throws Exception {
        ContextPool<Sm3Context> pool = new ContextPool<>(Sm3Context.KIND);
        int threads = 4;
        int rounds = 20_000;
        long live = PooledContext.live();
        CyclicBarrier start = new CyclicBarrier(threads);
        Set<Sm3Context> inUse = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
        List<Future<Integer>> results = new ArrayList<>();
        try (ExecutorService executor = Executors.newFixedThreadPool(threads)) {
            for (int t = 0; t < threads; t++) {
                results.add(executor.submit(() -> {
                    start.await();
                    int shared = 0;
                    for (int i = 0; i < rounds; i++) {
                        Sm3Context a = pool.borrow();
                        Sm3Context b = pool.borrow();
                        shared += inUse.add(a) ? 0 : 1;
                        shared += inUse.add(b) ? 0 : 1;
                        inUse.remove(a);
                        inUse.remove(b);
                        pool.giveBack(b, true);
                        pool.giveBack(a, true);
                    }
                    return shared;
                }));
            }
            for (Future<Integer> r : results) {
                assertEquals(0, r.get(), "a context was lent to two users at once");
            }
        }
        List<Sm3Context> idle = pool.idleContexts();
        Set<Sm3Context> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
        distinct.addAll(idle);
        assertEquals(idle.size(), distinct.size(), "a context idle in two slots");
        assertEquals(live + idle.size(), PooledContext.live(), "every context not idle was freed");
        freeIdle(pool);
        assertEquals(live, PooledContext.live());
    }

    // The pool is dropped after the test: its idle contexts are freed where they lie.
    private static void freeIdle(ContextPool<Sm3Context> pool) {
        pool.idleContexts().forEach(PooledContext::free);
    }

    /**
     * Past the claim limit, a claiming thread asks for a collection and waits for the contexts of owners that died
     * holding them; those go back to the pool (cleared), and the claim proceeds.
     */
    @Test
    void pastTheLimitAClaimWaitsForTheContextsOfDeadOwners() throws Exception {
        ContextPool<Sm3Context> pool = new ContextPool<>(Sm3Context.KIND);
        long live = PooledContext.live();
        // The owners live until the claim past the limit: a young collection during the loop would otherwise
        // queue some of their claims, which that claim takes back without asking for a collection, and stays
        // under the limit with more than half of them still counted (seen on a loaded machine: 5606).
        Object[] owners = new Object[ContextPool.CLAIM_LIMIT];
        for (int i = 0; i < owners.length; i++) {
            owners[i] = new Object();
            pool.claim(owners[i], pool.borrow());
        }
        assertEquals(ContextPool.CLAIM_LIMIT, pool.claimedCount());
        Object owner = new Object();
        Sm3Context borrowed = pool.borrow();
        // Nothing is allocated from here to the claim, so no collection but the one it asks for finds them dead.
        java.util.Arrays.fill(owners, null);
        Sm3Context c = pool.claim(owner, borrowed);
        // The dead owners' contexts were reclaimed while this claim waited: cleared, idle or freed. Every context of
        // this pool still allocated is idle or claimed (a dead owner's claim counts until it is taken back).
        assertEquals(live + pool.idleContexts().size() + pool.claimedCount(), PooledContext.live(),
                "a reclaimed context is neither idle nor freed");
        assertTrue(pool.claimedCount() < ContextPool.CLAIM_LIMIT / 2, "claims still counted: " + pool.claimedCount());
        assertTrue(PooledContext.live() - live < ContextPool.CLAIM_LIMIT / 2, "contexts still live");
        for (Sm3Context idle : pool.idleContexts()) {
            assertTrue(idle.primed() && idle.claim() == null, "an idle context was not cleared and released");
        }
        pool.giveBack(c, true);
        java.lang.ref.Reference.reachabilityFence(owner);
        for (Sm3Context dead; (dead = pool.takeDead()) != null; ) {
            pool.giveBack(dead, true);
        }
        freeIdle(pool);
    }

    /**
     * A borrow first takes back the contexts of owners that died holding their claims: those it keeps idle are
     * cleared (started, staging zeroed, no keyed states), those it finds no room for are freed; none is lost.
     */
    @Test
    void aBorrowTakesBackDeadOwnersContextsClearedOrFreed() throws Exception {
        reclaimedByABorrow(new ContextPool<>(Sm3Context.KIND), c -> {
            c.start();
            c.updateArray(new byte[] {1, 2, 3, 4, 5}, 0, 5);
        });
        byte[] key = new byte[20];
        java.util.Arrays.fill(key, (byte) 0x0b);
        reclaimedByABorrow(new ContextPool<>(HmacContext.KIND), c -> {
            c.key(c.padsOf(key));
            assertTrue(c.keyed(), "a keyed context holds a key's states");
            c.begin(c.padsOf(key));
            c.updateArray(new byte[] {1, 2, 3, 4, 5}, 0, 5);
        });
    }

    private static <C extends PooledContext> void reclaimedByABorrow(ContextPool<C> pool,
                                                                     java.util.function.Consumer<C> use)
            throws Exception {
        long live = PooledContext.live();
        int owners = ContextPool.PROBES + 3;
        List<java.lang.ref.WeakReference<Object>> gone = new ArrayList<>();
        List<C> contexts = new ArrayList<>();
        for (int i = 0; i < owners; i++) {
            Object owner = new Object();
            C c = pool.claim(owner, pool.borrow());
            use.accept(c);
            // Bytes staged and not yet handed to OpenSSL, as a stream leaves them between updates.
            c.stage(new byte[] {0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a}, 0, 0, 8);
            assertTrue(!c.primed());
            contexts.add(c);
            gone.add(new java.lang.ref.WeakReference<>(owner));
        }
        assertEquals(owners, pool.claimedCount());
        // The claims are queued shortly after the owners are found dead; each borrow takes back those queued.
        for (int tries = 0; pool.claimedCount() > 0 && tries < 200; tries++) {
            System.gc();
            Thread.sleep(10);
            if (gone.stream().allMatch(r -> r.get() == null)) {
                pool.giveBack(pool.borrow(), true);
            }
        }
        assertEquals(0, pool.claimedCount(), "claims of dead owners still counted");
        List<C> idle = pool.idleContexts();
        assertTrue(idle.size() <= ContextPool.PROBES, "idle: " + idle.size());
        for (C c : idle) {
            assertTrue(c.primed(), "an idle context is not left started");
            assertTrue(c.claim() == null, "an idle context is still claimed");
            assertArrayEquals(new byte[PooledContext.STAGING_SIZE], c.staging().toArray(ValueLayout.JAVA_BYTE),
                    "an idle context's staging buffer holds bytes");
            assertTrue(!(c instanceof HmacContext h && h.keyed()), "an idle context holds keyed states");
        }
        long kept = contexts.stream().filter(c -> PooledContext.all().contains(c)).count();
        assertTrue(kept <= idle.size(), "a reclaimed context is neither idle nor freed");
        assertEquals(live + idle.size(), PooledContext.live(), "every context not idle was freed");
        pool.freeIdle();
        assertTrue(pool.idleContexts().isEmpty(), "freeIdle leaves none idle");
        assertEquals(live, PooledContext.live(), "freeIdle frees them");
    }

    /** A stream that ends its first message without a digest gives its claimed context back at once. */
    @Test
    void aResetStreamGivesItsContextBack() throws Exception {
        DigestStream stream = Algorithm.sm3Stream();
        stream.update(new byte[1000], 0, 1000);
        assertTrue(stream.holdsContext());
        PooledContext claimed = stream.snapshot().claimed();
        assertTrue(claimed.claim() != null, "the stream's context is claimed");
        stream.reset();
        assertTrue(!stream.holdsContext());
        // Its claim ended: it is idle (cleared) or freed, and no one's.
        assertTrue(claimed.claim() == null && (claimed.primed() || !PooledContext.all().contains(claimed)));
    }
}
