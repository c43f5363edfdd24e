package io.github.sm3ffm.internal;

import static io.github.sm3ffm.internal.openssl.OpenSSL.CRYPTO_clear_free;
import static io.github.sm3ffm.internal.openssl.OpenSSL.CRYPTO_malloc;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.security.ProviderException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A native OpenSSL context that consumes a stream of input (a digest or a MAC), with the input paths the
 * JCA engines share. A downcall costs about as much as hashing a few dozen bytes, so:
 * <ul>
 * <li>inputs shorter than {@value #DIRECT_THRESHOLD} bytes, single bytes, short direct buffers and
 * read-only heap buffers are copied into an off-heap staging buffer of {@value #STAGING_SIZE} bytes that
 * reaches OpenSSL only when full or when the engine flushes it: one-byte updates cost one downcall per
 * {@value #STAGING_SIZE} bytes and no allocation;</li>
 * <li>longer arrays go to a critical downcall as heap segments, without a copy, in chunks of
 * {@value #CRITICAL_CHUNK} bytes, because a critical call holds off GC for its duration; long direct
 * buffers and native segments go by address in one ordinary downcall, which does not.</li>
 * </ul>
 *
 * <p>The three sizes, as measured with the JMH suite ({@code bench/run}) on a 2-core machine:
 * <ul>
 * <li>{@value #DIRECT_THRESHOLD}-byte threshold: staged and in-place input hash 128-384 byte messages at
 * the same speed within this machine's noise (e.g. 256 B: 2.10 &plusmn; 0.06 &micro;s staged, 1.81-2.41
 * &micro;s in place, 2 forks &times; 5 &times; 300 ms each); but an in-place call allocates its heap
 * segment (72 B) whenever escape analysis gives up behind the FFM call chain, so with a threshold of 128
 * a 256 B or 1 KiB {@code digest(byte[])} allocated 120 B/op against 48 B/op (the result alone) now.</li>
 * <li>{@value #STAGING_SIZE}-byte staging buffer: one downcall per 512 one-byte updates is already below
 * the noise; a 2 KiB buffer made no measurable difference in speed, but it is native memory held by every
 * instance until the Cleaner runs, and with it 600,000 abandoned Macs and clones peaked at 660-917 MiB of
 * resident memory instead of 490-520 MiB.</li>
 * <li>{@value #CRITICAL_CHUNK}-byte chunks: a chunk holds off GC for about 0.23 ms at 285 MB/s; the
 * per-chunk cost (one critical downcall, 4-5 ns measured here) is 0.002% of hashing it, so larger chunks would
 * only lengthen GC pauses.</li>
 * </ul>
 *
 * <p>Native calls run under this object's monitor, so threads that race on one engine (which the JCA does
 * not allow) may get wrong results but never corrupt native memory. The unlocked fast paths only write
 * into the bounds-checked staging segment, with {@code staged} always within {@code 0..STAGING_SIZE}.
 *
 * <p>An instance is also its own {@link Cleaner} action ({@link #run()} frees it). It never refers to the
 * engine that owns it, so registering it does not keep that engine alive; the engine keeps itself
 * reachable across calls with {@link java.lang.ref.Reference#reachabilityFence}.
 */
public abstract class NativeContext implements Runnable {
    static final int STAGING_SIZE = 512;
    static final int DIRECT_THRESHOLD = 512;
    static final int CRITICAL_CHUNK = 64 * 1024;

    private static final Cleaner CLEANER = Cleaner.create();
    // Staging buffers are one per context: their count is the number of native contexts not yet freed.
    private static final AtomicLong LIVE = new AtomicLong();

    final MemorySegment staging;
    private int staged;

    NativeContext(MemorySegment staging) {
        this.staging = staging;
    }

    /** A staging buffer for a new context; free it with {@link #freeStaging} if the context is not built. */
    static MemorySegment allocateStaging() {
        MemorySegment buffer = CRYPTO_malloc(STAGING_SIZE, MemorySegment.NULL, 0);
        if (buffer.equals(MemorySegment.NULL)) {
            throw OpenSSLErrors.failure("CRYPTO_malloc");
        }
        LIVE.incrementAndGet();
        return buffer.reinterpret(STAGING_SIZE);
    }

    /** Clears (it held message or key bytes) and frees a staging buffer. */
    static void freeStaging(MemorySegment buffer) {
        CRYPTO_clear_free(buffer, buffer.byteSize(), MemorySegment.NULL, 0);
        LIVE.decrementAndGet();
    }

    /** Native contexts (digests, MACs, their clones) allocated and not yet freed, in this JVM. */
    public static long live() {
        return LIVE.get();
    }

    /** Frees this context when {@code owner} becomes unreachable. */
    final void freeWhenUnreachable(Object owner) {
        CLEANER.register(owner, this);
    }

    /** Feeds the first {@code len} bytes of {@code data} (heap or native) in one short critical call. */
    abstract void updateCritical(MemorySegment data, long len);

    /**
     * Feeds {@code len} bytes of a Java array in one short critical call. Implementations wrap the array
     * in a segment right beside the downcall, so escape analysis removes the wrapper.
     */
    abstract void updateCritical(byte[] data, int offset, int len);

    /** Feeds a native segment of any length in one ordinary downcall (GC may run meanwhile). */
    abstract void updateLong(MemorySegment data);

    /** Starts the stream over (same algorithm and key); called with the monitor held. */
    abstract void restart();

    final void update(byte input) {
        int s = staged;
        if (s == STAGING_SIZE) {
            updateByteLocked(input);
            return;
        }
        staging.set(JAVA_BYTE, s, input);
        staged = s + 1;
    }

    /** The engine has validated the bounds as its JCA class requires. */
    final void update(byte[] input, int offset, int len) {
        if (len < DIRECT_THRESHOLD) {
            int s = staged;
            if (len <= STAGING_SIZE - s) {
                MemorySegment.copy(input, offset, staging, JAVA_BYTE, s, len);
                staged = s + len;
            } else {
                stageLocked(input, offset, len);
            }
        } else {
            inPlaceLocked(input, offset, len);
        }
    }

    /** Consumes the buffer's remaining bytes and moves its position to its limit. */
    final void update(ByteBuffer input) {
        int position = input.position();
        int limit = input.limit();
        if (position >= limit) {
            return;
        }
        if (input.hasArray()) {
            update(input.array(), input.arrayOffset() + position, limit - position);
        } else if (input.isDirect()) {
            update(MemorySegment.ofBuffer(input));
        } else {
            // A read-only heap buffer: its array is out of reach, so its bytes go through staging.
            stageLocked(MemorySegment.ofBuffer(input), 0, limit - position);
        }
        input.position(limit);
    }

    /** Consumes a whole segment, native (e.g. a mapped file or a direct buffer) or heap. */
    final void update(MemorySegment input) {
        long len = input.byteSize();
        if (len < DIRECT_THRESHOLD) {
            stageLocked(input, 0, len);
        } else {
            inPlaceLocked(input);
        }
    }

    /** Hands the staged bytes to OpenSSL; called with the monitor held, before finishing. */
    final void flushLocked() {
        int s = staged;
        if (s > 0) {
            staged = 0;
            updateCritical(staging, s);
        }
    }

    /** Drops staged bytes and restarts the stream; called with the monitor held. */
    final void resetLocked() {
        staged = 0;
        restart();
    }

    /** Copies the staged bytes into a fresh context made by {@code copy()}; called with the monitor held. */
    final void copyStagedTo(NativeContext copy) {
        int s = staged;
        MemorySegment.copy(staging, 0, copy.staging, 0, s);
        copy.staged = s;
    }

    private synchronized void updateByteLocked(byte input) {
        try {
            int s = staged;
            if (s == STAGING_SIZE) {
                flushLocked();
                s = 0;
            }
            staging.set(JAVA_BYTE, s, input);
            staged = s + 1;
        } catch (ProviderException e) {
            recover();
            throw e;
        }
    }

    // src is a byte[] or a MemorySegment: arrays are copied without wrapping them in a segment.
    private synchronized void stageLocked(Object src, long offset, long len) {
        try {
            while (len > 0) {
                // One read of staged per step: the unlocked paths may change it under misuse.
                int s = staged;
                if (s == STAGING_SIZE) {
                    flushLocked();
                    s = 0;
                }
                int k = (int) Math.min(len, STAGING_SIZE - s);
                if (src instanceof byte[] array) {
                    MemorySegment.copy(array, (int) offset, staging, JAVA_BYTE, s, k);
                } else {
                    MemorySegment.copy((MemorySegment) src, offset, staging, s, k);
                }
                staged = s + k;
                offset += k;
                len -= k;
            }
        } catch (ProviderException e) {
            recover();
            throw e;
        }
    }

    private synchronized void inPlaceLocked(byte[] src, int offset, int len) {
        try {
            flushLocked();
            for (int end = offset + len; offset < end; offset += CRITICAL_CHUNK) {
                updateCritical(src, offset, Math.min(CRITICAL_CHUNK, end - offset));
            }
        } catch (ProviderException e) {
            recover();
            throw e;
        }
    }

    private synchronized void inPlaceLocked(MemorySegment src) {
        try {
            flushLocked();
            long len = src.byteSize();
            if (src.isNative()) {
                if (len > CRITICAL_CHUNK) {
                    updateLong(src);
                } else {
                    updateCritical(src, len);
                }
                return;
            }
            for (long offset = 0; offset < len; offset += CRITICAL_CHUNK) {
                long n = Math.min(CRITICAL_CHUNK, len - offset);
                updateCritical(src.asSlice(offset, n), n);
            }
        } catch (ProviderException e) {
            recover();
            throw e;
        }
    }

    // After a failed native call the stream is in an unknown state: start over so the engine stays usable.
    private void recover() {
        try {
            resetLocked();
        } catch (ProviderException suppressed) {
            // The original failure is the one worth reporting.
        }
    }

    /** OpenSSL's EVP functions return 1 on success. */
    static void check(int rc, String call) {
        if (rc != 1) {
            throw OpenSSLErrors.failure(call);
        }
    }

    // A downcall declares Throwable but fails only with unchecked exceptions and errors.
    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException e) {
            return e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new ProviderException(t);
    }
}
