package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.PooledContext.STAGING_SIZE;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.security.ProviderException;
import java.util.function.BiConsumer;

/**
 * What a digest's message ({@link DigestStream}) and a MAC's ({@link MacStream}) share: the native context
 * claimed from a {@link ContextPool}, the bytes waiting on the heap ({@link HeapBytes}) and the guard around
 * every native call ({@link Guarded}). Input shorter than {@value #DIRECT_THRESHOLD} bytes waits on the heap; a
 * message that never outgrows it reaches OpenSSL only at {@link #finish}, on a context borrowed for that call, so a
 * new engine holds no native memory. Larger input, or a message that outgrows the heap, claims a context and is fed
 * in place (critical downcalls in chunks of {@value PooledContext#CRITICAL_CHUNK} bytes; direct buffers by
 * address). After its first message a stream keeps its claimed context (docs/design.md, "Streams").
 *
 * <p>A message is on the heap, in a context or lost ({@link HeapBytes}). Each step is one method: a kind starts a
 * message in {@link #open}, what waits reaches OpenSSL in {@link #flush}, the pool takes back what dead owners held
 * as it lends ({@link ContextPool#borrow}), and a failed call goes to {@link #lose}, which decides what it leaves:
 * the context's state is unknown, so the pool frees it. The owner whose death releases a claimed context is this
 * stream: the guard's release keeps it reachable until a native call has returned.
 */
public abstract sealed class MessageStream<C extends PooledContext> extends HeapBytes
        permits DigestStream, MacStream {
    static final int DIRECT_THRESHOLD = STAGING_SIZE;

    final ContextPool<C> pool;
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
        int n = pendingLength();
        if (m + n > 0) {
            pendingMoved();
            context.updateWaiting(m, pendingBytes(), n);
        }
    }

    /** Whether a message was finished before. */
    final boolean reused() {
        return reused;
    }

    /** Under the guard: the context this stream uses now, or null. */
    final C context() {
        return context;
    }

    /** Claims {@code c}, borrowed from the pool, for this stream. */
    final void claim(C c) {
        context = pool.claim(this, c);
    }

    /**
     * Under the guard: the message moves to a context borrowed with a copy of it, which the caller claims next;
     * returns the one it leaves, for the caller to give back first (so the claims counted stay).
     */
    final C handOver() {
        C old = context;
        context = null;
        nowNative();
        return old;
    }

    /**
     * Under the guard, for a copy: has {@code copier} put this stream's claimed context in {@code n}, borrowed by the
     * caller (so that a new context is made one frame nearer the engine), and gives it to {@code that}. A failed copy
     * may be half done, so the context goes back as failed.
     */
    final void copyContextTo(MessageStream<C> that, C n, BiConsumer<C, C> copier) {
        try {
            copier.accept(context(), n);
        } catch (ProviderException e) {
            pool.giveBack(n, false);
            throw e;
        }
        that.claim(n);
        that.nowNative();
    }

    /** Under the guard: drops the message and the claimed context, returned for the caller to give back. */
    final C dropAll() {
        dropWaiting();
        C c = context;
        context = null;
        return c;
    }

    /**
     * Under the guard: ends the message. Its bytes on the heap are zeroed; returns the claimed context for the
     * caller to give back when the stream has not yet finished a message (it may never be used again), else null.
     */
    private C endMessage() {
        if (!reused) {
            return dropAll();
        }
        dropWaiting();
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
            lost();
        }
        return c;
    }

    // The message's bytes not yet in OpenSSL's state are zeroed and dropped.
    private void dropWaiting() {
        dropKindWaiting();
        dropHeap();
    }

    /** What a test may see of the stream: its phase, heap bytes, claimed context and a kind's own waiting state. */
    record Snapshot(Phase phase, byte[] pending, int pendingLen, PooledContext claimed, int staged, byte[] parked,
                    byte[] pads) {
    }

    /** This stream's state now, for tests; a kind adds its own. */
    abstract Snapshot snapshot();

    final Snapshot snapshot(int staged, byte[] parked, byte[] pads) {
        return new Snapshot(phase(), pendingBytes(), pendingLength(), context, staged, parked, pads);
    }

    /** Whether this stream holds a claimed context across calls (which a digest may stage bytes in). */
    final boolean holdsContext() {
        return context != null;
    }
}
