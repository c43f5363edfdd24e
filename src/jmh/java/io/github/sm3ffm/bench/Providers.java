package io.github.sm3ffm.bench;

import com.tencent.kona.crypto.KonaCryptoNativeProvider;
import com.tencent.kona.crypto.KonaCryptoProvider;
import io.github.sm3ffm.SM3Provider;
import java.nio.file.Path;
import java.security.CodeSource;
import java.security.MessageDigestSpi;
import java.security.Provider;
import java.security.Security;
import java.util.Random;
import java.util.ServiceLoader;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/**
 * The implementations compared, by the value of the benchmarks' {@code provider} parameter. Kona ships two
 * providers in one jar: {@code KonaCrypto}, pure Java, and {@code KonaCrypto-Native}, OpenSSL over JNI with a
 * libcrypto of its own. Any other name is looked up among the providers on the class path, which is how a
 * competitor jar given to {@code bench/run --extra-jar} takes part. Each fork creates only the provider it
 * measures, so Kona's libcrypto and the system's never meet in one JVM.
 */
public final class Providers {
    /** This project. */
    public static final String SM3FFM = SM3Provider.NAME;
    /** BouncyCastle, pure Java: the reference every ratio is taken against. */
    public static final String BC = "BC";
    /** Tencent Kona, pure Java. */
    public static final String KONA = "KonaCrypto";
    /** Tencent Kona's OpenSSL over JNI. */
    public static final String KONA_NATIVE = "KonaCrypto-Native";
    /**
     * Not an implementation: an SM3 engine that hashes nothing, alone in a provider. On it, a new digest less a reused
     * one in {@link CallPatternBenchmark} is what the JDK charges every provider (getInstance with its lookup and
     * algorithm-constraint check, the {@code MessageDigest} wrapper, an engine object) on top of reusing a digest.
     */
    public static final String NO_HASH = "NoHash";

    private Providers() {
    }

    /**
     * A new instance of the named implementation, also added to {@code Security}: Kona's pure-Java HmacSM3
     * finds its SM3 through {@code Security.getProvider}. The benchmarks pass the instance to
     * {@code getInstance}, so the provider list is not searched.
     */
    public static Provider create(String name) {
        Provider provider = switch (name) {
            case SM3FFM -> new SM3Provider();
            case BC -> new BouncyCastleProvider();
            case KONA -> new KonaCryptoProvider();
            case KONA_NATIVE -> new KonaCryptoNativeProvider();
            case NO_HASH -> new Provider(NO_HASH, "1", "an SM3 engine that hashes nothing") {
                {
                    // Instantiated without reflection, as sm3-ffm's own services are.
                    putService(new Service(this, "MessageDigest", "SM3", NoHash.class.getName(), null, null) {
                        @Override
                        public Object newInstance(Object constructorParameter) {
                            return new NoHash();
                        }
                    });
                }
            };
            default -> ServiceLoader.load(Provider.class).stream().map(ServiceLoader.Provider::get)
                    .filter(p -> p.getName().equals(name)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("unknown implementation " + name
                            + "; a competitor's jar is given with bench/run --extra-jar"));
        };
        Security.addProvider(provider);
        return provider;
    }

    /** Counts what it is given; the result depends on it so that nothing can be skipped. */
    static final class NoHash extends MessageDigestSpi {
        private long count;

        @Override
        protected void engineUpdate(byte input) {
            count++;
        }

        @Override
        protected void engineUpdate(byte[] input, int offset, int len) {
            count += len;
        }

        @Override
        protected byte[] engineDigest() {
            byte[] out = new byte[32];
            out[0] = (byte) count;
            count = 0;
            return out;
        }

        @Override
        protected void engineReset() {
            count = 0;
        }
    }

    /** {@code size} bytes that are the same in every fork, so every implementation hashes the same input. */
    public static byte[] message(int size) {
        byte[] message = new byte[size];
        new Random(size).nextBytes(message);
        return message;
    }

    /** Prints the names of the JCA providers that the jar named by the argument registers (for bench/run). */
    public static void main(String[] args) throws Exception {
        Path jar = Path.of(args[0]).toRealPath();
        for (ServiceLoader.Provider<Provider> p : ServiceLoader.load(Provider.class).stream().toList()) {
            CodeSource source = p.type().getProtectionDomain().getCodeSource();
            if (source != null && source.getLocation().getProtocol().equals("file")
                    && Path.of(source.getLocation().toURI()).toRealPath().equals(jar)) {
                System.out.println(p.get().getName());
            }
        }
    }
}
