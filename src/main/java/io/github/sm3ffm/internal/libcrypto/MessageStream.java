package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.PooledContext.BACKEND;
import static io.github.sm3ffm.internal.libcrypto.PooledContext.CRITICAL_CHUNK;
import static io.github.sm3ffm.internal.libcrypto.PooledContext.STAGING_SIZE;
import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.BLOCK_SIZE;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.security.ProviderException;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * The message of one JCA engine, a digest ({@link #sm3()}) or a MAC ({@link #hmac()}): its bytes waiting on the
 * heap, the native context it claims from a {@link ContextPool}, and the guard around every native call. A
 * downcall costs about as much as hashing a few dozen bytes, and a native context is memory the GC cannot see, so:
 * <ul>
 * <li>updates shorter than {@value #DIRECT_THRESHOLD} bytes wait on the Java heap, in an array that grows from
 * {@value #FIRST_PENDING} to {@value PooledContext#STAGING_SIZE} bytes;</li>
 * <li>a message that never outgrows that array reaches OpenSSL only at {@link #finish}: copied into the staging
 * buffer of a context borrowed from the pool for that one call. A new engine holds no native memory;</li>
 * <li>a message that outgrows it, or input of {@value #DIRECT_THRESHOLD} bytes or more, needs OpenSSL state across
 * calls: the stream claims a context and feeds it, arrays in place through critical downcalls in chunks of
 * {@value PooledContext#CRITICAL_CHUNK} bytes (a critical call holds off GC for its duration), direct buffers by
 * address;</li>
 * <li>after its first message a stream is a reused engine, and keeps its claimed context across messages;</li>
 * <li>a digest stream that holds a context copies updates of {@value #STAGED_MIN} bytes or more straight into its
 * staging buffer, where they wait for OpenSSL ahead of any bytes on the heap: no heap copy of them is left to zero.
 * Shorter ones stay on the heap, where a copy costs less than the guard, and move in behind the staged ones before
 * the next such update where they fit;</li>
 * <li>a copy (a clone) first hashes the whole blocks staged in the claimed context, once for both; of a message
 * that has reached a context, it keeps that state on the heap where the backend's states are plain bytes, and
 * claims a context only when it needs one; elsewhere it claims one holding a copy.</li>
 * </ul>
 *
 * <p>A message is in one of three phases: {@code HEAP} (its bytes, if any, wait on the heap, perhaps behind a
 * parked state), {@code NATIVE} (the claimed context holds it) and {@code LOST} (a native call failed and the
 * message lost input: it is refused until it is ended, never finished with a wrong value). Every native call runs
 * under this stream's guard, in {@link #update(Object, long, long)}, {@link #finish}, {@link #reset}, {@link #copy}
 * and {@link #init}, each of which calls the context, the pool or the backend directly: a native call is at most
 * four of the library's frames below the engine. A failure there goes to {@link #lose}, the one place that
 * decides what a failed call leaves: the context's state is unknown, so the pool frees it.
 *
 * <p>The message's bytes on the heap are zeroed as soon as they are staged for OpenSSL, and when the message ends
 * otherwise; the pool clears every context it takes back. The owner whose death releases a claimed context is this
 * stream: every native call runs under the guard, whose release keeps the stream reachable until the call has
 * returned.
 */
public final class MessageStream<C extends PooledContext> {
    static final int DIRECT_THRESHOLD = STAGING_SIZE;
    static final int FIRST_PENDING = 32;
    static final int STAGED_MIN = 32;

    private enum Phase { HEAP, NATIVE, LOST }

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

    private final ContextPool<C> pool;
    /** 1 while a thread holds the guard ({@link #enter}). */
    @SuppressWarnings("unused")
    private int busy;
    private Phase phase = Phase.HEAP;
    private byte[] pending;
    private int pendingLen;
    /** The context claimed across calls, or null. */
    private C claimed;
    /** Whether a message was finished before: such a stream keeps its claimed context between messages. */
    private boolean reused;
    /**
     * The message so far as state bytes on the heap, where a copy of a started message keeps it: such a copy holds
     * no native context until it needs one. Only ever set in the HEAP phase.
     */
    private byte[] parked;
    /** An HMAC's key as its pads (see {@link HmacContext#padsOf}); null for a digest, or until a key is set. */
    private byte[] pads;
    /** Whether the claimed context, if any, holds these pads in keyed states. */
    private boolean keyLoaded;
    /**
     * Bytes of the message waiting at the start of the claimed context's staging buffer, ahead of those on the heap
     * (a digest stream only). With them, at most {@value PooledContext#STAGING_SIZE}: they all fit there together.
     * A short, with no flag for the kind of stream ({@link #isDigest}), keeps a new engine's stream at 48 bytes.
     */
    private short staged;

    private MessageStream(ContextPool<C> pool) {
        this.pool = pool;
    }

    /** A stream for SM3 messages, for the {@code MessageDigest} engine. */
    static MessageStream<Sm3Context> sm3() {
        return new MessageStream<>(ContextPool.SM3);
    }

    /** A stream for HMAC-SM3 messages, which needs a key ({@link #init}) first, for the {@code Mac} engine. */
    static MessageStream<HmacContext> hmac() {
        return new MessageStream<>(ContextPool.HMAC);
    }

    /** Appends one byte on the heap where there is room; false when {@link #update(Object, long, long)} must. */
    public boolean append(byte input) {
        byte[] p = pending;
        int s = pendingLen;
        if (p != null && s < Math.min(p.length, STAGING_SIZE - staged)) {
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
    public boolean append(byte[] src, int offset, int len) {
        if (len <= 0) {
            // Nothing at all happens for none, whatever the offset.
            return true;
        }
        if (len >= DIRECT_THRESHOLD || len >= STAGED_MIN && claimed != null && isDigest()) {
            return false;
        }
        byte[] p = pending;
        int s = pendingLen;
        if (p != null && len <= Math.min(p.length, STAGING_SIZE - staged) - s) {
            System.arraycopy(src, offset, p, s, len);
            pendingLen = s + len;
            return true;
        }
        if (p == null && staged == 0) {
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
    public void update(Object src, long offset, long len) {
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
        boolean inPlace = len >= DIRECT_THRESHOLD;
        // Direct buffers by address; read-only heap buffers, whose array is out of reach, through a heap segment.
        MemorySegment segment = src instanceof ByteBuffer buffer ? MemorySegment.ofBuffer(buffer) : null;
        long end = offset + len;
        boolean toStaging = len >= STAGED_MIN && isDigest();
        enter();
        try {
            refuseIfLost();
            while (true) {
                C c = claimed;
                if (toStaging && c != null && !inPlace) {
                    int at = staged;
                    int n = pendingLen;
                    if (n > 0 && at + n + len <= STAGING_SIZE) {
                        // Short bytes waiting on the heap go first, behind those staged: no native call yet. The
                        // input, of STAGED_MIN bytes or more, then covers the heap's last word.
                        pendingLen = 0;
                        c.stageAndZero(pending, n, at);
                        at += n;
                        staged = (short) at;
                        n = 0;
                    }
                    if (n == 0 && len <= STAGING_SIZE - at) {
                        if (segment == null) {
                            c.stage((byte[]) src, (int) offset, at, (int) len);
                        } else {
                            c.stage(segment, segment.byteSize() - len, at, (int) len);
                        }
                        staged = (short) (at + len);
                        return;
                    }
                } else if (!inPlace) {
                    len = pend(src, segment, offset, len);
                    if (len == 0) {
                        return;
                    }
                    offset = end - len;
                }
                // OpenSSL is needed: what waits fills the staging buffer, or the input goes in place.
                boolean fresh = c == null;
                if (fresh) {
                    // The contexts of owners that died holding theirs come back before a stream borrows.
                    for (C dead; (dead = pool.takeDead()) != null; ) {
                        pool.giveBack(dead, true);
                    }
                    c = claim(pool.borrow());
                }
                if (phase != Phase.NATIVE) {
                    if (loadsKey(fresh)) {
                        c.key(pads);
                        keyLoaded = true;
                    }
                    c.begin(pads, takeParked());
                    phase = Phase.NATIVE;
                }
                // The staged bytes, then the heap's behind them.
                int m = staged;
                int n = pendingLen;
                if (m + n > 0) {
                    staged = 0;
                    pendingLen = 0;
                    c.updateWaiting(m, pending, n);
                    // The claimed context stays with this stream: nothing of the message waits in it either.
                    c.wipe();
                }
                if (!inPlace) {
                    continue;
                }
                if (segment == null) {
                    // The heap segment is made here, in the method that hands it to OpenSSL, so that the JIT can
                    // drop it; whole arrays go without a slice.
                    byte[] array = (byte[]) src;
                    MemorySegment whole = MemorySegment.ofArray(array);
                    if (len == array.length && len <= CRITICAL_CHUNK) {
                        BACKEND.update(c.ctx, whole, len);
                        return;
                    }
                    for (; offset < end; offset += CRITICAL_CHUNK) {
                        long k = Math.min(CRITICAL_CHUNK, end - offset);
                        BACKEND.update(c.ctx, whole.asSlice(offset, k), k);
                    }
                } else if (segment.isNative() && len > CRITICAL_CHUNK) {
                    BACKEND.updateNative(c.ctx, segment, len);
                } else {
                    for (long at = 0; at < len; at += CRITICAL_CHUNK) {
                        long k = Math.min(CRITICAL_CHUNK, len - at);
                        BACKEND.update(c.ctx, segment.asSlice(at, k), k);
                    }
                }
                return;
            }
        } catch (ProviderException e) {
            pool.giveBack(lose(true), false);
            throw e;
        } finally {
            exit();
        }
    }

    /**
     * Copies as much of the input as fits onto the heap array, growing it up to the staging size; returns how many
     * bytes are left, which need OpenSSL first (the array, or the staging buffer with the staged bytes, is full then).
     */
    private long pend(Object src, MemorySegment segment, long offset, long len) {
        int limit = STAGING_SIZE - staged;
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

    /** Finishes the message into {@code out} at {@code offset} (32 bytes) and readies the stream for a new one. */
    public void finish(byte[] out, int offset) {
        enter();
        C c = claimed;
        // A context borrowed for this call alone, or null: it goes back after the call.
        C borrowed = null;
        boolean done = false;
        try {
            refuseIfLost();
            // The same steps as in update, written out: each native call stays one frame below this method.
            boolean fresh = c == null;
            if (fresh) {
                for (C dead; (dead = pool.takeDead()) != null; ) {
                    pool.giveBack(dead, true);
                }
                c = pool.borrow();
                if (reused) {
                    claim(c);
                } else {
                    // One message on a context borrowed for this call alone, started from the pads for an HMAC.
                    borrowed = c;
                }
            }
            if (phase != Phase.NATIVE) {
                if (loadsKey(fresh)) {
                    c.key(pads);
                    keyLoaded = true;
                }
                c.begin(pads, takeParked());
            }
            phase = Phase.NATIVE;
            int m = staged;
            int n = pendingLen;
            if (m + n > 0) {
                staged = 0;
                pendingLen = 0;
                c.updateWaiting(m, pending, n);
            }
            c.finish(pads, out, offset);
            if (borrowed == null) {
                // A claimed context stays with this stream: its staged bytes and result are zeroed here, as the pool
                // wipes a borrowed one.
                c.wipe();
            }
            done = true;
        } finally {
            C back = ended(borrowed, done);
            try {
                pool.giveBack(back, done);
            } finally {
                exit();
            }
        }
        reused = true;
    }

    /**
     * Under the guard, as {@link #finish} returns: a digest ends its message, even when it fails, so that the
     * stream is ready for a new one. Returns what goes back to the pool: the context borrowed for the call, or else
     * the one this stream gives up (never both), or null.
     */
    private C ended(C borrowed, boolean done) {
        C c = done ? endMessage() : lose(false);
        return borrowed != null ? borrowed : c;
    }

    /** Finishes the message into a new array, for the self-tests and tests (the engines make their own array). */
    byte[] finish() {
        byte[] out = new byte[Sm3Sizes.DIGEST_LENGTH];
        finish(out, 0);
        return out;
    }

    /** Adds one byte, for the self-tests and tests (the engines call {@link #append} first). */
    void update(byte input) {
        if (!append(input)) {
            update(new byte[] {input}, 0, 1);
        }
    }

    /** Drops the message so far. */
    public void reset() {
        enter();
        try {
            pool.giveBack(endMessage(), true);
        } finally {
            exit();
        }
    }

    /**
     * An independent copy of this stream: an HMAC's key and the message so far. This stream is only read: when a
     * native call fails on the way, it is as it was, and only the copy is lost.
     */
    public MessageStream<C> copy() {
        MessageStream<C> that = new MessageStream<>(pool);
        enter();
        try {
            that.pads = pads == null ? null : pads.clone();
            // A copied context holds what this one holds; a new one is loaded when claimed.
            that.keyLoaded = keyLoaded;
            if (staged >= BLOCK_SIZE) {
                // The staged whole blocks are hashed now, once, for both: else the copy hashes them, then this stream
                // again (a growing transcript cloned at each step would hash up to 448 bytes twice per clone). They
                // are hashed on a copy of the claimed context, which replaces it only when every call has succeeded:
                // a failure leaves this stream as it was. Only a digest that holds a context stages, so before its
                // message reaches OpenSSL it has no parked state: only a copy parks one, and takes it into OpenSSL
                // as it claims.
                for (C dead; (dead = pool.takeDead()) != null; ) {
                    pool.giveBack(dead, true);
                }
                C old = claimed;
                int whole = staged & -BLOCK_SIZE;
                C n = pool.borrow();
                try {
                    if (phase == Phase.NATIVE) {
                        old.copyTo(n);
                    } else {
                        n.begin(null, null);
                    }
                    BACKEND.update(n.ctx, old.input, whole);
                } catch (ProviderException e) {
                    pool.giveBack(n, false);
                    throw e;
                }
                n.stage(old.input, whole, 0, staged - whole);
                staged = (short) (staged - whole);
                phase = Phase.NATIVE;
                claimed = null;
                // Cleared, with its staged bytes wiped, before the new context is claimed: the claims counted stay.
                pool.giveBack(old, true);
                claim(n);
            }
            if (phase == Phase.NATIVE) {
                // On the heap where the state is plain bytes: the copy claims no context, and one that is dropped
                // unfinished leaves nothing to reclaim.
                byte[] state = claimed.saveState();
                if (state != null) {
                    that.parked = state;
                } else {
                    for (C dead; (dead = pool.takeDead()) != null; ) {
                        pool.giveBack(dead, true);
                    }
                    C n = pool.borrow();
                    try {
                        claimed.copyTo(n);
                    } catch (ProviderException e) {
                        // It may be half copied.
                        pool.giveBack(n, false);
                        throw e;
                    }
                    that.claim(n);
                    that.phase = Phase.NATIVE;
                }
            } else if (parked != null) {
                that.parked = parked.clone();
            }
            if (phase == Phase.LOST) {
                that.phase = Phase.LOST;
                that.pending = NO_ROOM;
            } else if (staged > 0) {
                // The copy holds no staging buffer of this one's: what waits there goes ahead of the pending bytes on
                // its heap, which has room for both.
                int m = staged;
                int n = pendingLen;
                int capacity = pending == null ? FIRST_PENDING : pending.length;
                while (capacity < m + n) {
                    capacity <<= 1;
                }
                byte[] p = new byte[capacity];
                MemorySegment.copy(claimed.input, JAVA_BYTE, 0, p, 0, m);
                if (n > 0) {
                    System.arraycopy(pending, 0, p, m, n);
                }
                that.pending = p;
                that.pendingLen = m + n;
            } else if (pending != null) {
                // The pending bytes follow the state in the copy as in this stream.
                that.pending = pending.clone();
                that.pendingLen = pendingLen;
            }
        } finally {
            exit();
        }
        return that;
    }

    /**
     * Drops any message in progress and starts over with {@code key}, of which only the pads are kept; the caller
     * clears its array. A key longer than a block is hashed here, natively, on a context borrowed for that. The old
     * key's pads are zeroed and its keyed states go back to the pool with the context, which clears them, before
     * this returns, whether the new key is taken or not.
     */
    public void init(byte[] key) {
        enter();
        try {
            if (pads != null) {
                Arrays.fill(pads, (byte) 0);
                pads = null;
            }
            keyLoaded = false;
            dropWaiting();
            phase = Phase.HEAP;
            C old = claimed;
            claimed = null;
            pool.giveBack(old, true);
            if (key.length <= BLOCK_SIZE) {
                pads = HmacContext.padsOfBlock(key);
                return;
            }
            // A key that fails to become pads leaves none: the stream then refuses until a key is set.
            HmacContext c = ContextPool.HMAC.borrow();
            boolean intact = false;
            try {
                pads = c.padsOf(key);
                intact = true;
            } finally {
                ContextPool.HMAC.giveBack(c, intact);
            }
        } finally {
            exit();
        }
    }

    /** Whether this stream holds a claimed context now, for tests. */
    boolean holdsContext() {
        return claimed != null;
    }

    /** Whether an HMAC message about to start on {@code c} must load the key into keyed states first. */
    private boolean loadsKey(boolean fresh) {
        return !isDigest() && reused && (fresh || !keyLoaded);
    }

    /** A digest's stream, which may stage its message in a claimed context; else an HMAC's. */
    private boolean isDigest() {
        return pool == ContextPool.SM3;
    }

    private C claim(C c) {
        claimed = pool.claim(this, c);
        return c;
    }

    private byte[] takeParked() {
        byte[] state = parked;
        parked = null;
        return state;
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
        C c = claimed;
        if (c != null && !reused) {
            claimed = null;
            return c;
        }
        return null;
    }

    /**
     * Under the guard, after a native call failed: the claimed context's state is unknown, so it is returned for
     * the caller to hand to the pool as failed. When input was lost the message is refused until it is ended,
     * instead of giving a wrong value.
     */
    private C lose(boolean inputLost) {
        dropWaiting();
        phase = inputLost ? Phase.LOST : Phase.HEAP;
        if (inputLost) {
            pending = NO_ROOM;
        }
        C c = claimed;
        claimed = null;
        keyLoaded = false;
        return c;
    }

    // The message's bytes not yet in OpenSSL's state (staged in the claimed context, pending, or a parked state) are
    // zeroed and dropped.
    private void dropWaiting() {
        if (staged > 0) {
            staged = 0;
            claimed.wipe();
        }
        if (pending == NO_ROOM) {
            pending = null;
        } else if (pending != null) {
            Arrays.fill(pending, 0, pendingLen, (byte) 0);
        }
        pendingLen = 0;
        if (parked != null) {
            Arrays.fill(parked, (byte) 0);
            parked = null;
        }
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

    /**
     * Takes this stream's guard: every native call and every change of context runs under it. A CAS and a
     * releasing store, cheaper than a monitor on a short digest. Only threads that race on one engine, which the
     * JCA does not allow, ever wait here.
     */
    private void enter() {
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

    private void exit() {
        BUSY.setRelease(this, 0);
        Reference.reachabilityFence(this);
    }
}
