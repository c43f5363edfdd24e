package io.github.sm3ffm;

import java.security.Provider;
import java.security.ProviderException;
import java.util.Optional;

/**
 * The provider as JDK 17 to 21 load it from the jar's base: named {@code SM3FFM}, with no service, and a
 * {@link #getInfo()} that says it needs JDK 22 or later. The real provider is in META-INF/versions/22, compiled
 * for the FFM API of JDK 22; this stub keeps {@code ServiceLoader.load(Provider.class)} and
 * {@code security.provider.N=SM3FFM} working on older JDKs, where a class file they cannot read would throw
 * {@code UnsupportedClassVersionError}. Its public API is the real one's.
 */
public final class SM3Provider extends Provider {
    private static final long serialVersionUID = 1L;

    /** The provider name, as used in {@code getInstance(algorithm, "SM3FFM")}. */
    public static final String NAME = "SM3FFM";

    /** The property the real provider reads; here nothing serves either way. */
    public static final String REQUIRED_PROPERTY = "sm3ffm.required";

    /** A provider without services, whose information says why. */
    public SM3Provider() {
        super(NAME, libraryVersion(), NAME + " offers no service: " + reason());
    }

    /**
     * Never here.
     *
     * @return {@code false}
     */
    public static boolean isAvailable() {
        return false;
    }

    /**
     * Why SM3 cannot be computed here.
     *
     * @return an {@link UnsupportedOperationException} naming the JDK needed and this one
     */
    public static Optional<Exception> unavailability() {
        return Optional.of(new UnsupportedOperationException(reason()));
    }

    /**
     * Does nothing: a provider without services would only be one more for every lookup to pass over.
     * {@link #assertAvailable()} says why there is none.
     */
    public static void install() {
    }

    /**
     * Throws: SM3 is never available here.
     *
     * @throws ProviderException saying that JDK 22 or later is needed, with {@link #unavailability()}'s
     *                           exception as its cause
     */
    public static void assertAvailable() {
        Exception reason = unavailability().orElseThrow();
        throw new ProviderException(reason.getMessage(), reason);
    }

    // The real provider's overrides, here as Provider has them: the jar's two versions keep one public API.
    @Override
    public String getInfo() {
        return super.getInfo();
    }

    @Override
    public Object get(Object key) {
        return super.get(key);
    }

    @Override
    public String getProperty(String key) {
        return super.getProperty(key);
    }

    @Override
    public Service getService(String type, String algorithm) {
        return super.getService(type, algorithm);
    }

    static String reason() {
        return "sm3-ffm needs JDK 22 or later (the FFM API); this is JDK " + Runtime.version();
    }

    /** The jar manifest's Implementation-Version, which is version.properties' (absent on the module path). */
    private static String libraryVersion() {
        String version = SM3Provider.class.getPackage().getImplementationVersion();
        return version == null ? "0" : version;
    }
}
