package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.PooledContext.STAGING_SIZE;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.security.ProviderException;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;

/**
 * What a digest's message ({@link DigestStream}) and a MAC's ({@link MacStream}) share: the guard around every
 * native call, the phase, the bytes waiting on the heap, and the native context claimed from a {@link ContextPool}.
 * A downcall costs about as much as hashing a few dozen bytes, and a native context is memory the GC cannot see, so:
 * <ul>
 * <li>updates shorter than {@value #DIRECT_THRESHOLD} bytes wait on the Java heap, in an array that grows from
 * {@value #FIRST_PENDING} to {@value PooledContext#STAGING_SIZE} bytes;</li>
 * <li>a message that never outgrows that array reaches OpenSSL only at {@link #finish}: copied into the staging
 * buffer of a context borrowed from the pool for that one call. A new engine holds no native memory;</li>
 * <li>a message that outgrows it, or input of {@value #DIRECT_THRESHOLD} bytes or more, needs OpenSSL state across
 * calls: the stream claims a context and feeds it, arrays in place through critical downcalls in chunks of
 * {@value PooledContext#CRITICAL_CHUNK} bytes (a critical call holds off GC for its duration), direct buffers by
 * address;</li>
 * <li>after its first message a stream is a reused engine, and keeps its claimed context across messages.</li>
 * </ul>
 *
 * <p>A message is in one of three phases: {@code HEAP} (its bytes, if any, wait on the heap), {@code NATIVE} (the
 * claimed context holds it) and {@code LOST} (a native call failed and the message lost input: it is refused until
 * it is ended, never finished with a wrong value). Each step is one method: a kind starts a message in
 * {@link #open}, what waits reaches OpenSSL in {@link #flush}, the pool takes back what dead owners held as it lends
 * ({@link ContextPool#borrow}), and a failed call goes to {@link #lose}, the one place that decides what it leaves:
 * the context's state is unknown, so the pool frees it. An operation calls the pool, or a step that calls the
 * context: a native call is at most five of the library's frames below the engine.
 *
 * <p>The message's bytes on the heap are zeroed as soon as they are staged for OpenSSL, and when the message ends
 * otherwise; the pool clears every context it takes back. The owner whose death releases a claimed context is this
 * stream: every native call runs under the guard, whose release keeps the stream reachable until it has returned.
 */
public abstract sealed class MessageStream<C extends PooledContext> permits DigestStream, MacStream {
    static final int DIRECT_THRESHOLD = STAGING_SIZE;
    static final int FIRST_PENDING = 32;

    enum Phase { HEAP, NATIVE, LOST }

    /**
     * The pending array of a LOST message: it has no room, so every update misses the unguarded fast paths and
     * reaches the guard, which refuses.
     */
    private static final byte[] NO_ROOM = new byte[0];

    private static final VarHandle BUSY;

