package io.github.sm3ffm.internal.libcrypto;

import java.lang.foreign.MemorySegment;

/** One SM3 context and its staging buffer: what a digest stream and the X9.63 KDF compute on. */
final class Sm3Context extends PooledContext {
    private Sm3Context(MemorySegment ctx, MemorySegment staging) {
        super(ctx, staging);
    }

    static Sm3Context allocate() {
        MemorySegment staging = allocateStaging();
        try {
            return new Sm3Context(BACKEND.newContext(), staging);
        } catch (RuntimeException e) {
            freeStaging(staging);
            throw e;
        }
    }

    /** Starts a new message. */
    void start() {
        startMessage();
    }

    /** Finishes the message into the first 32 bytes of the staging buffer. */
    void finish() {
        BACKEND.finalInto(ctx, staging, writtenLength);
    }

    @Override
    void copyTo(PooledContext into) {
        into.primed = false;
        into.ctx = BACKEND.copy(ctx, into.ctx);
    }

    @Override
    void clearStates() {
        BACKEND.clear(ctx);
    }

    @Override
    void freeContexts() {
        BACKEND.free(ctx);
    }
}
