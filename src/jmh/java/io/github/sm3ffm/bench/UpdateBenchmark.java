package io.github.sm3ffm.bench;

import java.nio.ByteBuffer;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

/**
 * What do the streaming shapes that callers actually use cost, and do they allocate? Each benchmark hashes
 * one message through one {@code update} pattern and finishes into a reused array, so the allocation JMH's
 * {@code gc} profiler reports ({@code gc.alloc.rate.norm}) is the update path's alone and should be 0.
 */
public class UpdateBenchmark extends ProviderBenchmark {
    private MessageDigest md;
    private final byte[] out = new byte[32];
    private byte[] message1k;
    private byte[] message4k;
    private ByteBuffer direct1m;
    private ByteBuffer heap1m;

    @Setup
    public void setUp() throws NoSuchAlgorithmException {
        md = MessageDigest.getInstance("SM3", Providers.create(provider));
        message1k = Providers.message(1024);
        message4k = Providers.message(4096);
        byte[] message1m = Providers.message(1024 * 1024);
        direct1m = ByteBuffer.allocateDirect(message1m.length).put(message1m).flip();
        heap1m = ByteBuffer.wrap(message1m);
    }

    /** A 1 KiB message fed one {@code update(byte)} at a time (a stream read byte by byte). */
    @Benchmark
    public byte[] updateByte1KiB() throws DigestException {
        for (byte b : message1k) {
            md.update(b);
        }
        md.digest(out, 0, out.length);
        return out;
    }

    /** A 4 KiB message fed in 32-byte updates (records, fields, small writes). */
    @Benchmark
    public byte[] update32B4KiB() throws DigestException {
        for (int off = 0; off < message4k.length; off += 32) {
            md.update(message4k, off, 32);
        }
        md.digest(out, 0, out.length);
        return out;
    }

    /** A 1 MiB direct {@code ByteBuffer} (NIO channels, network buffers). */
    @Benchmark
    public byte[] directBuffer1MiB() throws DigestException {
        md.update(direct1m.clear());
        md.digest(out, 0, out.length);
        return out;
    }

    /** A 1 MiB heap {@code ByteBuffer}. */
    @Benchmark
    public byte[] heapBuffer1MiB() throws DigestException {
        md.update(heap1m.clear());
        md.digest(out, 0, out.length);
        return out;
    }
}
