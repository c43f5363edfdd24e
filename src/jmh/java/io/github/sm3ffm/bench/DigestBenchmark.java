package io.github.sm3ffm.bench;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * How fast does each implementation hash one whole message with a {@code MessageDigest} that is reused,
 * by message size? This is the chart's series; {@code openssl speed -evp sm3 -bytes N} at the same sizes
 * is the native ceiling beside it. {@code digest(byte[])} allocates its 32-byte result, nothing else should.
 */
public class DigestBenchmark extends ProviderBenchmark {
    @Param({"16", "64", "256", "1024", "8192", "65536", "1048576"})
    public int size;

    private MessageDigest md;
    private byte[] message;

    @Setup
    public void setUp() throws NoSuchAlgorithmException {
        md = MessageDigest.getInstance("SM3", Providers.create(provider));
        message = Providers.message(size);
    }

    @Benchmark
    public byte[] digest() {
        return md.digest(message);
    }
}
