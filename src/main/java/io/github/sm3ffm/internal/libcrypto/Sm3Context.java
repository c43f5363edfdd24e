package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.MemorySegment;
import java.util.List;

/** One SM3 context and its staging buffer: what a digest stream and the X9.63 KDF compute on. */
final class Sm3Context extends PooledContext {
    private Sm3Context(MemorySegment ctx, MemorySegment staging) {
        super(ctx, staging);
    }

    /** How a pool makes these contexts: a staging buffer and the SM3 states; tests make pools of their own. */
    static final ContextPool.Kind<Sm3Context> KIND = new ContextPool.Kind<>() {
        @Override
        public PooledContext make() {
            // Each allocation that fails frees the ones before it. Written here, one frame above the backend.
            MemorySegment staging = BACKEND.allocate(STAGING_SIZE);
            try {
                return new Sm3Context(BACKEND.newContext(), staging);
            } catch (RuntimeException e) {
                BACKEND.release(staging);
                throw e;
            }
        }

        @Override
        public Class<Sm3Context> type() {
            return Sm3Context.class;
        }
    };

    /** The pool of these contexts, for digests and the X9.63 KDF. */
    static final ContextPool<Sm3Context> POOL = new ContextPool<>(KIND);


    /** Starts a new message (no init where the pool left it started). */
    void start() {
        if (!takePrimed()) {
            BACKEND.init(ctx());
        }
    }

    /** Starts a message from state bytes that {@link #saveState} gave, whatever this context held. */
    void restore(byte[] state) {
        unprime();
        BACKEND.restore(state, ctx());
    }

    // At the start of an array (where MessageDigest.digest() asks for it), in place: a critical call writes heap
    // arrays, the digest never lands in native memory, and a heap segment of the whole array, unlike a slice, is
    // one object that the JIT drops. Elsewhere through the output region, which the wipe that follows every
    // message zeroes.
    /** Finishes the message into {@code out} at {@code offset}. */
    void finish(byte[] out, int offset) {
        if (offset == 0) {
            BACKEND.finalInto(ctx(), MemorySegment.ofArray(out), writtenLength());
            return;
        }
        mark(DIGEST_LENGTH);
        BACKEND.finalInto(ctx(), output(), writtenLength());
        MemorySegment.copy(output(), JAVA_BYTE, 0, out, offset, DIGEST_LENGTH);
    }

    /** Puts a copy of this context's message state in {@code into}. */
    void copyTo(Sm3Context into) {
        into.unprime();
        into.ctx(BACKEND.copy(ctx(), into.ctx()));
    }

    /** Hashes the first {@code len} bytes staged in {@code from}'s buffer, on this context's message. */
    void updateFrom(Sm3Context from, int len) {
        BACKEND.update(ctx(), from.staging(), len);
    }

    /** This context's message state as heap bytes, where the backend's states are bytes; else null. */
    byte[] saveState() {
        return BACKEND.save(ctx());
    }

    @Override
    boolean clear() {
        try {
            BACKEND.clear(ctx());
        } catch (RuntimeException e) {
            return false;
        }
        return cleared();
    }

    @Override
    void freeKeys() {
    }

    @Override
    List<MemorySegment> states() {
        return List.of(ctx());
    }
}
