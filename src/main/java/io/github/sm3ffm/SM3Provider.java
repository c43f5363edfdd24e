package io.github.sm3ffm;

import io.github.sm3ffm.internal.engines.HmacSM3;
import io.github.sm3ffm.internal.engines.HmacSM3KeyGenerator;
import io.github.sm3ffm.internal.engines.KdfEngines;
import io.github.sm3ffm.internal.engines.PBKDF2HmacSM3;
import io.github.sm3ffm.internal.engines.SM3Digest;
import io.github.sm3ffm.internal.engines.ServiceEntry;
import io.github.sm3ffm.internal.libcrypto.Algorithm;
import io.github.sm3ffm.internal.libcrypto.LibCrypto;
import io.github.sm3ffm.internal.libcrypto.LibCryptoUnavailableException;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serial;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidParameterException;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The {@code SM3FFM} security provider: {@code MessageDigest} "SM3" (GB/T 32905-2016, OID
 * 1.2.156.10197.1.401) computed by the system's OpenSSL 3 libcrypto through the FFM API.
 *
 * <p>It also offers {@code Mac} "HmacSM3" (GM/T 0042-2015; aliases HMAC-SM3, HMAC/SM3, SM3HMac, OID
 * 1.2.156.10197.1.401.2) with its {@code KeyGenerator}, and {@code SecretKeyFactory} "PBKDF2WithHmacSM3",
 * each available or not on its own terms.
 *
 * <h2>Registering it</h2>
 * In code:
 * {@snippet :
 * Security.addProvider(new SM3Provider());
 * MessageDigest md = MessageDigest.getInstance("SM3");   // or getInstance("SM3", SM3Provider.NAME)
 * byte[] digest = md.digest("abc".getBytes(StandardCharsets.US_ASCII));
 * }
 * Or without code, in either of these ways; the provider is declared both in {@code module-info} and in
 * {@code META-INF/services}, so each works on the module path and on the class path:
 * <ul>
 *   <li>a line {@code security.provider.N=SM3FFM} in a file passed with
 *       {@code -Djava.security.properties=FILE}: the JDK finds the provider by that name;</li>
 *   <li>{@link java.util.ServiceLoader#load(Class) ServiceLoader.load(Provider.class)}, which constructs it
 *       without reflection, so the module needs no {@code opens}.</li>
 * </ul>
 *
 * <h2>Launch flags</h2>
 * The library calls native code, so the JVM must grant it native access:
 * <ul>
 *   <li>on the module path, {@code --enable-native-access=io.github.sm3ffm};</li>
 *   <li>on the class path, {@code --enable-native-access=ALL-UNNAMED}, or
 *       {@code Enable-Native-Access: ALL-UNNAMED} in the manifest of an executable jar.</li>
 * </ul>
 * For example:
 * {@snippet lang=sh :
 * java --enable-native-access=io.github.sm3ffm -p app.jar:sm3-ffm.jar -m app/app.Main
 * java --enable-native-access=ALL-UNNAMED -cp app.jar:sm3-ffm.jar app.Main
 * }
 * Without the flag, JDK 22 and 23 print a warning; with {@code --illegal-native-access=deny} (JDK 24 and
 * later) the services are unavailable and the reason names the missing flag. The provider looks for
 * OpenSSL 4's libcrypto, then OpenSSL 3's, by their usual file names ({@code libcrypto.so.4},
 * {@code libcrypto.so.3}); {@code -Dsm3ffm.libcrypto.path=FILE} names the one file to load instead.
 *
 * <h2>When OpenSSL cannot serve SM3</h2>
 * Constructing and registering the provider always works. When libcrypto or its SM3 cannot be used,
 * {@code MessageDigest.getInstance("SM3", "SM3FFM")} throws {@link NoSuchAlgorithmException} whose cause
 * says why, and a provider-less {@code getInstance("SM3")} moves on to the next provider;
 * {@link #isAvailable()} and {@link #unavailability()} answer the same question in code.
 *
 * <p>{@link #getVersionStr()} is the library's version, the same as the {@code Implementation-Version} in
 * the jar's manifest.
 */
public final class SM3Provider extends Provider {
    @Serial
    private static final long serialVersionUID = 1L;

    /** The provider name, as used in {@code getInstance(algorithm, "SM3FFM")}. */
    public static final String NAME = "SM3FFM";

    /**
     * Constructs the provider and registers its services with it. The first construction in a JVM loads
     * libcrypto to name it in {@link #getInfo()}; when it cannot be loaded, the provider is constructed all
     * the same and its services say why they are unavailable.
     */
    public SM3Provider() {
        super(NAME, libraryVersion(), info());
        List<String> hmacAliases = List.of("HMAC-SM3", "HMAC/SM3", "SM3HMac", "1.2.156.10197.1.401.2",
                "OID.1.2.156.10197.1.401.2");
        List<ServiceEntry> services = new ArrayList<>(List.of(
                new ServiceEntry("MessageDigest", "SM3", List.of("1.2.156.10197.1.401", "OID.1.2.156.10197.1.401"),
                        ServiceEntry.PACKAGE + "SM3Digest", Algorithm.SM3, new Engine(Engine.DIGEST)),
                new ServiceEntry("Mac", "HmacSM3", hmacAliases, ServiceEntry.PACKAGE + "HmacSM3", Algorithm.HMAC_SM3,
                        new Engine(Engine.MAC)),
                new ServiceEntry("KeyGenerator", "HmacSM3", hmacAliases, ServiceEntry.PACKAGE + "HmacSM3KeyGenerator",
                        Algorithm.HMAC_SM3, new Engine(Engine.KEY_GENERATOR)),
                new ServiceEntry("SecretKeyFactory", "PBKDF2WithHmacSM3", List.of(),
                        ServiceEntry.PACKAGE + "PBKDF2HmacSM3", Algorithm.PBKDF2_HMAC_SM3, new Engine(Engine.PBKDF2))));
        // None before JDK 25, which brought javax.crypto.KDF.
        services.addAll(KdfEngines.all());
        for (ServiceEntry entry : services) {
            putService(new NativeService(this, entry));
        }
    }

    /**
     * Whether SM3 can be computed here.
     *
     * @return {@code true} when libcrypto was found, gave SM3, and passed the known-answer self-test
     */
    public static boolean isAvailable() {
        return unavailability().isEmpty();
    }

    /**
     * Why SM3 cannot be computed here.
     *
     * @return the reason, with OpenSSL's own error text where there is one; empty when SM3 can be computed
     */
    public static Optional<Exception> unavailability() {
        return Algorithm.SM3.unavailability().map(Exception.class::cast);
    }

    /** Every service, and the libcrypto that computes them (or why none can). */
    private static String info() {
        StringBuilder services = new StringBuilder(
                "SM3 MessageDigest, HmacSM3 Mac and KeyGenerator, PBKDF2WithHmacSM3 SecretKeyFactory");
        for (ServiceEntry kdf : KdfEngines.all()) {
            services.append(", ").append(kdf.name()).append(" KDF");
        }
        try {
            String query = LibCrypto.propertyQuery();
            return services + " from " + LibCrypto.version() + " (" + LibCrypto.path() + ")"
                    + (query == null ? "" : ", properties \"" + query + "\"") + " through the FFM API";
        } catch (LibCryptoUnavailableException e) {
            return services + " from OpenSSL libcrypto through the FFM API (unavailable: " + e.getMessage() + ")";
        }
    }

    private static String libraryVersion() {
        Properties p = new Properties();
        try (InputStream in = SM3Provider.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException ignored) {
            // The version is informative only.
        }
        return p.getProperty("version", "0");
    }

    /**
     * Constructs the engines other than KDFs, which take no constructor parameter, in a switch: a method reference
     * would link its engine class at the provider's construction (see {@link ServiceEntry#PACKAGE}).
     */
    private static final class Engine implements ServiceEntry.EngineConstructor {
        static final int DIGEST = 0;
        static final int MAC = 1;
        static final int KEY_GENERATOR = 2;
        static final int PBKDF2 = 3;

        private final int kind;

        Engine(int kind) {
            this.kind = kind;
        }

        @Override
        public Object create(Object parameter) throws LibCryptoUnavailableException {
            if (parameter != null) {
                throw new InvalidParameterException("constructorParameter not used with these engines");
            }
            return switch (kind) {
                case DIGEST -> new SM3Digest();
                case MAC -> new HmacSM3();
                case KEY_GENERATOR -> new HmacSM3KeyGenerator();
                case PBKDF2 -> new PBKDF2HmacSM3();
                default -> throw new IllegalStateException("no engine " + kind);
            };
        }
    }

    /**
     * A service over libcrypto: refused with the reason its algorithm is unavailable, else constructed
     * directly (no reflection, so no {@code opens} is needed on the module path).
     */
    private static final class NativeService extends Service {
        private final ServiceEntry entry;

        NativeService(Provider provider, ServiceEntry entry) {
            super(provider, entry.type(), entry.name(), entry.className(), entry.aliases(), Map.of());
            this.entry = entry;
        }

        @Override
        public Object newInstance(Object constructorParameter) throws NoSuchAlgorithmException {
            try {
                entry.algorithm().check();
                return entry.constructor().create(constructorParameter);
            } catch (LibCryptoUnavailableException e) {
                throw new NoSuchAlgorithmException(
                        getAlgorithm() + " from " + NAME + " is unavailable: " + e.getMessage(), e);
            } catch (InvalidAlgorithmParameterException e) {
                // As Provider.Service reports a constructor's failure; KDF.getInstance unwraps it.
                throw new NoSuchAlgorithmException("Error constructing implementation (algorithm: " + getAlgorithm()
                        + ", provider: " + NAME + ", class: " + getClassName() + ")", e);
            }
        }
    }
}
