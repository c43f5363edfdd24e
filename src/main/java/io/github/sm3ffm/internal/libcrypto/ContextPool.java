package io.github.sm3ffm.internal.libcrypto;

import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import io.github.sm3ffm.internal.concurrent.StripedSlots;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Native contexts of one kind, lent so that native memory is held only while it is needed, and the owner of
 * what is left in them: contexts are made here ({@link #borrow}, through the pool's {@link Kind}), come back only
 * through {@link #giveBack}, which clears every state and staging byte its user left ({@link PooledContext#clear})
 * before anyone else can borrow it, and are freed here ({@link PooledContext#free}), a context whose call failed at
 * once, its state unknown. The pool knows its contexts through those three operations alone.
 *
 * <ul>
 * <li><b>Borrowed</b> ({@link #borrow}) for the length of one call: a short message is hashed at
 * {@code digest()} on a borrowed context, a KDF derives on one, and a new engine holds no native memory.</li>
 * <li><b>Claimed</b> ({@link #claim}) by an engine that must keep OpenSSL state between calls. The claim is
 * a phantom reference to the owner: when the owner dies unfinished, the GC enqueues the claim, and the next
 * stream that borrows gives the context back ({@link #takeDead}). Reclamation so runs at the pace of allocation, on
 * the allocating threads, and never waits for a thread that may starve.</li>
 * </ul>
 *
 * <p>Idle contexts wait in {@link #IDLE_PER_CPU} striped slots per CPU ({@link StripedSlots}: compare-and-set, no
 * lock, so virtual threads never block here; a cache line per slot), with each thread looking at {@link #PROBES}
 * slots from its own; contexts it finds no room for are freed. So the pool keeps at most 16 contexts idle on
 * a 2-core machine, about 20 KiB (docs/design-notebook.md, "The pool under many threads").
 *
 * <p>Claims are bounded as the JDK bounds direct buffers ({@code java.nio.Bits.reserveMemory}): past
 * {@link #CLAIM_LIMIT} claimed contexts, the claiming thread asks for a collection and waits (at most about
 * half a second) for the claims of dead owners; the limit then becomes twice the contexts that are still
 * claimed, so owners that are all alive never wait again until that many more exist. With 8192 contexts of
 * about 1-1.5 KiB, abandoned digests and MACs hold at most about 12 MiB of native memory, whatever the
 * load; a limit of 1024 made the abandoned-digest churn test ask for a full collection every few
 * milliseconds.
 */
final class ContextPool<C extends PooledContext> {
    static final int IDLE_PER_CPU = 8;
    /**
     * Slots a thread looks at, from its own, before it allocates or frees: a miss reads that many lines, not all.
     * Never more than the slots: there are at least {@link #IDLE_PER_CPU}.
     */
    static final int PROBES = IDLE_PER_CPU;
    static final int CLAIM_LIMIT = 8192;
    // Waits of 1, 2, 4, ... 256 ms for reclaimed contexts after asking for a collection, as Bits does.
    private static final int MAX_SLEEPS = 9;

    /** How a pool makes contexts of its kind, and their class; clearing and freeing every context offers. */
    interface Kind<C extends PooledContext> {
        /**
         * A new context of {@link #type}, holding nothing; throws when an allocation fails, having freed what it made.
         * Typed as the base class, so that no bridge method stands between the pool and the allocations.
         */
        PooledContext make();

        Class<C> type();
    }

    private final Kind<C> kind;
    private final StripedSlots<C> idle;
    private final ReferenceQueue<Object> dead = new ReferenceQueue<>();
    private final AtomicInteger claimed = new AtomicInteger();
    private final ReentrantLock reclaiming = new ReentrantLock();
    private volatile int limit = CLAIM_LIMIT;

    ContextPool(Kind<C> kind) {
        this.kind = kind;
        int cpus = Math.max(1, Runtime.getRuntime().availableProcessors());
        this.idle = new StripedSlots<>(Integer.highestOneBit(cpus * IDLE_PER_CPU), PROBES);
    }

    /** An engine's claim on a context: enqueued when the engine dies still holding it. */
    private static final class Claim extends PhantomReference<Object> {
        final PooledContext context;

        Claim(Object owner, PooledContext context, ReferenceQueue<Object> queue) {
            super(owner, queue);
            this.context = context;
        }
    }

    /**
     * A context for one call, holding nothing of anyone's: an idle one, or a new one. The contexts of owners that
     * died holding theirs come back first, so that reclamation runs at the pace of allocation, on the allocating
     * threads. Native memory is allocated here and nowhere else, and freed by {@link #giveBack}.
     */
    C borrow() {
        for (C c; (c = takeDead()) != null; ) {
            // As giveBack does, written out so that the clearing stays one frame below this one.
            if (!(c.clear() && keepIdle(c))) {
                c.free();
            }
        }
        C c = idle.take();
        return c != null ? c : kind.type().cast(kind.make());
    }

    /**
     * The one way back into the pool, for a context that its user will not touch again, claimed or borrowed.
     * Nothing for null. Ends its claim; an {@code intact} context is cleared of everything its user left and kept
     * idle (freed when the pool is full); a context whose call failed is freed, which clears it too.
     */
    void giveBack(C c, boolean intact) {
        if (c == null) {
            return;
        }
        release(c);
        if (!(intact && c.clear() && keepIdle(c))) {
            c.free();
        }
    }

    /** Ends {@code c}'s claim, if it has one: a cleared reference is never enqueued, so it is reclaimed once. */
    private void release(C c) {
        Reference<Object> k = c.claim();
        if (k != null) {
            c.claim(null);
            k.clear();
            claimed.decrementAndGet();
        }
    }

    private boolean keepIdle(C c) {
        return idle.give(c);
    }

    /** Claims for {@code owner}, which keeps it across calls until it gives it back or dies, a context it borrowed. */
    C claim(Object owner, C c) {
        if (claimed.get() >= limit) {
            waitForReclamation();
        }
        c.claim(new Claim(owner, c, dead));
        claimed.incrementAndGet();
        return c;
    }

    /**
     * A context whose owner died holding its claim, its claim ended; or null. Its caller clears or frees it.
     */
    C takeDead() {
        for (Reference<?> r; (r = dead.poll()) != null; ) {
            C c = owned((Claim) r);
            if (c != null) {
                return c;
            }
        }
        return null;
    }

    /** The context of a dead owner's claim, its claim ended; null when it was given back before the owner died. */
    private C owned(Claim k) {
        C c = kind.type().cast(k.context);
        // Unless the owner gave it back before it died, and it serves someone else now.
        if (c.claim() != k) {
            return null;
        }
        release(c);
        return c;
    }

    private void waitForReclamation() {
        reclaimDead();
        if (claimed.get() < limit) {
            return;
        }
        reclaiming.lock();
        try {
            if (claimed.get() < limit) {
                return;
            }
            System.gc();
            // Only waits that bring nothing count: the queue fills one reference at a time.
            long sleep = 1;
            for (int sleeps = 0; sleeps < MAX_SLEEPS && claimed.get() >= limit / 2; ) {
                Reference<?> r = dead.remove(sleep);
                if (r == null) {
                    sleeps++;
                    sleep <<= 1;
                } else {
                    giveBack(owned((Claim) r), true);
                    reclaimDead();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            limit = Math.max(CLAIM_LIMIT, 2 * claimed.get());
            reclaiming.unlock();
        }
    }

    private void reclaimDead() {
        for (C c; (c = takeDead()) != null; ) {
            giveBack(c, true);
        }
    }

    /** Frees every idle context, for tests that need the next borrow to make one. */
    void freeIdle() {
        idle.drain(PooledContext::free);
    }

    /** The idle contexts, for tests that check the pool's books. */
    List<C> idleContexts() {
        return idle.snapshot();
    }

    /** How many contexts the pool counts as claimed, for tests. */
    int claimedCount() {
        return claimed.get();
    }
}
