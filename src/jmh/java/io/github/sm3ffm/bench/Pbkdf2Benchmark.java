package io.github.sm3ffm.bench;

import java.security.GeneralSecurityException;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

/**
 * How long does deriving one 256-bit key with PBKDF2-HMAC-SM3 at {@value #ITERATIONS} iterations take
 * (password storage, key files)? Runs only for implementations that offer
 * {@code SecretKeyFactory.PBKDF2WithHmacSM3}.
 */
public class Pbkdf2Benchmark extends ProviderBenchmark {
    static final int ITERATIONS = 10_000;

    private SecretKeyFactory factory;
    private PBEKeySpec spec;

    @Setup
    public void setUp() throws GeneralSecurityException {
        factory = SecretKeyFactory.getInstance("PBKDF2WithHmacSM3", implementation());
        spec = new PBEKeySpec("correct horse battery staple".toCharArray(), Providers.message(16), ITERATIONS, 256);
    }

    @Benchmark
    public byte[] derive() throws GeneralSecurityException {
        return factory.generateSecret(spec).getEncoded();
    }
}
