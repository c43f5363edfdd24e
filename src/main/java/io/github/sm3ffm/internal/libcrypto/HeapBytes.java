package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.PooledContext.STAGING_SIZE;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * Where a message is, and the bytes of it that wait on the Java heap until OpenSSL needs them: an array that grows
 * from {@value #FIRST_PENDING} to {@value PooledContext#STAGING_SIZE} bytes, zeroed whenever its bytes move on or
 * are dropped. No native call: {@link MessageStream} (the only subclass, so these fields sit in the stream itself,
 * no pointer further from an engine's hot path) decides when they reach OpenSSL.
 *
 * <p>A message is in one of three phases: {@code HEAP} (all of it waits here), {@code NATIVE} (a claimed or
 * borrowed context holds it) and {@code LOST} (a native call failed and the message lost input: it is refused until
 * it is ended, never finished with a wrong value).
 */
public abstract sealed class HeapBytes extends Guarded permits MessageStream {
    static final int FIRST_PENDING = 32;

    /**
     * The pending array of a LOST message: it has no room, so every update misses the unguarded fast paths and
     * reaches the guard, which refuses.
     */
    private static final byte[] NO_ROOM = new byte[0];

    enum Phase { HEAP, NATIVE, LOST }

    private Phase phase = Phase.HEAP;
    private byte[] pending;
    private int pendingLen;

    HeapBytes() {
    }

    /** How many bytes the heap may hold now: fewer than the staging buffer where some wait there already. */
    abstract int heapLimit();

    /** Whether {@code len} bytes (fewer than the staging size) skip the heap, for the staging buffer. */
    abstract boolean skipsHeap(int len);

    /** Appends one byte on the heap where there is room; false when {@link MessageStream#update(Object, long, long)} must. */
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
     * there is room; false when {@link MessageStream#update(Object, long, long)} must. Heap only, so no guard; small, so that the
     * JIT inlines it into an engine's update, where {@code update} is too big to be.
     */
    public final boolean append(byte[] src, int offset, int len) {
        if (len <= 0) {
            // Nothing at all happens for none, whatever the offset.
            return true;
        }
        if (len >= STAGING_SIZE || skipsHeap(len)) {
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

    /** Under the guard: true, once, when a message must be started on the claimed or borrowed context. */
    final boolean opening() {
        if (phase == Phase.NATIVE) {
            return false;
        }
        phase = Phase.NATIVE;
        return true;
    }

    /** Whether the message so far is in a context. */
    final boolean isNative() {
        return phase == Phase.NATIVE;
    }

    /** The message is in a context now: one a copy moved it to. */
    final void nowNative() {
        phase = Phase.NATIVE;
    }

    /** The message lost input; its array has no room, so that every update reaches the guard, which refuses. */
    final void lost() {
        phase = Phase.LOST;
        pending = NO_ROOM;
    }

    // Under the guard: the message lost input to a failed native call, and only a new message can be right.
    final void refuseIfLost() {
        if (phase == Phase.LOST) {
            throw new IllegalStateException("a native call failed and this message lost input;"
                    + " reset() (or a digest, which reports this) starts a new one");
        }
    }

    final Phase phase() {
        return phase;
    }

    /** Zeroes and drops the bytes waiting here; the next message starts on the heap. */
    final void dropHeap() {
        if (pending == NO_ROOM) {
            pending = null;
        } else if (pending != null) {
            Arrays.fill(pending, 0, pendingLen, (byte) 0);
        }
        pendingLen = 0;
        phase = Phase.HEAP;
    }

    /**
     * For a copy ({@code that}, new): what waits here waits there, behind the first {@code staged} bytes of
     * {@code context}'s staging buffer (none when 0); a LOST message stays lost.
     */
    final void copyHeapTo(HeapBytes that, PooledContext context, int staged) {
        if (phase == Phase.LOST) {
            that.lost();
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
}
