package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.BLOCK_SIZE;
import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Reference;
import java.nio.ByteOrder;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Native SM3 state of the {@link Backend#SELECTED} backend, with its off-heap staging buffer: one message context
 * for a digest ({@link Sm3Context}), three for an HMAC ({@link HmacContext}), and how a message starts and ends on
 * them. Made, lent, taken back, cleared and freed by a {@link ContextPool} only.
 *
 * <p>The staging buffer has named regions, each a slice of its own: {@link #input} (bytes copied in for one
 * update, 512), and within it {@link #output} (a digest or MAC that a KDF or an HMAC's outer hash reads, 32);
 * {@link HmacContext} names its pads' and inner digest's. Finals write here and the result is copied out, except
 * an SM3 digest at the start of an array, which goes there in place ({@link Sm3Context#finish});
 * the length a final reports goes into a heap word ({@link #writtenLength}). Bytes reach the buffer only through
 * {@link #stage}, {@link #stageAndZero} and the finals, each of which first records how far the buffer is written
 * ({@link #mark}); {@link #wipe} zeroes that far, which is everything written, and the pool wipes every context it
 * takes back. Zeroing what was written, not all 512 bytes, keeps a short digest's clearing at one short copy. A
 * short message's path here allocates nothing: a slice made per call is scalar-replaced only where the JIT inlines
 * this far, which differs from one JVM to the next; a heap segment of a whole array is one object, which it drops.
 *
 * <p>A context's methods are where the SM3 calls of a message are made, one frame below the stream that owns
 * the context and one above the backend, so that a native call is never deeper than that below an engine.
 *
 * <p>Every context is registered here from allocation until it is freed. That keeps the pool's claim of a
 * context strongly reachable while its owner may die, which is what lets the claim be enqueued when the
 * owner does, and it counts the native contexts that exist ({@link #live()}).
 */
public abstract sealed class PooledContext permits Sm3Context, HmacContext {
    /** Bytes of the staging buffer. */
    static final int STAGING_SIZE = 512;
    /** The longest array fed in one critical call: a critical call holds off GC for its duration. */
    static final int CRITICAL_CHUNK = 64 * 1024;

    static final Backend BACKEND = BackendChoice.selected();

    private static final Set<PooledContext> ALL = ConcurrentHashMap.newKeySet();

    /** The message's SM3 context; a copy by the provider's dupctx (before OpenSSL 3.5) puts a new one in its place. */
    MemorySegment ctx;
    /** The whole staging buffer: what the pool zeroes. */
    final MemorySegment staging;
    /** Bytes copied in for one update: the whole buffer. */
    final MemorySegment input;
    /** Where a final writes the digest or MAC. */
    final MemorySegment output;
    /** Where a final reports the length it wrote: a heap word of this context, no user data. */
    final MemorySegment writtenLength = MemorySegment.ofArray(new long[1]);
    /** How many bytes at the start of the staging buffer may hold something written since the last wipe. */
    private int used;
    /** The pool's claim for the owner that keeps this context across calls; null while idle or borrowed. */
    Reference<Object> claim;
    /**
     * Whether {@code ctx} is started on an empty message and holds nothing else, as the pool leaves a context it
     * clears: the next message needs no init of its own.
     */
    boolean primed;

    /** Takes ownership of {@code ctx} and of {@code staging} (of {@link #STAGING_SIZE} bytes). */
    PooledContext(MemorySegment ctx, MemorySegment staging) {
        this.ctx = ctx;
        this.staging = staging;
        this.input = staging;
        this.output = staging.asSlice(0, DIGEST_LENGTH);
        ALL.add(this);
    }

    /**
     * Starts a message: from {@code parked} state bytes ({@link #saveState}) when there are some, else anew,
     * with the key whose pads are {@code pads} for an HMAC.
     */
    abstract void begin(byte[] pads, byte[] parked);

    /** Loads a key's pads into keyed states, from which every later message starts; nothing for a digest. */
    abstract void key(byte[] pads);

    /**
     * Finishes the message into {@code out} at {@code offset} (32 bytes); an HMAC context, for PBKDF2's chain,
     * only into {@link #output} when {@code out} is null.
     */
    abstract void finish(byte[] pads, byte[] out, int offset);

    /** Copies {@code len} bytes of {@code src} into the staging buffer at {@code at}, recording them for {@link #wipe}. */
    final void stage(byte[] src, int srcOffset, int at, int len) {
        mark(at + len);
        MemorySegment.copy(src, srcOffset, staging, JAVA_BYTE, at, len);
    }

    /** Copies {@code len} bytes of {@code src} from {@code srcOffset} into the staging buffer at {@code at}. */
    final void stage(MemorySegment src, long srcOffset, int at, int len) {
        mark(at + len);
        MemorySegment.copy(src, srcOffset, staging, at, len);
    }

    /**
     * Moves a message's first {@code len} bytes from the heap into the staging buffer at {@code at}, zeroing them
     * on the heap as it goes: one pass of eight-byte words, where a copy and a fill take two. {@code pending}'s
     * length is a multiple of eight, and the staging buffer must have room for {@link #wordsOf}{@code (len)} bytes
     * at {@code at}: the bytes of the last word past {@code len} are moved too, are not hashed, and are wiped with
     * the rest.
     */
    final void stageAndZero(byte[] pending, int len, int at) {
        mark(at + wordsOf(len));
        MemorySegment s = staging;
        for (int i = 0; i < len; i += Long.BYTES) {
            s.set(JAVA_LONG_UNALIGNED, at + i, (long) HEAP_WORDS.get(pending, i));
            HEAP_WORDS.set(pending, i, 0L);
        }
    }

    /**
     * Hands OpenSSL what a message has waiting: the first {@code staged} bytes of the staging buffer, then the first
     * {@code len} bytes of {@code pending} behind them, zeroed on the heap as they are staged. Together they fit the
     * buffer; where the heap's last word would not, the staged bytes go first in a call of their own.
     */
    final void updateWaiting(int staged, byte[] pending, int len) {
        int n = staged;
        if (len > 0) {
            if (n + wordsOf(len) > STAGING_SIZE) {
                BACKEND.update(ctx, input, n);
                n = 0;
            }
            stageAndZero(pending, len, n);
        }
        BACKEND.update(ctx, input, n + len);
    }

    /** The bytes {@link #stageAndZero} writes for {@code len}: whole eight-byte words. */
    static int wordsOf(int len) {
        return len + Long.BYTES - 1 & -Long.BYTES;
    }

    /** Records that the first {@code end} bytes of the staging buffer may be written: before a native call writes. */
    final void mark(int end) {
        if (end > used) {
            used = end;
        }
    }

    /** Zeroes every staging byte written since the last wipe. */
    final void wipe() {
        int n = used;
        if (n > 0) {
            used = 0;
            // A copy from zeros: unlike a fill, which needs a slice, it allocates nothing whatever the JIT inlines.
            MemorySegment.copy(ZEROS, 0, staging, JAVA_BYTE, 0, n);
        }
    }

    /** Feeds array bytes: through the staging buffer when they fit, else in place in critical chunks. */
    final void updateArray(byte[] bytes, int offset, int len) {
        if (len <= STAGING_SIZE) {
            stage(bytes, offset, 0, len);
            BACKEND.update(ctx, input, len);
            return;
        }
        MemorySegment whole = MemorySegment.ofArray(bytes);
        for (int end = offset + len; offset < end; offset += CRITICAL_CHUNK) {
            int n = Math.min(CRITICAL_CHUNK, end - offset);
            BACKEND.update(ctx, whole.asSlice(offset, n), n);
        }
    }

    /** Puts a copy of this context's states in {@code into}, a context of the same kind from the pool. */
    abstract void copyTo(PooledContext into);

    /**
     * This context's message state as heap bytes, where the backend's states are bytes and the state may wait on
     * the heap; else null.
     */
    abstract byte[] saveState();

    /** Native contexts (digests and MACs, idle, borrowed or claimed) allocated and not yet freed, in this JVM. */
    public static long live() {
        return ALL.size();
    }

    /** Every context not yet freed, for tests that read what native memory still holds. */
    static Set<PooledContext> all() {
        return Set.copyOf(ALL);
    }

    /** Whether this context is registered, i.e. not yet freed; removes it so that it is freed once. */
    final boolean unregister() {
        return ALL.remove(this);
    }

    /** What {@link #wipe} copies over written bytes; never written. */
    private static final byte[] ZEROS = new byte[STAGING_SIZE];

    private static final VarHandle HEAP_WORDS = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.nativeOrder());

    /** Bytes of an HMAC's two pads, which sit at the start of the staging buffer while they are absorbed. */
    static final int PADS_LENGTH = 2 * BLOCK_SIZE;
}
