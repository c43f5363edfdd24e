package io.github.sm3ffm.internal.engines;

import io.github.sm3ffm.internal.libcrypto.Algorithm;
import io.github.sm3ffm.internal.libcrypto.LibCryptoUnavailableException;
import java.security.InvalidAlgorithmParameterException;
import java.util.List;

/**
 * One service of the provider: its type, name and aliases, its engine class, the algorithm whose availability
 * decides whether it is handed out, and how its engine is constructed.
 */
public record ServiceEntry(String type, String name, List<String> aliases, String className, Algorithm algorithm,
                           EngineConstructor constructor) {
    /**
     * The engines' package, for a {@link #className} given as a string: a class literal would load the class at the
     * provider's construction, milliseconds of a program's start, where a string waits for the first
     * {@code getInstance}.
     */
    public static final String PACKAGE = ServiceEntry.class.getPackageName() + ".";

    /** Constructs an engine from the parameter given to {@code getInstance}: {@code KDFParameters} or null. */
    public interface EngineConstructor {
        Object create(Object parameter) throws LibCryptoUnavailableException, InvalidAlgorithmParameterException;
    }
}
