package io.github.sm3ffm.bench;

import io.github.sm3ffm.SM3Provider;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import javax.crypto.KDF;
import javax.crypto.spec.HKDFParameterSpec;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.crypto.generators.HKDFBytesGenerator;
import org.bouncycastle.crypto.params.HKDFParameters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * How long does one HKDF-SM3 extract-then-expand take (a TLS 1.3 / RFC 8998 key-schedule step): sm3-ffm's
 * {@code KDF} "HKDF-SM3" (JDK 25, the jar's versioned part) against BouncyCastle's lightweight
 * {@code HKDFBytesGenerator} over its {@code SM3Digest}, the only HKDF-SM3 among the competitors. A 32-byte
 * IKM, 32-byte salt and 16-byte info; {@code size} bytes out.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class HkdfBenchmark {
    @Param({"32", "64"})
    public int size;

    private final byte[] ikm = Providers.message(32);
    private final byte[] salt = Arrays.copyOfRange(Providers.message(64), 32, 64);
    private final byte[] info = Providers.message(16);
    private KDF kdf;
    private HKDFParameterSpec spec;

    @Setup
    public void setUp() throws GeneralSecurityException {
        kdf = KDF.getInstance("HKDF-SM3", new SM3Provider());
        spec = HKDFParameterSpec.ofExtract().addIKM(ikm).addSalt(salt).thenExpand(info, size);
        if (!Arrays.equals(sm3ffm(), bouncyCastle())) {
            throw new IllegalStateException("HKDF-SM3 and BouncyCastle's HKDF with SM3 disagree");
        }
    }

    @Benchmark
    public byte[] sm3ffm() throws GeneralSecurityException {
        return kdf.deriveData(spec);
    }

    @Benchmark
    public byte[] bouncyCastle() {
        HKDFBytesGenerator hkdf = new HKDFBytesGenerator(new SM3Digest());
        hkdf.init(new HKDFParameters(ikm, salt, info));
        byte[] out = new byte[size];
        hkdf.generateBytes(out, 0, size);
        return out;
    }
}
