package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import java.lang.ref.Reference;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A native SM3 message context of the backend that {@link Backend#SELECTED} names, with its off-heap staging
 * buffer, and the operations on it: start, update, final, copy. A {@code ContextPool} lends it to one user
 * at a time (a stream for one call or across calls, a KDF for one derivation) and takes it back.
 *
 * <p>Every context is registered here from allocation until it is freed. That keeps the pool's claim of a
 * context strongly reachable while its owner may die, which is what lets the claim be enqueued when the
 * owner does, and it counts the native contexts that exist ({@link #live()}).
 */
public abstract class PooledContext {
    /** Bytes of the staging buffer: a stream's pending input, then the digest or MAC written by OpenSSL. */
    static final int STAGING_SIZE = 512;
    /** The longest array fed in one critical call: a critical call holds off GC for its duration. */
    static final int CRITICAL_CHUNK = 64 * 1024;

    static final Backend BACKEND = Backend.SELECTED;

    private static final Set<PooledContext> ALL = ConcurrentHashMap.newKeySet();

    /** The message's SM3 context; a copy by the provider's dupctx (before OpenSSL 3.5) puts a new one in its place. */
    MemorySegment ctx;
    final MemorySegment staging;
    /** Where a final call reports the length it wrote: just past the output, in the staging buffer. */
    final MemorySegment writtenLength;
    /** The pool's claim for the owner that keeps this context across calls; null while idle or borrowed. */
    Reference<Object> claim;
    /**
     * Whether {@code ctx} is started on an empty message and holds nothing else, as a {@link #scrub} leaves it: the
     * next message needs no init of its own.
     */
    boolean primed;

    /** Takes ownership of {@code ctx} and of {@code staging} (from {@link #allocateStaging}). */
    PooledContext(MemorySegment ctx, MemorySegment staging) {
        this.ctx = ctx;
        this.staging = staging;
        this.writtenLength = staging.asSlice(DIGEST_LENGTH, JAVA_LONG.byteSize());
        ALL.add(this);
    }

    /** Feeds {@code len} bytes of {@code data} (heap or native) in one short critical call. */
    final void update(MemorySegment data, long len) {
        BACKEND.update(ctx, data, len);
    }

    /** Feeds native {@code data} of any length in an ordinary call, during which GC may run. */
    final void updateNative(MemorySegment data, long len) {
        BACKEND.updateNative(ctx, data, len);
    }

    /** Feeds array bytes: through the staging buffer when they fit, else in place in critical chunks. */
    final void updateArray(byte[] bytes, int offset, int len) {
        if (len <= STAGING_SIZE) {
            MemorySegment.copy(bytes, offset, staging, JAVA_BYTE, 0, len);
            update(staging, len);
            return;
        }
        updateInPlace(bytes, offset, len);
    }

    /** Feeds array bytes straight from the array, in critical calls of at most {@value #CRITICAL_CHUNK} bytes. */
    final void updateInPlace(byte[] bytes, int offset, int len) {
        MemorySegment whole = MemorySegment.ofArray(bytes);
        for (int end = offset + len; offset < end; offset += CRITICAL_CHUNK) {
            int n = Math.min(CRITICAL_CHUNK, end - offset);
            update(whole.asSlice(offset, n), n);
        }
    }

    /** Copies the digest or MAC that a finish left at the start of the staging buffer. */
    final void output(byte[] out, int offset, int length) {
        MemorySegment.copy(staging, JAVA_BYTE, 0, out, offset, length);
    }

    /** Puts a copy of this context's states in {@code into}, a context of the same kind from the pool. */
    abstract void copyTo(PooledContext into);

    /**
     * This context's message state as heap bytes, where the backend's states are bytes and the state may wait on
     * the heap; else null.
     */
    byte[] saveState() {
        return BACKEND.save(ctx);
    }

    /** Puts a state from {@link #saveState} into this context's message, in place of whatever it held. */
    final void restoreState(byte[] state) {
        primed = false;
        BACKEND.restore(state, ctx);
    }

    /** Starts a new message on the message context, unless a scrub left it started already. */
    final void startMessage() {
        if (primed) {
            primed = false;
        } else {
            BACKEND.init(ctx);
        }
    }

    /**
     * Clears everything its user left, so that the context can serve someone else: every SM3 state it holds
     * ({@link Backend#clear}: a message's, a key's, a finished digest's) and every byte of the staging buffer.
     * Called by the pool on every context it takes back; throws if a native call fails, and the pool then frees
     * the context. Every user of a pooled context starts a message on it before anything else.
     */
    final void scrub() {
        clearStates();
        staging.fill((byte) 0);
        primed = true;
    }

    /** Clears every SM3 state of this context with {@link Backend#clear}. */
    abstract void clearStates();

    /** Frees the OpenSSL contexts; the staging buffer is freed by {@link #free()}. */
    abstract void freeContexts();

    /** A staging buffer for a new context; free it with {@link #freeStaging} if the context is not built. */
    static MemorySegment allocateStaging() {
        return BACKEND.allocate(STAGING_SIZE);
    }

    /** Clears (it held message, key or output bytes) and frees a staging buffer. */
    static void freeStaging(MemorySegment buffer) {
        BACKEND.release(buffer);
    }

    /** Native contexts (digests and MACs, idle, borrowed or claimed) allocated and not yet freed, in this JVM. */
    public static long live() {
        return ALL.size();
    }

    /** Every context not yet freed, for tests that read what native memory still holds. */
    static Set<PooledContext> all() {
        return Set.copyOf(ALL);
    }

    /** Frees everything this context holds (OpenSSL clears SM3 states as it frees them); not used again. */
    final void free() {
        if (ALL.remove(this)) {
            freeContexts();
            freeStaging(staging);
        }
    }
}
