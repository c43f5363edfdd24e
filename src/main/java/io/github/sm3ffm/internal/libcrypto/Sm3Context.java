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
            return new Sm3Context(SM3.newContext(), staging);
        } catch (RuntimeException e) {
            freeStaging(staging);
            throw e;
        }
    }

    /** Starts a new message. */
    void start() {
        SM3.init(ctx);
    }

    /** Starts a new message that carries a secret: the pool clears the context when it comes back. */
    void startSecret() {
        secret = true;
        SM3.init(ctx);
    }

    /** Finishes the message into the first 32 bytes of the staging buffer. */
    void finish() {
        SM3.finalInto(ctx, staging, writtenLength);
    }

    @Override
    void copyStatesTo(PooledContext into) {
        into.ctx = SM3.copy(ctx, into.ctx);
    }

    @Override
    void clearStates() {
        SM3.clear(ctx);
    }

    @Override
    void freeContexts() {
        SM3.free(ctx);
    }
}
