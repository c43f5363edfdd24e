package io.github.sm3ffm.internal.engines;

import io.github.sm3ffm.internal.libcrypto.Algorithm;
import io.github.sm3ffm.internal.libcrypto.LibCryptoUnavailableException;
import java.security.InvalidAlgorithmParameterException;
import java.util.List;

/** One {@code KDF} service (see {@link KdfEngines}): its name and aliases, its engine, the algorithm it needs. */
public record KdfEngine(String name, List<String> aliases, String className, Algorithm algorithm, Factory factory) {
    /** Constructs an engine from the {@code KDFParameters} given to {@code KDF.getInstance} (or null). */
    public interface Factory {
        Object create(Object parameters) throws LibCryptoUnavailableException, InvalidAlgorithmParameterException;
    }
}
