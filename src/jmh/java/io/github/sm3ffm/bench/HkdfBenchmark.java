package io.github.sm3ffm.bench;

import io.github.sm3ffm.SM3Provider;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.KDF;
import javax.crypto.spec.HKDFParameterSpec;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.crypto.generators.HKDFBytesGenerator;
import org.bouncycastle.crypto.params.HKDFParameters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * How long does one HKDF-SM3 extract-then-expand take (a TLS 1.3 / RFC 8998 key-schedule step)? sm3-ffm's
 * {@code KDF} "HKDF-SM3" (JDK 25, the jar's versioned part) against BouncyCastle's lightweight
 * {@code HKDFBytesGenerator} over its {@code SM3Digest}, the only HKDF-SM3 among the competitors. A 32-byte
 * IKM, 32-byte salt and 16-byte info; {@code size} bytes out. Run it with {@code -p provider=SM3FFM,BC}.
 */
public class HkdfBenchmark extends ProviderBenchmark {
    @Param({"32", "64"})
    public int size;

    private final byte[] ikm = Providers.message(32);
    private final byte[] salt = Arrays.copyOfRange(Providers.message(64), 32, 64);
    private final byte[] info = Providers.message(16);
    /** sm3-ffm's KDF, or null when BouncyCastle is measured. */
    private KDF kdf;
    private HKDFParameterSpec spec;

    @Setup
    public void setUp() throws GeneralSecurityException {
        spec = HKDFParameterSpec.ofExtract().addIKM(ikm).addSalt(salt).thenExpand(info, size);
        switch (provider) {
            case Providers.SM3FFM -> {
                kdf = KDF.getInstance("HKDF-SM3", new SM3Provider());
                if (!Arrays.equals(kdf.deriveData(spec), bouncyCastle())) {
                    throw new IllegalStateException("HKDF-SM3 and BouncyCastle's HKDF with SM3 disagree");
                }
            }
            case Providers.BC -> kdf = null;
            default -> throw new IllegalArgumentException("no HKDF-SM3 measured for " + provider);
        }
    }

    /** One derivation; the branch goes the same way for a fork's whole life. */
    @Benchmark
    public byte[] extractThenExpand() throws GeneralSecurityException {
        return kdf != null ? kdf.deriveData(spec) : bouncyCastle();
    }

    private byte[] bouncyCastle() {
        HKDFBytesGenerator hkdf = new HKDFBytesGenerator(new SM3Digest());
        hkdf.init(new HKDFParameters(ikm, salt, info));
        byte[] out = new byte[size];
        hkdf.generateBytes(out, 0, size);
        return out;
    }
}
