package io.github.sm3ffm.internal.libcrypto;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A context's off-heap staging buffer and how far it has been written since it was last zeroed. No native call:
 * {@link PooledContext} (the only subclass, so these fields sit in the context itself) makes the calls that read
 * it.
 *
 * <p>The buffer's regions are declared once ({@link Staging}) and sliced once, here. Every write into the buffer
 * first records how far it reaches ({@link #mark}); {@link #wipe} zeroes that far, which is everything written.
 * Zeroing what was written, not all 512 bytes, keeps a short digest's clearing at one copy.
 */
public abstract sealed class StagingArea permits PooledContext {
    /** What {@link #wipe} copies over written bytes; never written. */
    private static final byte[] ZEROS = new byte[Staging.SIZE];

    private static final VarHandle HEAP_WORDS = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.nativeOrder());

    /** The whole staging buffer: what a wipe zeroes. */
    private final MemorySegment staging;
    /** Each region of the staging buffer, by {@link Staging#ordinal()}: sliced once, so no call allocates one. */
    private final MemorySegment[] regions;
    /** How many bytes at the start of the staging buffer may hold something written since the last wipe. */
    private int used;

    /** Takes {@code staging}, of {@link Staging#SIZE} bytes. */
    StagingArea(MemorySegment staging) {
        this.staging = staging;
        Staging[] all = Staging.values();
        this.regions = new MemorySegment[all.length];
        for (Staging r : all) {
            regions[r.ordinal()] = r.of(staging);
        }
    }

    /** The whole staging buffer; what native calls read, and what tests read native memory through. */
    final MemorySegment staging() {
        return staging;
    }

    /** The region {@code r} of the staging buffer. */
    final MemorySegment region(Staging r) {
        return regions[r.ordinal()];
    }

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

    /** Copies {@code len} bytes of {@code from}'s staging buffer, from {@code at}, to the start of this one's. */
    final void stageFrom(StagingArea from, int at, int len) {
        mark(len);
        MemorySegment.copy(from.staging, at, staging, 0, len);
    }

    /** The first {@code len} bytes of the staging buffer, copied into {@code into} at {@code at}. */
    final void staged(byte[] into, int at, int len) {
        MemorySegment.copy(staging, JAVA_BYTE, 0, into, at, len);
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
}
