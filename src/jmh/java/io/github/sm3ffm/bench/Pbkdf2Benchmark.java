package io.github.sm3ffm.bench;

import java.security.GeneralSecurityException;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * How long does deriving one 256-bit key with PBKDF2-HMAC-SM3 take (password storage, key files), at
 * 10,000 iterations unless {@code -p iterations=...} asks for others? Runs only for implementations that
 * offer {@code SecretKeyFactory.PBKDF2WithHmacSM3}.
 */
public class Pbkdf2Benchmark extends ProviderBenchmark {
    @Param({"10000"})
    public int iterations = 10_000;

    private SecretKeyFactory factory;
    private PBEKeySpec spec;

    @Setup
    public void setUp() throws GeneralSecurityException {
        factory = SecretKeyFactory.getInstance("PBKDF2WithHmacSM3", Providers.create(provider));
        spec = new PBEKeySpec("correct horse battery staple".toCharArray(), Providers.message(16), iterations, 256);
    }

    @Benchmark
    public byte[] derive() throws GeneralSecurityException {
        return factory.generateSecret(spec).getEncoded();
    }
}
