package io.github.sm3ffm.internal.engines;

import io.github.sm3ffm.internal.libcrypto.Algorithm;
import io.github.sm3ffm.internal.libcrypto.LibCryptoUnavailableException;
import java.security.InvalidAlgorithmParameterException;
import java.util.List;
import javax.crypto.KDFParameters;

/**
 * The {@code KDF} engines, on JDK 25 and later (this class is in the jar's {@code META-INF/versions/25};
 * earlier JDKs run the base version, which has none). The names follow the JDK's "HKDF-SHA256" and OpenSSL's
 * "X963KDF"; "SM2KDF" is the name GM/T 0003-2012 users know.
 */
public final class KdfEngines {
    private KdfEngines() {
    }

    /** HKDF-SM3 and X963KDF-SM3 (alias SM2KDF). */
    public static List<ServiceEntry> all() {
        // By name, and constructed in Kdf, as the provider's other engines: neither class loads before it is used.
        return List.of(
                new ServiceEntry("KDF", "HKDF-SM3", List.of(), ServiceEntry.PACKAGE + "HkdfSM3", Algorithm.HKDF_SM3,
                        new Kdf(true)),
                new ServiceEntry("KDF", "X963KDF-SM3", List.of("SM2KDF"), ServiceEntry.PACKAGE + "X963KdfSM3",
                        Algorithm.X963KDF_SM3, new Kdf(false)));
    }

    private static final class Kdf implements ServiceEntry.EngineConstructor {
        private final boolean hkdf;

        Kdf(boolean hkdf) {
            this.hkdf = hkdf;
        }

        @Override
        public Object create(Object parameter)
                throws InvalidAlgorithmParameterException, LibCryptoUnavailableException {
            return hkdf ? new HkdfSM3((KDFParameters) parameter) : new X963KdfSM3((KDFParameters) parameter);
        }
    }
}
