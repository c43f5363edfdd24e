package io.github.sm3ffm.internal.libcrypto;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * The read-only proof that the provider's SM3 contexts are OpenSSL's {@code SM3_CTX} (include/crypto/sm3.h,
 * 3.0 to 3.4), made before anything is written into one as bytes:
 * <pre>
 *   offset   0: SM3_WORD A..H      the chaining value: the IV after init, the digest's words after a final
 *   offset  32: SM3_WORD Nl, Nh    the message length in bits, low and high word
 *   offset  40: SM3_WORD data[16]  the bytes of the unfinished block, as fed
 *   offset 104: unsigned int num   how many bytes of data are filled
 * </pre>
 * Each field is read where it should be after init, after feeding a few bytes, after crossing a block and
 * after a final, with the values SM3 (GB/T 32905-2016) and OpenSSL's md32 code put there; and a dupctx copy of a
 * context must hold the same 108 bytes (a plain struct assignment, no pointers). The last field read is
 * {@code num} at 104, so every byte a copy moves is inside the context. Every read stays within those
 * {@value #SM3_CTX_BYTES} bytes of a context that the provider's newctx allocated.
 */
final class Sm3CtxLayout {
    /** Bytes of OpenSSL's {@code SM3_CTX}: 8 + 2 + 16 + 1 four-byte words, from 1.1.1 to 3.4. */
    static final long SM3_CTX_BYTES = 108;
    /** SM3's IV (GB/T 32905-2016), the chaining value init puts at offset 0. */
    static final int[] IV = {0x7380166f, 0x4914b2b9, 0x172442d7, 0xda8a0600, 0xa96f30bc, 0x163138aa,
            0xe38dee4d, 0xb0fb0e4e};
    private static final long NL = 32;
    private static final long NH = 36;
    private static final long DATA = 40;
    private static final long NUM = 104;

    private Sm3CtxLayout() {
    }

    /**
     * Whether every field of {@code SM3_CTX} reads as it should through {@code calls}; reads only (contexts are
     * reinterpreted read-only), frees what it allocates. A call that fails throws: the proof could not be made, which
     * is no verdict on the layout.
     */
    static boolean proved(ProviderCalls calls) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            byte[] bytes = new byte[69];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) (i * 13 + 5);
            }
            MemorySegment message = arena.allocateFrom(JAVA_BYTE, bytes);
            MemorySegment ctx = MemorySegment.NULL;
            MemorySegment dup = MemorySegment.NULL;
            try {
                ctx = calls.newctxOrThrow();
                MemorySegment c = ctx.reinterpret(SM3_CTX_BYTES).asReadOnly();
                calls.initOrThrow(ctx);
                if (!words(c, IV) || !counts(c, 0, 0) || !filled(c, new byte[64], 0, 64)) {
                    return false;
                }
                // Five bytes wait in the block; then 64 more cross into the next block, leaving five again.
                calls.updateOrThrow(ctx, message, 5L);
                if (!words(c, IV) || !counts(c, 5, 5) || !filled(c, bytes, 0, 5)) {
                    return false;
                }
                calls.updateOrThrow(ctx, message, 64L);
                if (words(c, IV) || !counts(c, 69, 5) || !filled(c, bytes, 59, 5)) {
                    return false;
                }
                dup = calls.dupctxOrThrow(ctx);
                if (dup.reinterpret(SM3_CTX_BYTES).asReadOnly().mismatch(c) != -1) {
                    return false;
                }
                return finishesAsSm3Does(calls, ctx, c, arena);
            } finally {
                calls.freeIfMade(dup);
                calls.freeIfMade(ctx);
            }
        }
    }

    /** After a final: the digest's words, the length kept, the block cleared. */
    private static boolean finishesAsSm3Does(ProviderCalls calls, MemorySegment ctx, MemorySegment c, Arena arena)
            throws Throwable {
        MemorySegment out = arena.allocate(Sm3Sizes.DIGEST_LENGTH);
        MemorySegment outl = arena.allocate(JAVA_LONG);
        calls.finOrThrow(ctx, out, outl);
        if (outl.get(JAVA_LONG, 0) != Sm3Sizes.DIGEST_LENGTH) {
            return false;
        }
        int[] digest = new int[8];
        ByteBuffer.wrap(out.toArray(JAVA_BYTE)).asIntBuffer().get(digest);
        return words(c, digest) && counts(c, 69, 0) && filled(c, new byte[64], 0, 64);
    }

    private static boolean words(MemorySegment c, int[] expected) {
        for (int i = 0; i < expected.length; i++) {
            if (c.get(JAVA_INT, 4L * i) != expected[i]) {
                return false;
            }
        }
        return true;
    }

    /** The bit count of {@code fed} bytes (high word zero) and the fill count. */
    private static boolean counts(MemorySegment c, int fed, int num) {
        return c.get(JAVA_INT, NL) == fed * 8 && c.get(JAVA_INT, NH) == 0 && c.get(JAVA_INT, NUM) == num;
    }

    /** The block's first {@code n} bytes are those of {@code bytes} from {@code from}. */
    private static boolean filled(MemorySegment c, byte[] bytes, int from, int n) {
        for (int i = 0; i < n; i++) {
            if (c.get(JAVA_BYTE, DATA + i) != bytes[from + i]) {
                return false;
            }
        }
        return true;
    }
}
