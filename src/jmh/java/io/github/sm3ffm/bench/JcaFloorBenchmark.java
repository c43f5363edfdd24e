package io.github.sm3ffm.bench;

import java.security.MessageDigest;
import java.security.MessageDigestSpi;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * What does the JDK itself charge for a new {@code MessageDigest} per message? The same calls as
 * {@link CallPatternBenchmark#newDigest} and {@link CallPatternBenchmark#reusedDigest}, on an engine that
 * hashes nothing (it counts bytes and returns 32 of them) from a provider with that one service. The
 * difference between the two is {@code getInstance} with its lookup and algorithm-constraint check, the
 * {@code MessageDigest} wrapper and an engine object: a cost every provider pays on top of reusing a digest.
 */
public class JcaFloorBenchmark extends TimedBenchmark {
    @Param({"16", "64"})
    public int size;

    private Provider jcaProvider;
    private byte[] message;
    private MessageDigest md;

    /** Counts what it is given; the result depends on it so that nothing can be skipped. */
    public static final class NoHash extends MessageDigestSpi implements Cloneable {
        private long count;

        @Override
        protected void engineUpdate(byte input) {
            count++;
        }

        @Override
        protected void engineUpdate(byte[] input, int offset, int len) {
            count += len;
        }

        @Override
        protected byte[] engineDigest() {
            byte[] out = new byte[32];
            out[0] = (byte) count;
            count = 0;
            return out;
        }

        @Override
        protected void engineReset() {
            count = 0;
        }
    }

    @Setup
    public void setUp() throws NoSuchAlgorithmException {
        jcaProvider = new Provider("NoHash", "1", "an SM3 engine that hashes nothing") {
            {
                // Instantiated without reflection, as sm3-ffm's own services are.
                putService(new Service(this, "MessageDigest", "SM3", NoHash.class.getName(), null, null) {
                    @Override
                    public Object newInstance(Object constructorParameter) {
                        return new NoHash();
                    }
                });
            }
        };
        message = Providers.message(size);
        md = MessageDigest.getInstance("SM3", jcaProvider);
    }

    @Benchmark
    public byte[] reusedDigest() {
        return md.digest(message);
    }

    @Benchmark
    public byte[] newDigest() throws NoSuchAlgorithmException {
        return MessageDigest.getInstance("SM3", jcaProvider).digest(message);
    }
}