    static {
        try {
            BUSY = MethodHandles.lookup().findVarHandle(MessageStream.class, "busy", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final ContextPool<C> pool;
    /** 1 while a thread holds the guard ({@link #enter}). */
    @SuppressWarnings("unused")
    private int busy;
    private Phase phase = Phase.HEAP;
    private byte[] pending;
    private int pendingLen;
    /**
     * The context this stream uses: claimed across calls, or borrowed for the length of one {@link #finish} (it
     * holds no claim then, and goes back before the call returns); null between calls that hold none.
     */
    private C context;
    /** Whether a message was finished before: such a stream keeps its claimed context between messages. */
    private boolean reused;

    MessageStream(ContextPool<C> pool) {
        this.pool = pool;
    }

    /** How many bytes the heap may hold now: fewer than the staging buffer where some wait there already. */
    abstract int heapLimit();

    /** Whether {@code len} bytes (fewer than {@value #DIRECT_THRESHOLD}) skip the heap, for the staging buffer. */
    abstract boolean skipsHeap(int len);

    /**
     * Under the guard, for input shorter than {@value #DIRECT_THRESHOLD}: takes what it can of the last {@code len}
     * bytes of the input where they wait for OpenSSL (the heap; a digest's staging buffer), and returns how many
     * are left, which need what waits to reach OpenSSL first. No native call.
     */
    long hold(Object src, MemorySegment segment, long end, long len) {
        return pend(src, segment, end - len, len);
    }

    /** Under the guard: starts a message on the context unless it holds one ({@link #opening}). */
    abstract void open();

    /** Under the guard: how many bytes wait at the start of the claimed context's staging buffer, now taken. */
    int takeStaged() {
        return 0;
    }

    /** Under the guard: finishes the message on the context, which holds all of it, into {@code out}. */
    abstract void finishInto(byte[] out, int offset);

    /** Under the guard: zeroes and drops what a kind keeps waiting besides the heap bytes. */
    void dropKindWaiting() {
    }

    /** Appends one byte on the heap where there is room; false when {@link #update(Object, long, long)} must. */
    public final boolean append(byte input) {
        byte[] p = pending;
        int s = pendingLen;
        if (p != null && s < Math.min(p.length, heapLimit())) {
            p[s] = input;
            pendingLen = s + 1;
            return true;
        }
        return false;
    }

    /**
     * Adds {@code len} bytes of {@code src} from {@code offset} on the heap, where they wait when they are short and
     * there is room; false when {@link #update(Object, long, long)} must. Heap only, so no guard; small, so that the
     * JIT inlines it into an engine's update, where {@code update} is too big to be.
     */
    public final boolean append(byte[] src, int offset, int len) {
        if (len <= 0) {
            // Nothing at all happens for none, whatever the offset.
            return true;
        }
        if (len >= DIRECT_THRESHOLD || skipsHeap(len)) {
            return false;
        }
        byte[] p = pending;
        int s = pendingLen;
        int limit = heapLimit();
        if (p != null && len <= Math.min(p.length, limit) - s) {
            System.arraycopy(src, offset, p, s, len);
            pendingLen = s + len;
            return true;
        }
        if (p == null && limit == STAGING_SIZE) {
            // A new stream's first bytes.
            System.arraycopy(src, offset, grow(null, 0, len), 0, len);
            pendingLen = len;
            return true;
        }
        return false;
    }

    /**
     * Adds {@code len} bytes of {@code src}, a {@code byte[]} (from {@code offset}) or a {@code ByteBuffer} (its
     * remaining bytes; {@code offset} 0 and {@code len} its remaining count, its position left alone). The engine
     * has validated the bounds as its JCA class requires; nothing at all happens for none.
     */
    public final void update(Object src, long offset, long len) {
        if (len <= 0) {
            return;
        }
        if (src instanceof ByteBuffer buffer && buffer.hasArray()) {
            src = buffer.array();
            offset = buffer.arrayOffset() + buffer.position();
        }
        if (src instanceof byte[] array && append(array, (int) offset, (int) len)) {
            return;
        }
        // Direct buffers by address; read-only heap buffers, whose array is out of reach, through a heap segment.
        MemorySegment segment = src instanceof ByteBuffer buffer ? MemorySegment.ofBuffer(buffer) : null;
        boolean inPlace = len >= DIRECT_THRESHOLD;
        long end = offset + len;
        enter();
        try {
            refuseIfLost();
            for (long left = len; ; ) {
                if (!inPlace && (left = hold(src, segment, end, left)) == 0) {
                    return;
                }
                // OpenSSL is needed: what waits goes first, then the input in place, or what is left of it waits.
                if (context == null) {
                    claim(pool.borrow());
                }
                open();
                flush();
                if (inPlace) {
                    if (segment == null) {
                        context.updateInPlace((byte[]) src, offset, len);
                    } else {
                        context.updateSegment(segment, len);
                    }
                    return;
                }
            }
        } catch (ProviderException e) {
            pool.giveBack(lose(true), false);
            throw e;
        } finally {
            exit();
        }
    }

    /** Finishes the message into {@code out} at {@code offset} (32 bytes) and readies the stream for a new one. */
    public final void finish(byte[] out, int offset) {
        enter();
        // A context borrowed for this call alone, or null: it goes back after the call.
        C borrowed = null;
        boolean done = false;
        try {
            refuseIfLost();
            if (context == null) {
                C c = pool.borrow();
                if (reused) {
                    claim(c);
                } else {
                    // One message on a context borrowed for this call alone.
                    context = borrowed = c;
                }
            }
            open();
            flush();
            finishInto(out, offset);
            if (borrowed == null) {
                // A claimed context stays with this stream: its result is zeroed here, as the pool wipes a borrowed one.
                context.wipe();
            }
            done = true;
        } finally {
            if (borrowed != null) {
                context = null;
            }
            // A message ends even when it fails, so that the stream is ready for a new one.
            C back = done ? endMessage() : lose(false);
            try {
                pool.giveBack(borrowed != null ? borrowed : back, done);
            } finally {
                exit();
            }
        }
        reused = true;
    }

    /** Finishes the message into a new array, for the self-tests and tests (the engines make their own array). */
    final byte[] finish() {
        byte[] out = new byte[Sm3Sizes.DIGEST_LENGTH];
        finish(out, 0);
        return out;
    }

    /** Adds one byte, for the self-tests and tests (the engines call {@link #append} first). */
    final void update(byte input) {
        if (!append(input)) {
            update(new byte[] {input}, 0, 1);
        }
    }

    /** Drops the message so far. */
    public final void reset() {
        enter();
        try {
            pool.giveBack(endMessage(), true);
        } finally {
            exit();
        }
    }

    /** An independent copy of this stream; this one is only read, and stays as it was when a native call fails. */
    public abstract MessageStream<C> copy();

    /**
     * Under the guard: what waits reaches OpenSSL, on the context with the message started: the bytes staged in its
     * buffer, then the heap's behind them, zeroed as they go.
     */
    final void flush() {
        int m = takeStaged();
        int n = pendingLen;
        if (m + n > 0) {
            pendingLen = 0;
            context.updateWaiting(m, pending, n);
        }
    }

    /** Under the guard: true, once, when a message must be started on the claimed or borrowed context. */
    final boolean opening() {
        if (phase == Phase.NATIVE) {
            return false;
        }
        phase = Phase.NATIVE;
        return true;
    }

    /** Whether the message so far is in the claimed context. */
    final boolean isNative() {
        return phase == Phase.NATIVE;
    }

    /** Whether a message was finished before. */
    final boolean reused() {
        return reused;
    }

    /** Under the guard: the context this stream uses now, or null. */
    final C context() {
        return context;
    }

    /** Whether this stream holds a claimed context across calls, which it may stage bytes in. */
    final boolean claims() {
        return context != null;
    }

    /** Claims {@code c}, borrowed from the pool, for this stream. */
    final C claim(C c) {
        context = pool.claim(this, c);
        return c;
    }

    /**
     * Under the guard: the message moves to a context borrowed with a copy of it, which the caller claims next;
     * returns the one it leaves, for the caller to give back first (so the claims counted stay).
     */
    final C handOver() {
        C old = context;
        context = null;
        phase = Phase.NATIVE;
        return old;
    }

    /**
     * Under the guard of this stream, for a copy ({@code that}, new): what waits here waits there, the first
     * {@code staged} bytes of the claimed context's staging buffer ahead of the heap's; a LOST message stays lost.
     */
    final void copyWaiting(MessageStream<C> that, int staged) {
        if (phase == Phase.LOST) {
            that.phase = Phase.LOST;
            that.pending = NO_ROOM;
            return;
        }
        int n = pendingLen;
        if (staged == 0) {
            if (pending != null) {
                that.pending = pending.clone();
                that.pendingLen = n;
            }
            return;
        }
        int capacity = pending == null ? FIRST_PENDING : pending.length;
        while (capacity < staged + n) {
            capacity <<= 1;
        }
        byte[] p = new byte[capacity];
        context.staged(p, 0, staged);
        if (n > 0) {
            System.arraycopy(pending, 0, p, staged, n);
        }
        that.pending = p;
        that.pendingLen = staged + n;
    }

    /**
     * Under the guard, for a copy: borrows a context, has {@code copier} put this stream's claimed one in it and
     * gives it to {@code that}. A failed copy may be half done, so the context goes back as failed.
     */
    final void copyContextTo(MessageStream<C> that, BiConsumer<C, C> copier) {
        C n = pool.borrow();
        try {
            copier.accept(context(), n);
        } catch (ProviderException e) {
            pool.giveBack(n, false);
            throw e;
        }
        that.claim(n);
        that.phase = Phase.NATIVE;
    }

    /** Under the guard: drops the message and the claimed context, returned for the caller to give back. */
    final C dropAll() {
        dropWaiting();
        phase = Phase.HEAP;
        C c = context;
        context = null;
        return c;
    }

    // Under the guard: the message lost input to a failed native call, and only a new message can be right.
    private void refuseIfLost() {
        if (phase == Phase.LOST) {
            throw new IllegalStateException("a native call failed and this message lost input;"
                    + " reset() (or a digest, which reports this) starts a new one");
        }
    }

    /**
     * Under the guard: ends the message. Its bytes on the heap are zeroed; returns the claimed context for the
     * caller to give back when the stream has not yet finished a message (it may never be used again), else null.
     */
    private C endMessage() {
        dropWaiting();
        phase = Phase.HEAP;
        C c = context;
        if (c != null && !reused) {
            context = null;
            return c;
        }
        return null;
    }

    /**
     * Under the guard, after a native call failed: the claimed context's state is unknown, so it is returned for
     * the caller to hand to the pool as failed. When input was lost the message is refused until it is ended,
     * instead of giving a wrong value.
     */
    final C lose(boolean inputLost) {
        C c = dropAll();
        if (inputLost) {
            phase = Phase.LOST;
            pending = NO_ROOM;
        }
        return c;
    }

    // The message's bytes not yet in OpenSSL's state are zeroed and dropped.
    private void dropWaiting() {
        dropKindWaiting();
        if (pending == NO_ROOM) {
            pending = null;
        } else if (pending != null) {
            Arrays.fill(pending, 0, pendingLen, (byte) 0);
        }
        pendingLen = 0;
    }

    /**
     * Copies as much of the input as fits onto the heap array, growing it up to what the heap may hold; returns how
     * many bytes are left, which need OpenSSL first.
     */
    final long pend(Object src, MemorySegment segment, long offset, long len) {
        int limit = heapLimit();
        while (len > 0) {
            int s = pendingLen;
            byte[] p = pending;
            if (p == null || (p.length < STAGING_SIZE && len > p.length - s)) {
                p = grow(p, s, len);
            }
            int room = Math.min(p.length, limit) - s;
            if (room <= 0) {
                return len;
            }
            int k = (int) Math.min(len, room);
            if (segment == null) {
                System.arraycopy((byte[]) src, (int) offset, p, s, k);
            } else {
                MemorySegment.copy(segment, JAVA_BYTE, segment.byteSize() - len, p, s, k);
            }
            pendingLen = s + k;
            offset += k;
            len -= k;
        }
        return 0;
    }

    /** Under the guard: how many bytes wait on the heap, and the heap array, for a kind that moves them. */
    final int pendingLength() {
        return pendingLen;
    }

    final byte[] pendingBytes() {
        return pending;
    }

    /** Under the guard: the heap's bytes were moved (and zeroed) by a kind. */
    final void pendingMoved() {
        pendingLen = 0;
    }

    // The pending array sized for s + len bytes, doubling from FIRST_PENDING up to the staging size; the old one
    // is zeroed.
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

    /** What a test may see of the stream: its phase, heap bytes, claimed context and a kind's own waiting state. */
    record Snapshot(Phase phase, byte[] pending, int pendingLen, PooledContext claimed, int staged, byte[] parked,
                    byte[] pads) {
    }

    /** This stream's state now, for tests; a kind adds its own. */
    abstract Snapshot snapshot();

    final Snapshot snapshot(int staged, byte[] parked, byte[] pads) {
        return new Snapshot(phase, pending, pendingLen, context, staged, parked, pads);
    }

    /** Whether this stream holds a claimed context now, for tests. */
    final boolean holdsContext() {
        return context != null;
    }

    /**
     * Takes this stream's guard: every native call and every change of context runs under it. A CAS and a
     * releasing store, cheaper than a monitor on a short digest. Only threads that race on one engine, which the
     * JCA does not allow, ever wait here.
     */
    final void enter() {
        if (!BUSY.compareAndSet(this, 0, 1)) {
            for (int spins = 0; !BUSY.compareAndSet(this, 0, 1); spins++) {
                if (spins < 64) {
                    Thread.onSpinWait();
                } else {
                    // The holder may be hashing a long input: wait without burning a CPU.
                    LockSupport.parkNanos(50_000);
                }
            }
        }
    }

    final void exit() {
        BUSY.setRelease(this, 0);
        Reference.reachabilityFence(this);
    }
}
