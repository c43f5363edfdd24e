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
import java.security.ProviderException;
import java.security.Security;
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
 * Without the flag, JDK 22 to 25 print a warning; with {@code --illegal-native-access=deny} (JDK 24 and
 * later) the services are unavailable and the reason names the missing flag. The provider looks for
 * OpenSSL 4's libcrypto, then OpenSSL 3's, by their usual file names ({@code libcrypto.so.4},
 * {@code libcrypto.so.3}); {@code -Dsm3ffm.libcrypto.path=FILE} names the one file to load instead.
 *
 * <h2>When OpenSSL cannot serve SM3</h2>
 * Constructing and registering the provider always works, and maps no native library into the process:
 * libcrypto is loaded when one of its services is first used, or when {@link #getInfo()},
 * {@link #isAvailable()} or {@link #unavailability()} is asked (so GraalVM native-image can register the
 * provider at build time, when no native state may enter the image heap). When libcrypto or its SM3 cannot be
 * used, {@code MessageDigest.getInstance("SM3", "SM3FFM")} throws {@link NoSuchAlgorithmException} whose cause
 * says why, and a provider-less {@code getInstance("SM3")} moves on to the next provider.
 *
 * <h2>Start-up checks</h2>
 * An application that must compute with OpenSSL, never with a provider further down the list, can say so at
 * start-up:
 * {@snippet :
 * SM3Provider.install();          // SM3FFM first, before every JDK provider; idempotent
 * SM3Provider.assertAvailable();  // ProviderException with the reason, if OpenSSL cannot serve SM3
 * if (!SM3Provider.isAvailable()) { ... }  // or decide without an exception
 * }
 * With {@code -Dsm3ffm.required=true}, or the security property {@code sm3ffm.required=true} (in a file given
 * with {@code -Djava.security.properties=FILE}, such as {@code docs/sm3ffm.security}, which puts SM3FFM first
 * and keeps every JDK provider), a JCA call that reaches SM3FFM's service while OpenSSL cannot serve it throws
 * {@link ProviderException} saying so, with the reason as its cause, instead of moving on to the next provider;
 * {@code Mac} included, which would otherwise move on at {@code init}. The property does not reorder
 * providers: a provider registered ahead of SM3FFM serves the algorithm as before.
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
     * System and security property: {@code true} makes a lookup of SM3FFM's services fail with the reason
     * when OpenSSL cannot serve them, instead of letting the JCA move on to the next provider.
     */
    public static final String REQUIRED_PROPERTY = "sm3ffm.required";

    private static final String INFO_PROPERTY = "Provider.id info";
    private static final Object INSTALL_LOCK = new Object();

    /**
     * Constructs the provider and registers its services with it, without loading libcrypto: that waits
     * for the first use of a service. When it cannot be loaded then, its services say why they are
     * unavailable.
     */
    public SM3Provider() {
        super(NAME, libraryVersion(), services() + " from OpenSSL libcrypto through the FFM API");
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

    /**
     * Puts SM3FFM first in the JVM's provider list, ahead of every JDK provider: registers it at position 1,
     * moves it there when it is registered further down, and does nothing when it is first already. Safe to
     * call from several threads and more than once.
     */
    public static void install() {
        synchronized (INSTALL_LOCK) {
            Provider[] providers = Security.getProviders();
            if (providers.length > 0 && providers[0].getName().equals(NAME)) {
                return;
            }
            Provider registered = Security.getProvider(NAME);
            if (registered != null) {
                Security.removeProvider(NAME);
            }
            Security.insertProviderAt(registered != null ? registered : new SM3Provider(), 1);
        }
    }

    /**
     * Fails unless SM3 can be computed here: a start-up check for applications that must not run without it.
     *
     * @throws ProviderException whose message is the reason, with {@link #unavailability()}'s exception as
     *         its cause
     */
    public static void assertAvailable() {
        Optional<Exception> reason = unavailability();
        if (reason.isPresent()) {
            throw new ProviderException(reason.get().getMessage(), reason.get());
        }
    }

    /**
     * Every service, and the libcrypto that computes them, or why none can. Loads libcrypto if no service
     * has loaded it yet.
     */
    @Override
    public String getInfo() {
        try {
            String query = LibCrypto.propertyQuery();
            return services() + " from " + LibCrypto.version() + " (" + LibCrypto.path() + ")"
                    + (query == null ? "" : ", properties \"" + query + "\"") + " through the FFM API";
        } catch (LibCryptoUnavailableException e) {
            return super.getInfo() + " (unavailable: " + e.getMessage() + ")";
        }
    }

    // The JDK stores the info given to the constructor under this key; the one that names the library is known
    // only once it is loaded.
    @Override
    public Object get(Object key) {
        return INFO_PROPERTY.equals(key) ? getInfo() : super.get(key);
    }

    @Override
    public String getProperty(String key) {
        return INFO_PROPERTY.equals(key) ? getInfo() : super.getProperty(key);
    }

    /**
     * The service, as {@link Provider#getService} finds it; when {@value #REQUIRED_PROPERTY} is set and OpenSSL
     * cannot serve it, a {@link ProviderException} with the reason, so that the JCA, which moves on to the next
     * provider only while lookups succeed, stops here.
     */
    @Override
    public Service getService(String type, String algorithm) {
        Service service = super.getService(type, algorithm);
        if (service instanceof NativeService nativeService && Required.VALUE) {
            Optional<LibCryptoUnavailableException> reason = nativeService.entry.algorithm().unavailability();
            if (reason.isPresent()) {
                throw new ProviderException(NAME + " is required (" + REQUIRED_PROPERTY + "=true) but cannot serve "
                        + type + " " + service.getAlgorithm() + ": " + reason.get().getMessage(), reason.get());
            }
        }
        return service;
    }

    /** Whether {@value #REQUIRED_PROPERTY} is true, as a system property or else as a security property; read once. */
    private static final class Required {
        static final boolean VALUE = Boolean.parseBoolean(Optional.ofNullable(System.getProperty(REQUIRED_PROPERTY))
                .orElseGet(() -> Security.getProperty(REQUIRED_PROPERTY)));
    }

    /** The services, by name and type. */
    private static String services() {
        StringBuilder services = new StringBuilder(
                "SM3 MessageDigest, HmacSM3 Mac and KeyGenerator, PBKDF2WithHmacSM3 SecretKeyFactory");
        for (ServiceEntry kdf : KdfEngines.all()) {
            services.append(", ").append(kdf.name()).append(" KDF");
        }
        return services.toString();
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
