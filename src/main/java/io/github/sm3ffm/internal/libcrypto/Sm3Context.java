package io.github.sm3ffm.internal.libcrypto;

import java.lang.foreign.MemorySegment;

/** One SM3 context and its staging buffer: what a digest stream and the X9.63 KDF compute on. */
final class Sm3Context extends PooledContext {
    /** Whether a secret passed through since the context was last scrubbed (a KDF's shared secret). */
    private boolean secret;

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

    // A digest's message state is no secret; a KDF's is, and never leaves native memory.
    @Override
    byte[] saveState() {
        return secret ? null : SM3.save(ctx);
    }

    @Override
    void restoreState(byte[] state) {
        SM3.restore(state, ctx);
    }

    @Override
    void copyTo(PooledContext into) {
        Sm3Context n = (Sm3Context) into;
        n.ctx = SM3.copy(ctx, n.ctx);
        n.secret = secret;
    }

    // A digest's message is the caller's data, not a key: only a secret's context costs a scrub.
    @Override
    void scrub() {
        if (secret) {
            // The provider's init zeroes the whole SM3 state before it sets the IV.
            SM3.init(ctx);
            staging.fill((byte) 0);
            secret = false;
        }
    }

    @Override
    void freeContexts() {
        SM3.free(ctx);
    }
}
