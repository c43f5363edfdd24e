package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;

import java.lang.foreign.MemorySegment;
import java.lang.ref.Reference;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Native SM3 state of the chosen backend ({@link BackendChoice#selected}), with its off-heap staging buffer: one
 * message context for a digest ({@link Sm3Context}), three for an HMAC ({@link HmacContext}). Its fields are its
 * own: users call the operations of its kind, and the pool sees only what every kind offers ({@link #clear},
 * {@link #free}).
 *
 * <p>The staging buffer ({@link StagingArea}, whose fields sit in the context) takes what a final writes, and the
 * result is copied out, except an SM3 digest at the start of an array, which goes there in place
 * ({@link Sm3Context#finish}); the length a final reports goes into a heap word ({@link #writtenLength}). The pool's
 * {@link #clear} wipes every staging byte written.
 *
 * <p>A context's methods are where the SM3 calls of a message are made: one frame above the backend, and at most
 * two below the engine (its stream's operation, then that operation's step).
 *
 * <p>Every context is registered here from allocation until it is freed. That keeps the pool's claim of a context
 * strongly reachable while its owner may die, which is what lets the claim be enqueued when the owner does, and it
 * counts the native contexts that exist ({@link #live()}).
 */
public abstract sealed class PooledContext extends StagingArea permits Sm3Context, HmacContext {
    /** Bytes of the staging buffer. */
    static final int STAGING_SIZE = Staging.SIZE;
    /** The longest array fed in one critical call: a critical call holds off GC for its duration. */
    static final int CRITICAL_CHUNK = 64 * 1024;

    static final Backend BACKEND = BackendChoice.selected();

    private static final Set<PooledContext> ALL = ConcurrentHashMap.newKeySet();

    /** The message's SM3 context; a copy by the provider's dupctx (before OpenSSL 3.5) puts a new one in its place. */
    private MemorySegment ctx;
    /** Where a final writes the digest or MAC. */
    private final MemorySegment output;
    /** Where a final reports the length it wrote: a heap word of this context, no user data. */
    private final MemorySegment writtenLength = MemorySegment.ofArray(new long[1]);
    /** The pool's claim for the owner that keeps this context across calls; null while idle or borrowed. */
    private Reference<Object> claim;
    /**
     * Whether {@code ctx} is started on an empty message and holds nothing else, as {@link #clear} leaves it: the
     * next message needs no init of its own.
     */
    private boolean primed;

    /** Takes ownership of {@code ctx} and of {@code staging} (of {@link #STAGING_SIZE} bytes). */
    PooledContext(MemorySegment ctx, MemorySegment staging) {
        super(staging);
        this.ctx = ctx;
        this.output = region(Staging.OUTPUT);
        ALL.add(this);
    }

    /** The message's native SM3 context. */
    final MemorySegment ctx() {
        return ctx;
    }

    /** Puts {@code c} in place of the message's context: a copy by dupctx, which allocated it, replaces it. */
    final void ctx(MemorySegment c) {
        ctx = c;
    }

    /** The heap word where a final reports the length it wrote. */
    final MemorySegment writtenLength() {
        return writtenLength;
    }

    /** Finishes the message into the output region. */
    final void finishToOutput() {
        mark(DIGEST_LENGTH);
        BACKEND.finalInto(ctx, output, writtenLength);
    }

    /** The output region, where the last final wrote; read by a KDF's loop and an HMAC's outer hash. */
    final MemorySegment output() {
        return output;
    }

    /**
     * Whether {@code ctx} is started on an empty message, as {@link #clear} leaves it, so that a new message needs no
     * init of its own; it will not be after this call. Each start is {@code if (!takePrimed()) BACKEND.init(ctx())},
     * written where the native call is made, one frame above the backend.
     */
    final boolean takePrimed() {
        boolean p = primed;
        primed = false;
        return p;
    }

    /** Marks {@code ctx} as holding something other than an empty message, which {@link #restart} must init. */
    final void unprime() {
        primed = false;
    }

    /**
     * Clears every SM3 state this context holds (a message's, a key's, a finished digest's) and every staging byte
     * written, and leaves it started: what the pool does to each context it takes back. False when a call failed:
     * the state is unknown, and the caller frees it. Each kind clears its states in its own frame, one above the
     * backend, then returns {@link #cleared}.
     */
    abstract boolean clear();

    /** The end of a {@link #clear} whose native calls succeeded: the staging bytes zeroed, the context started. */
    final boolean cleared() {
        wipe();
        primed = true;
        return true;
    }

    /** Frees everything this context holds, once (OpenSSL clears SM3 states as it frees them). */
    final void free() {
        if (ALL.remove(this)) {
            BACKEND.free(ctx);
            freeKeys();
            BACKEND.release(staging());
        }
    }

    /** Frees the states of a kind that keeps more than the message's. */
    abstract void freeKeys();

    /**
     * Hands OpenSSL what a message has waiting: the first {@code staged} bytes of the staging buffer, then the first
     * {@code len} bytes of {@code pending} behind them, zeroed on the heap as they are staged, then wipes what was
     * written. Together they fit the buffer; where the heap's last word would not, the staged bytes go first in a
     * call of their own.
     */
    final void updateWaiting(int staged, byte[] pending, int len) {
        int n = staged;
        if (len > 0) {
            if (n + wordsOf(len) > STAGING_SIZE) {
                BACKEND.update(ctx, staging(), n);
                n = 0;
            }
            stageAndZero(pending, len, n);
        }
        BACKEND.update(ctx, staging(), n + len);
        wipe();
    }

    /** Hashes the first {@code len} bytes of the staging buffer, which {@link #stage} put there. */
    final void updateStaged(int len) {
        BACKEND.update(ctx, staging(), len);
    }

    /** Feeds array bytes: through the staging buffer when they fit, else in place. */
    final void updateArray(byte[] bytes, int offset, int len) {
        if (len <= STAGING_SIZE) {
            stage(bytes, offset, 0, len);
            BACKEND.update(ctx, staging(), len);
            return;
        }
        updateInPlace(bytes, offset, len);
    }

    /**
     * Feeds array bytes in place, in critical calls of at most {@value #CRITICAL_CHUNK} bytes. The heap segment is
     * made here, in the method that hands it to OpenSSL, so that the JIT can drop it; a whole array goes without a
     * slice.
     */
    final void updateInPlace(byte[] bytes, long offset, long len) {
        MemorySegment whole = MemorySegment.ofArray(bytes);
        if (len == bytes.length && len <= CRITICAL_CHUNK) {
            BACKEND.update(ctx, whole, len);
            return;
        }
        for (long end = offset + len; offset < end; offset += CRITICAL_CHUNK) {
            long n = Math.min(CRITICAL_CHUNK, end - offset);
            BACKEND.update(ctx, whole.asSlice(offset, n), n);
        }
    }

    /**
     * Feeds the last {@code len} bytes of {@code segment}: native memory of any length in one ordinary call, during
     * which GC may run; heap memory (a read-only buffer's) in critical chunks.
     */
    final void updateSegment(MemorySegment segment, long len) {
        if (segment.isNative() && len > CRITICAL_CHUNK) {
            BACKEND.updateNative(ctx, len == segment.byteSize() ? segment : segment.asSlice(segment.byteSize() - len),
                    len);
            return;
        }
        for (long at = segment.byteSize() - len; at < segment.byteSize(); at += CRITICAL_CHUNK) {
            long n = Math.min(CRITICAL_CHUNK, segment.byteSize() - at);
            BACKEND.update(ctx, segment.asSlice(at, n), n);
        }
    }

    /** The claim the pool recorded for this context's owner, or null. */
    final Reference<Object> claim() {
        return claim;
    }

    /** Records or (null) ends the pool's claim; the pool's alone to call. */
    final void claim(Reference<Object> k) {
        claim = k;
    }

    /** Whether this context is started on an empty message and holds nothing else, for tests. */
    final boolean primed() {
        return primed;
    }

    /** The native SM3 states it holds, message first, for tests that read what native memory holds. */
    abstract java.util.List<MemorySegment> states();

    /** Native contexts (digests and MACs, idle, borrowed or claimed) allocated and not yet freed, in this JVM. */
    public static long live() {
        return ALL.size();
    }

    /** Every context not yet freed, for tests that read what native memory still holds. */
    static Set<PooledContext> all() {
        return Set.copyOf(ALL);
    }

    /** Bytes of an HMAC's two pads, which sit at the start of the staging buffer while they are absorbed. */
    static final int PADS_LENGTH = 2 * Sm3Sizes.BLOCK_SIZE;

}
