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
        md = MessageDigest.getInstance("SM3", implementation());
        message = Providers.message(size);
    }

    // GlaSSLess's small digests double for one 200 ms iteration in three or four (550 or 1100 ns at 16 B):
    // its fork means ran 803-1092 ns at 64 B in 4 x 200 ms, 856-1044 in 4 x 600 ms. At 16 B sm3-ffm's own
    // fork means spread too, 211-260 ns in 8 forks of 4 x 600 ms, flat within each fork: three forks a round.
    @Benchmark
    @Settle(forks = 3, longer = 3, sizes = "16")
    @Settle(longer = 3, sizes = {"64", "256"})
    public byte[] digest() {
        return md.digest(message);
    }
}
