package io.github.sm3ffm.bench;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

/**
 * What do the two common per-message patterns cost? A new {@code MessageDigest} from {@code getInstance}
 * for every 64-byte message (compare with {@link DigestBenchmark} at 64 B, which reuses one), and the TLS
 * transcript pattern: append a 64-byte handshake message to a running hash, clone it and finish the clone;
 * also the clone alone, of a transcript holding 1061 bytes (a TLCP handshake's size) that does not grow.
 */
public class PerMessageBenchmark extends ProviderBenchmark {
    static final int MESSAGE_SIZE = 64;

    private Provider jcaProvider;
    private byte[] message;
    private MessageDigest transcript;
    private MessageDigest handshake;

    @Setup
    public void setUp() throws NoSuchAlgorithmException {
        jcaProvider = implementation();
        message = Providers.message(MESSAGE_SIZE);
        transcript = MessageDigest.getInstance("SM3", jcaProvider);
        handshake = MessageDigest.getInstance("SM3", jcaProvider);
        handshake.update(Providers.message(1061));
    }

    @Benchmark
    public byte[] newInstance64B() throws NoSuchAlgorithmException {
        return MessageDigest.getInstance("SM3", jcaProvider).digest(message);
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
