package io.github.sm3ffm.internal.libcrypto;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.security.ProviderException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The proof of OpenSSL's {@code SM3_CTX} layout ({@link Sm3CtxLayout}) and the decision it feeds
 * ({@link DirectSm3#copies}), on synthetic contexts: a stand-in for the provider's functions that keeps the
 * bookkeeping of an {@code SM3_CTX} (chaining words, bit count, block bytes, fill count) in Java memory, in the
 * right layout or with one field moved. The proof must accept the right layout, refuse every moved one, and write
 * nothing into a context: the stand-in checks, at each of its calls, that the context holds what it left there.
 */
class Sm3CtxLayoutTest {
    /** A stand-in SM3_CTX: words at 0, the bit count at {@code nl}, the block at {@code data}, the fill at {@code num}. */
    private static final class Standin implements ProviderCalls {
        /** Room for {@link #hiddenFill}'s count, past the 108 bytes. */
        static final long HIDDEN = Sm3CtxLayout.SM3_CTX_BYTES;
        static final long SIZE = HIDDEN + 4;
        final Arena arena = Arena.ofConfined();
        final long nl;
        final long data;
        final long num;
        final boolean dupDiffers;
        final Map<Long, byte[]> left = new HashMap<>();
        int calls;
        /** The function that reports failure, as the provider's would (NULL or 0), or null for none. */
        String failing;
        /** Whether the final leaves the block's bytes in place instead of clearing them. */
        boolean keepsBlock;
        /**
         * Whether the fill count that drives updates is kept past the 108 bytes too (a copy of {@code num} stays
         * where the proof reads it): the layout reads right, yet a copy of the 108 bytes misses state.
         */
        boolean hiddenFill;
        /** Whether a caller may write whole contexts as bytes, as the copy check does (the proof may not). */
        boolean bytesWritten;
        /** Whether a dupctx copy loses a chaining word, so that it finishes unlike its source. */
        boolean dupLosesState;
        /** Contexts started by an init (or copied from one): the provider's functions take no other. */
        final java.util.Set<Long> started = new java.util.HashSet<>();
        int frees;

        Standin(long nl, long data, long num, boolean dupDiffers) {
            this.nl = nl;
            this.data = data;
            this.num = num;
            this.dupDiffers = dupDiffers;
        }

        Standin failing(String function) {
            failing = function;
            return this;
        }

        private MemorySegment ctx(MemorySegment ctx) {
            MemorySegment c = ctx.reinterpret(SIZE);
            byte[] expected = left.get(c.address());
            assertTrue(expected == null || bytesWritten || MemorySegment.ofArray(expected).mismatch(c) == -1,
                    "something else wrote into the context");
            calls++;
            return c;
        }

        private int leave(MemorySegment c) {
            left.put(c.address(), c.toArray(JAVA_BYTE));
            return 1;
        }

        @Override
        public MemorySegment newctx() {
            if ("newctx".equals(failing) || ("newctx-second".equals(failing) && !left.isEmpty())) {
                return MemorySegment.NULL;
            }
            MemorySegment c = arena.allocate(SIZE, 8);
            leave(c);
            return c;
        }

        @Override
        public int init(MemorySegment ctx) {
            MemorySegment c = ctx(ctx);
            if ("init".equals(failing)) {
                return 0;
            }
            c.fill((byte) 0);
            for (int i = 0; i < 8; i++) {
                c.set(JAVA_INT, 4L * i, Sm3CtxLayout.IV[i]);
            }
            started.add(c.address());
            return leave(c);
        }

        @Override
        public int update(MemorySegment ctx, MemorySegment in, long len) {
            MemorySegment c = ctx(ctx);
            if ("update".equals(failing) || ("second update".equals(failing) && len == 64)
                    || !started.contains(c.address())) {
                return 0;
            }
            for (long i = 0; i < len; i++) {
                int n = c.get(JAVA_INT, hiddenFill ? HIDDEN : num);
                c.set(JAVA_BYTE, data + n, in.get(JAVA_BYTE, i));
                c.set(JAVA_INT, nl, c.get(JAVA_INT, nl) + 8);
                if (++n == 64) {
                    // A compression stand-in: the chaining words change with every block.
                    for (int w = 0; w < 8; w++) {
                        c.set(JAVA_INT, 4L * w, c.get(JAVA_INT, 4L * w) * 31 + c.get(JAVA_INT, data + 4L * w));
                    }
                    n = 0;
                }
                c.set(JAVA_INT, num, n);
                c.set(JAVA_INT, HIDDEN, n);
            }
            return leave(c);
        }

        @Override
        public MemorySegment dupctx(MemorySegment ctx) {
            MemorySegment c = ctx(ctx);
            if ("dupctx".equals(failing)) {
                return MemorySegment.NULL;
            }
            MemorySegment dup = newctx();
            MemorySegment.copy(c, 0, dup, 0, SIZE);
            if (dupDiffers) {
                dup.set(JAVA_BYTE, 107, (byte) 1);
            }
            if (dupLosesState) {
                dup.set(JAVA_INT, 0, ~dup.get(JAVA_INT, 0));
            }
            if (started.contains(c.address())) {
                started.add(dup.address());
            }
            leave(c);
            return leave(dup) == 1 ? dup : null;
        }

        @Override
        public int fin(MemorySegment ctx, MemorySegment out, MemorySegment outl) {
            MemorySegment c = ctx(ctx);
            if ("fin".equals(failing) || !started.contains(c.address())) {
                return 0;
            }
            for (int w = 0; w < 8; w++) {
                out.set(JAVA_INT.withOrder(java.nio.ByteOrder.BIG_ENDIAN), 4L * w, c.get(JAVA_INT, 4L * w));
            }
            outl.set(JAVA_LONG, 0, 32);
            if (!keepsBlock) {
                c.asSlice(data, 64).fill((byte) 0);
            }
            c.set(JAVA_INT, num, 0);
            c.set(JAVA_INT, HIDDEN, 0);
            return leave(c);
        }

        @Override
        public void freectx(MemorySegment ctx) {
            ctx(ctx);
            frees++;
        }
    }

    @Test
    void theProofAcceptsOpenSslsLayoutAndWritesNothing() throws Throwable {
        Standin right = new Standin(32, 40, 104, false);
        assertTrue(Sm3CtxLayout.proved(right));
        assertTrue(right.calls >= 7, "the proof read through every function: " + right.calls);
    }

    @Test
    void theProofRefusesEveryLayoutItCannotProve() throws Throwable {
        assertFalse(Sm3CtxLayout.proved(new Standin(36, 40, 104, false)), "bit count moved");
        assertFalse(Sm3CtxLayout.proved(new Standin(32, 44, 104, false)), "block moved");
        assertFalse(Sm3CtxLayout.proved(new Standin(32, 40, 100, false)), "fill count moved");
        assertFalse(Sm3CtxLayout.proved(new Standin(32, 40, 104, true)), "a dupctx copy that is not the bytes");
        Standin keeps = new Standin(32, 40, 104, false);
        keeps.keepsBlock = true;
        assertFalse(Sm3CtxLayout.proved(keeps), "a final that leaves the block");
    }

    /**
     * A function that reports failure anywhere in the proof throws as a failed call does: the proof could not be
     * made, which is no verdict on the layout (the choice runs again at the next use). What was made is freed.
     */
    @Test
    void aFailingFunctionIsNoVerdictAndFreesWhatItMade() {
        assertTrue(LibCrypto.isAvailable(), "a failure reads OpenSSL's error queue");
        for (String function : new String[] {"newctx", "init", "update", "second update", "dupctx", "fin"}) {
            Standin s = new Standin(32, 40, 104, false).failing(function);
            ProviderException e = assertThrows(ProviderException.class, () -> Sm3CtxLayout.proved(s), function);
            assertTrue(e.getMessage().startsWith("SM3 "), e.getMessage());
            int made = s.left.size();
            assertEquals(made, s.frees, function + ": contexts made and freed");
        }
    }

    @Test
    void stateBytesAreChosenOnlyWhereEverythingAgreesAndTheProofIsAskedLast() throws Throwable {
        assertTrue(LibCrypto.isAvailable(), "a failure reads OpenSSL's error queue");
        AtomicInteger asked = new AtomicInteger();
        DirectSm3.Check yes = () -> asked.incrementAndGet() > 0;
        Standin right = new Standin(32, 40, 104, false);
        Standin moved = new Standin(36, 40, 104, false);
        long v30 = 0x3000_0130L;
        assertEquals(DirectSm3.Copies.STATE_BYTES, DirectSm3.copies(false, null, "default", v30, right, yes));
        assertEquals(1, asked.getAndSet(0));
        assertEquals(DirectSm3.Copies.DUPCTX, DirectSm3.copies(false, null, "default", v30, moved, yes),
                "proof refused");
        assertEquals(0, asked.get(), "the copy check runs only once the layout is proved");
        assertEquals(DirectSm3.Copies.DUPCTX, DirectSm3.copies(false, null, "default", v30, right,
                () -> asked.incrementAndGet() < 0), "copy check failed");
        assertThrows(ProviderException.class, () -> DirectSm3.copies(false, null, "default", v30, right,
                () -> {
                    throw new ProviderException("SM3 newctx failed: ");
                }), "a copy check that could not run decides nothing");
        assertThrows(ProviderException.class, () -> DirectSm3.copies(false, null, "default", v30,
                new Standin(32, 40, 104, false).failing("dupctx"), yes), "nor does a proof that could not run");
        asked.set(0);
        assertEquals(DirectSm3.Copies.COPYCTX, DirectSm3.copies(true, null, "default", v30, right, yes));
        assertEquals(DirectSm3.Copies.DUPCTX, DirectSm3.copies(false, "false", "default", v30, right, yes),
                "switched off");
        assertEquals(DirectSm3.Copies.STATE_BYTES, DirectSm3.copies(false, "true", "default", v30, right, yes));
        asked.set(0);
        Standin untouched = new Standin(32, 40, 104, false);
        assertEquals(DirectSm3.Copies.DUPCTX, DirectSm3.copies(false, null, "fips", v30, untouched, yes),
                "another provider");
        assertEquals(DirectSm3.Copies.DUPCTX, DirectSm3.copies(false, null, "default", 0x3050_0000L, untouched, yes),
                "3.5");
        assertEquals(DirectSm3.Copies.DUPCTX, DirectSm3.copies(false, null, "default", 0x2000_0000L, untouched, yes),
                "2.x");
        assertEquals(0, asked.get() + untouched.calls, "the proof runs only where the bytes could be copied");
    }

    /**
     * The copy check itself, on stand-ins: contexts copied as their 108 bytes must finish as the source does, so a
     * provider whose layout reads right but keeps state past those bytes is refused, and copies go through dupctx.
     */
    @Test
    void theCopyCheckRefusesAByteCopyThatMissesState() throws Throwable {
        long v30 = 0x3000_0130L;
        Standin right = new Standin(32, 40, 104, false);
        right.bytesWritten = true;
        assertTrue(DirectSm3.copyCheck(right), "the 108 bytes are the whole state");
        assertEquals(right.left.size(), right.frees, "contexts made and freed");

        Standin hidden = new Standin(32, 40, 104, false);
        hidden.hiddenFill = true;
        assertTrue(Sm3CtxLayout.proved(hidden), "the layout reads right");
        hidden.bytesWritten = true;
        assertFalse(DirectSm3.copyCheck(hidden), "a byte copy that misses the fill count");
        assertEquals(hidden.left.size(), hidden.frees, "contexts made and freed");

        Standin lostDup = new Standin(32, 40, 104, false);
        lostDup.bytesWritten = true;
        lostDup.dupLosesState = true;
        assertFalse(DirectSm3.copyCheck(lostDup), "a dupctx copy that finishes unlike its source");
        assertEquals(lostDup.left.size(), lostDup.frees, "contexts made and freed");

        Standin chosen = new Standin(32, 40, 104, false);
        chosen.hiddenFill = true;
        assertEquals(DirectSm3.Copies.DUPCTX, DirectSm3.copies(false, null, "default", v30, chosen, () -> {
            chosen.bytesWritten = true;
            return DirectSm3.copyCheck(chosen);
        }));
    }

    @Test
    void theOfferMapsToOneBackend() {
        assertTrue(BackendChoice.backendFor(DirectSm3.Offer.evp("no provider")) instanceof EvpBackend);
        assertTrue(BackendChoice.backendFor(new DirectSm3.Offer(null, "default", DirectSm3.Copies.COPYCTX, null))
                instanceof ProviderBackend.Copyctx);
        assertTrue(BackendChoice.backendFor(
                new DirectSm3.Offer(null, "default", DirectSm3.Copies.STATE_BYTES, null))
                instanceof ProviderBackend.StateBytes);
        assertTrue(BackendChoice.backendFor(new DirectSm3.Offer(null, "other", DirectSm3.Copies.DUPCTX, null))
                instanceof ProviderBackend.Dupctx);
        assertTrue(BackendChoice.backendFor(DirectSm3.Offer.evp("x=false")).description().contains("x=false"));
        assertTrue(BackendChoice.backendFor(new DirectSm3.Offer(null, "other", DirectSm3.Copies.DUPCTX, null)).description()
                .contains("\"other\" provider"));
    }
}
