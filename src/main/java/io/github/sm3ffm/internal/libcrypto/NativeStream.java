package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.PooledContext.CRITICAL_CHUNK;
import static io.github.sm3ffm.internal.libcrypto.PooledContext.STAGING_SIZE;
import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.ref.Reference;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.security.ProviderException;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * The message stream of one JCA engine (a digest or a MAC): its pending bytes, the native context it claims
 * from a {@link ContextPool}, and the guard around every native call; the operations on the context are the
 * context's ({@link PooledContext}). A downcall costs about as much as hashing a few dozen bytes, and a
 * native context is memory the GC cannot see, so:
 * <ul>
 * <li>updates shorter than {@value #DIRECT_THRESHOLD} bytes and single bytes wait on the Java heap, in an
 * array that grows from {@value #FIRST_PENDING} to {@value PooledContext#STAGING_SIZE} bytes;</li>
 * <li>a message that never outgrows that array reaches OpenSSL only at {@code digest()}: copied into the
 * staging buffer of a context borrowed from the pool for that one call, then one Init, one Update and one
 * Final. A new engine holds no native memory;</li>
 * <li>a message that outgrows it, or an array of {@value #DIRECT_THRESHOLD} bytes or more, needs OpenSSL
 * state across calls: the stream claims a context ({@link ContextPool#claim}) and feeds it, arrays in
 * place through critical downcalls in chunks of {@value PooledContext#CRITICAL_CHUNK} bytes (a critical call holds off
 * GC for its duration), direct buffers and native segments by address;</li>
 * <li>after its first message a stream gives its claimed context back; from its second message on it is
 * a reused engine, and keeps one across messages;</li>
 * <li>a copy (a clone) of a message that has reached a context keeps that state on the heap where the
 * backend's state is plain bytes (OpenSSL 3.0 to 3.4, see {@code ProviderBackend.StateBytes}) and claims a context
 * only when it needs one; elsewhere it claims a context holding a copy at once;</li>
 * <li>a context is started (Init) only when a message needs it, so a finished or reset engine runs no
 * Init that nothing uses.</li>
 * </ul>
 *
 * <p>Why heap first and off-heap at the end: an engine per message then costs no native allocation, no
 * {@code Cleaner} and no GC-driven free, which made a new digest per message much slower in the
 * previous design (an {@code EVP_MD_CTX} and off-heap buffer per engine); a single byte costs an array
 * store. The staging copy at {@code digest()} (at most 512 bytes) is what a heap segment would save, and a
 * heap segment is an allocation whenever escape analysis gives up. The three sizes (measurements in
 * docs/design.md):
 * <ul>
 * <li>{@value #DIRECT_THRESHOLD}-byte threshold: staged and in-place input hash messages of a few hundred
 * bytes at the same speed, but an in-place call allocates its heap segment whenever escape analysis gives
 * up behind the FFM call chain.</li>
 * <li>{@value PooledContext#STAGING_SIZE}-byte staging: one downcall per 512 one-byte updates; a larger
 * buffer made no measurable difference.</li>
 * <li>{@value PooledContext#CRITICAL_CHUNK}-byte chunks: a chunk holds off GC for about a quarter of a millisecond, and
 * its one extra downcall is a negligible share of hashing it.</li>
 * </ul>
 *
 * <p>Every native call runs under this stream's guard ({@link #enter}), on the context that
 * {@code claimedContext} names at that moment, and a context leaves {@code claimedContext} before it goes back to
 * the pool: an engine never touches a context it gave back, even when threads race on it (which the JCA does
 * not allow). A context whose call failed goes back as failed, and the pool frees it; a message that lost input
 * so is refused until it is ended, never finished with a wrong value, and a failed copy leaves its source as it
 * was. The unlocked fast paths only write into the heap array, which Java bounds-checks; {@code pendingLen} never
 * exceeds the staging size, and every copy into staging is bounds-checked too.
 *
 * <p>The owner whose death releases a claimed context is this stream, not its engine: every native call
 * runs under the guard, whose release ({@link #exit}) keeps the stream reachable until the call has
 * returned, so the engines need no fences of their own.
 */
public abstract class NativeStream<C extends PooledContext> {
    static final int DIRECT_THRESHOLD = STAGING_SIZE;
    static final int FIRST_PENDING = 32;
    /**
     * The pending array of a stream whose message lost input to a failed native call: it has no room, so every
     * update reaches the guarded paths, which refuse until the message is ended ({@link #refuseIfFailed}).
     */
    private static final byte[] FAILED = new byte[0];

    private static final VarHandle BUSY;

    static {
        try {
            BUSY = MethodHandles.lookup().findVarHandle(NativeStream.class, "busy", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** 1 while a thread holds the guard ({@link #enter}). */
    @SuppressWarnings("unused")
    private int busy;
    private byte[] pending;
    private int pendingLen;
    /** The context claimed across calls, or null. */
    private C claimedContext;
    /** Whether {@code claimedContext} holds this message's state (it was started and maybe fed). */
    private boolean started;
    /** Whether a message was finished before: such a stream keeps its claimed context between messages. */
    private boolean reused;
    /**
     * The message so far as state bytes on the heap, where a copy of a started message keeps it
     * ({@link PooledContext#saveState}): such a copy holds no native context until it needs one, and then
     * starts there from these bytes instead of from the beginning. Only ever set while no context is started.
     */
    private byte[] parked;

    abstract ContextPool<C> pool();

    /** Starts a new message on {@code c}; {@code fresh}: c comes from the pool, holding nothing of this stream. */
    abstract void start(C c, boolean fresh);

    /** Finishes the message on {@code c}, leaving the result at the start of its staging buffer. */
    abstract void finish(C c);

    /** Whether a message was finished before: the stream then keeps its claimed context between messages. */
    final boolean isReused() {
        return reused;
    }

    public final void update(byte input) {
        byte[] p = pending;
        int s = pendingLen;
        if (p != null && s < p.length) {
            p[s] = input;
            pendingLen = s + 1;
        } else {
            stageByteLocked(input);
        }
    }

    // The pending array is full or missing: grow it, or hand it to OpenSSL, without allocating for the byte.
    private void stageByteLocked(byte input) {
        enter();
        try {
            refuseIfFailed();
            int s = roomFor(1);
            pending[s] = input;
            pendingLen = s + 1;
        } catch (ProviderException e) {
            dropFailedContext(true);
            throw e;
        } finally {
            exit();
        }
    }

    /** The engine has validated the bounds as its JCA class requires; nothing at all happens for none. */
    public final void update(byte[] input, int offset, int len) {
        if (len == 0) {
            return;
        }
        if (len < DIRECT_THRESHOLD) {
            byte[] p = pending;
            int s = pendingLen;
            if (p != null && len <= p.length - s) {
                System.arraycopy(input, offset, p, s, len);
                pendingLen = s + len;
            } else if (p == null) {
                // A new stream's first bytes: only heap is touched, so no guard is needed here either.
                System.arraycopy(input, offset, grow(null, 0, len), 0, len);
                pendingLen = len;
            } else {
                stageLocked(input, offset, len);
            }
        } else {
            inPlaceLocked(input, offset, len);
        }
    }

    /** Consumes the buffer's remaining bytes and moves its position to its limit. */
    public final void update(ByteBuffer input) {
        int position = input.position();
        int limit = input.limit();
        int len = limit - position;
        if (len <= 0) {
            return;
        }
        if (input.hasArray()) {
            update(input.array(), input.arrayOffset() + position, len);
        } else if (len >= DIRECT_THRESHOLD) {
            // Direct buffers by address; read-only heap buffers, whose array is out of reach, in place.
            inPlaceLocked(MemorySegment.ofBuffer(input));
        } else {
            stageLocked(MemorySegment.ofBuffer(input), 0, len);
        }
        input.position(limit);
    }

    /** Finishes the message and readies the stream for a new one. */
    public final byte[] finish() {
        byte[] out = new byte[DIGEST_LENGTH];
        finish(out, 0);
        return out;
    }

    /** Finishes the message into {@code out} at {@code offset} and readies the stream for a new one. */
    public final void finish(byte[] out, int offset) {
        enter();
        C borrowed = null;
        boolean done = false;
        try {
            refuseIfFailed();
            C c;
            if (claimedContext == null && !reused) {
                c = borrowed = pool().borrow();
                begin(c, true);
            } else {
                c = claimed();
            }
            feedPending(c);
            finish(c);
            c.output(out, offset, DIGEST_LENGTH);
            done = true;
        } finally {
            try {
                if (borrowed != null) {
                    pool().giveBack(borrowed, done);
                }
                if (done) {
                    endMessage();
                } else {
                    // A digest ends its message, even when it fails: the stream is ready for a new one.
                    dropFailedContext(false);
                    endMessage();
                }
            } finally {
                exit();
            }
        }
        reused = true;
    }

    // Under the guard: the message lost input to a failed native call, and only a new message can be right.
    private void refuseIfFailed() {
        if (pending == FAILED) {
            throw new IllegalStateException("a native call failed and this message lost input;"
                    + " reset() (or a digest, which reports this) starts a new one");
        }
    }

    /** Whether this stream holds a claimed context now, for tests. */
    final boolean holdsContext() {
        return claimedContext != null;
    }

    /** Drops the message so far. */
    public final void reset() {
        enter();
        try {
            endMessage();
        } finally {
            exit();
        }
    }

    /**
     * Copies this stream's message so far into {@code that}, a new stream of the same kind. This stream is only
     * read: when a native call fails on the way, it is as it was, and only the copy is lost.
     */
    final void copyTo(NativeStream<C> that) {
        enter();
        try {
            copyKeyTo(that);
            if (claimedContext != null && started) {
                // On the heap where the state is plain bytes: the copy claims no context, and one that is
                // dropped unfinished leaves nothing to reclaim.
                byte[] state = claimedContext.saveState();
                if (state != null) {
                    that.parked = state;
                } else {
                    that.claimedContext = pool().claim(that, pool().copy(claimedContext));
                    that.started = true;
                }
            } else if (parked != null) {
                that.parked = parked.clone();
            }
            if (pending != null) {
                // The pending bytes follow the state in the copy as in this stream.
                that.pending = pending == FAILED ? FAILED : pending.clone();
                that.pendingLen = pendingLen;
            }
        } finally {
            exit();
        }
    }

    /** Copies what a stream holds besides its message (a MAC's key) into {@code that}; under the guard. */
    void copyKeyTo(NativeStream<C> that) {
    }

    /**
     * Takes this stream's guard: every native call and every change of context runs under it. A CAS and
     * a releasing store, cheaper than a monitor on a short {@code digest()}. Only threads that race on one
     * engine, which the JCA does not allow, ever wait here.
     */
    final void enter() {
        if (!BUSY.compareAndSet(this, 0, 1)) {
            enterContended();
        }
    }

    final void exit() {
        BUSY.setRelease(this, 0);
        Reference.reachabilityFence(this);
    }

    private void enterContended() {
        for (int spins = 0; !BUSY.compareAndSet(this, 0, 1); spins++) {
            if (spins < 64) {
                Thread.onSpinWait();
            } else {
                // The holder may be hashing a long input: wait without burning a CPU.
                LockSupport.parkNanos(50_000);
            }
        }
    }

    // Called under the guard: pending bytes are dropped and no context holds a message any more.
    // A stream that has not yet finished a message gives its context back: it may never be used again.
    final void endMessage() {
        dropHeapMessage();
        if (pending == FAILED) {
            pending = null;
        }
        started = false;
        C c = claimedContext;
        if (c != null && !reused) {
            claimedContext = null;
            pool().giveBack(c, true);
        }
    }

    // Called under the guard: whatever the claimed context holds goes back to the pool, which clears it.
    final void giveBackClaimed() {
        C c = claimedContext;
        if (c != null) {
            claimedContext = null;
            started = false;
            pool().giveBack(c, true);
        }
    }

    // Called under the guard after a native call failed: the claimed context's state is unknown. When input was
    // lost, the stream refuses input and digests until the message is ended, instead of giving a wrong value.
    private void dropFailedContext(boolean inputLost) {
        dropHeapMessage();
        if (inputLost) {
            pending = FAILED;
        }
        started = false;
        C c = claimedContext;
        if (c != null) {
            claimedContext = null;
            pool().giveBack(c, false);
        }
    }

    /** The claimed context, started for this message; claims one if needed. */
    private C claimed() {
        C c = claimedContext;
        boolean fresh = false;
        if (c == null) {
            c = pool().claim(this);
            claimedContext = c;
            fresh = true;
        }
        if (!started) {
            begin(c, fresh);
            started = true;
        }
        return c;
    }

    /** Starts this stream's message on {@code c}: from the parked state if there is one, else anew. */
    private void begin(C c, boolean fresh) {
        byte[] state = parked;
        if (state != null) {
            parked = null;
            c.restoreState(state);
            Arrays.fill(state, (byte) 0);
        } else {
            start(c, fresh);
        }
    }

    /** Hands the pending bytes to the claimed context; called under the guard. */
    private void flushLocked() {
        feedPending(claimed());
    }

    // Through the context's staging buffer, as the class comment says why.
    // The heap copy is zeroed as soon as it is staged, so no message waits on the heap once OpenSSL has it.
    private void feedPending(C c) {
        int n = pendingLen;
        if (n > 0) {
            pendingLen = 0;
            MemorySegment.copy(pending, 0, c.staging, JAVA_BYTE, 0, n);
            Arrays.fill(pending, 0, n, (byte) 0);
            c.update(c.staging, n);
        }
    }

    // Under the guard: the message's bytes still on the heap (pending, or a parked state) are zeroed and dropped.
    private void dropHeapMessage() {
        if (pending != null && pending != FAILED) {
            Arrays.fill(pending, 0, pendingLen, (byte) 0);
        }
        pendingLen = 0;
        if (parked != null) {
            Arrays.fill(parked, (byte) 0);
            parked = null;
        }
    }

    /**
     * Where the next pending bytes go, under the guard: the array is grown towards {@code len} more bytes,
     * or handed to OpenSSL when it is full at the staging size. At least one byte fits there.
     */
    private int roomFor(long len) {
        int s = pendingLen;
        byte[] p = pending;
        if (p == null || (p.length < STAGING_SIZE && len > p.length - s)) {
            p = grow(p, s, len);
        }
        if (s >= p.length) {
            flushLocked();
            s = 0;
        }
        return s;
    }

    // src is a byte[] or a MemorySegment: arrays are copied without wrapping them in a segment.
    private void stageLocked(Object src, long offset, long len) {
        enter();
        try {
            refuseIfFailed();
            while (len > 0) {
                int s = roomFor(len);
                byte[] p = pending;
                int k = (int) Math.min(len, p.length - s);
                if (src instanceof byte[] array) {
                    System.arraycopy(array, (int) offset, p, s, k);
                } else {
                    MemorySegment.copy((MemorySegment) src, JAVA_BYTE, offset, p, s, k);
                }
                pendingLen = s + k;
                offset += k;
                len -= k;
            }
        } catch (ProviderException e) {
            dropFailedContext(true);
            throw e;
        } finally {
            exit();
        }
    }

    // The pending array sized for s + len bytes, doubling from FIRST_PENDING up to the staging size.
    private byte[] grow(byte[] p, int s, long len) {
        int capacity = p == null ? FIRST_PENDING : p.length;
        while (capacity < STAGING_SIZE && capacity - s < len) {
            capacity <<= 1;
        }
        if (p == null || capacity > p.length) {
            byte[] larger = new byte[capacity];
            if (p != null) {
                System.arraycopy(p, 0, larger, 0, Math.min(s, p.length));
                Arrays.fill(p, (byte) 0);
            }
            pending = larger;
            return larger;
        }
        return p;
    }

    private void inPlaceLocked(byte[] src, int offset, int len) {
        enter();
        try {
            refuseIfFailed();
            C c = claimed();
            flushLocked();
            // The heap segment is made here, two calls below the engine, and handed to no call that the JIT may
            // leave out of line: the JIT then drops it, but only if it inlines the constructors below this call,
            // which it stops doing past a depth, nor where objects meet in one variable (docs/design.md).
            MemorySegment whole = MemorySegment.ofArray(src);
            if (len == src.length && len <= CRITICAL_CHUNK) {
                c.update(whole, len);
                return;
            }
            for (int end = offset + len; offset < end; offset += CRITICAL_CHUNK) {
                int n = Math.min(CRITICAL_CHUNK, end - offset);
                c.update(whole.asSlice(offset, n), n);
            }
        } catch (ProviderException e) {
            dropFailedContext(true);
            throw e;
        } finally {
            exit();
        }
    }

    private void inPlaceLocked(MemorySegment src) {
        enter();
        try {
            refuseIfFailed();
            C c = claimed();
            flushLocked();
            long len = src.byteSize();
            if (src.isNative()) {
                if (len <= CRITICAL_CHUNK) {
                    c.update(src, len);
                } else {
                    c.updateNative(src, len);
                }
                return;
            }
            for (long offset = 0; offset < len; offset += CRITICAL_CHUNK) {
                long n = Math.min(CRITICAL_CHUNK, len - offset);
                c.update(src.asSlice(offset, n), n);
            }
        } catch (ProviderException e) {
            dropFailedContext(true);
            throw e;
        } finally {
            exit();
        }
    }
}
