package io.github.sm3ffm.bench;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

/**
 * What does the TLS transcript pattern cost? Append a 64-byte handshake message to a running hash, clone
 * it and finish the clone; also the clone alone, of a transcript holding 1061 bytes (a TLCP handshake's
 * size) that does not grow. (A new {@code MessageDigest} per message is {@link CallPatternBenchmark#newDigest}.)
 */
public class PerMessageBenchmark extends ProviderBenchmark {
    static final int MESSAGE_SIZE = 64;
    /** The transcript's length, a TLCP handshake's. */
    public static final int TRANSCRIPT = 1061;

    private byte[] message;
    private MessageDigest transcript;
    private MessageDigest handshake;

    @Setup
    public void setUp() throws NoSuchAlgorithmException {
        Provider jcaProvider = Providers.create(provider);
        message = Providers.message(MESSAGE_SIZE);
        transcript = MessageDigest.getInstance("SM3", jcaProvider);
        handshake = MessageDigest.getInstance("SM3", jcaProvider);
        handshake.update(Providers.message(TRANSCRIPT));
    }

    @Benchmark
    public byte[] cloneThenFinish64B() throws CloneNotSupportedException {
        transcript.update(message);
        return ((MessageDigest) transcript.clone()).digest();
    }

    @Benchmark
    public byte[] cloneThenFinish1061B() throws CloneNotSupportedException {
        return ((MessageDigest) handshake.clone()).digest();
    }
}
