package io.github.sm3ffm.internal.engines;

import io.github.sm3ffm.internal.libcrypto.Algorithm;
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
        return List.of(
                new ServiceEntry("KDF", "HKDF-SM3", List.of(), HkdfSM3.class.getName(), Algorithm.HKDF_SM3,
                        p -> new HkdfSM3((KDFParameters) p)),
                new ServiceEntry("KDF", "X963KDF-SM3", List.of("SM2KDF"), X963KdfSM3.class.getName(), Algorithm.X963KDF_SM3,
                        p -> new X963KdfSM3((KDFParameters) p)));
    }
}
