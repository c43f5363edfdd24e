package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.MemorySegment;

/** One SM3 context and its staging buffer: what a digest stream and the X9.63 KDF compute on. */
final class Sm3Context extends PooledContext {
    Sm3Context(MemorySegment ctx, MemorySegment staging) {
        super(ctx, staging);
    }

    /** Starts a new message: from parked state bytes, or anew (no init where the pool left it started). */
    @Override
    void begin(byte[] pads, byte[] parked) {
        if (parked != null) {
            primed = false;
            BACKEND.restore(parked, ctx);
        } else if (primed) {
            primed = false;
        } else {
            BACKEND.init(ctx);
        }
    }

    /** Starts a new message. */
    void start() {
        begin(null, null);
    }

    @Override
    void key(byte[] pads) {
    }

    // At the start of an array (where MessageDigest.digest() asks for it), in place: a critical call writes heap
    // arrays, the digest never lands in native memory, and a heap segment of the whole array, unlike a slice, is
    // one object that the JIT drops. Elsewhere through the staging buffer's output, which the wipe that follows
    // every message zeroes. Every caller gives an array.
    @Override
    void finish(byte[] pads, byte[] out, int offset) {
        if (offset == 0) {
            BACKEND.finalInto(ctx, MemorySegment.ofArray(out), writtenLength);
            return;
        }
        mark(DIGEST_LENGTH);
        BACKEND.finalInto(ctx, output, writtenLength);
        MemorySegment.copy(output, JAVA_BYTE, 0, out, offset, DIGEST_LENGTH);
    }

    @Override
    void copyTo(PooledContext into) {
        into.primed = false;
        into.ctx = BACKEND.copy(ctx, into.ctx);
    }

    @Override
    byte[] saveState() {
        return BACKEND.save(ctx);
    }
}
