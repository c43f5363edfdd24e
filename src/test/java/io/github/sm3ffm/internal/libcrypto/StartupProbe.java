package io.github.sm3ffm.internal.libcrypto;

import io.github.sm3ffm.SM3Provider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.Security;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.crypto.KDF;
import javax.crypto.KeyGenerator;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.HKDFParameterSpec;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Child-JVM entry point for what happens at a program's start: registration without native state, the
 * start-up checks, and the JCA's choice of provider when SM3FFM is required. Prints one fact a line.
 */
public final class StartupProbe {
    private static final byte[] ABC = {'a', 'b', 'c'};

    private StartupProbe() {
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "lazy" -> {
                SM3Provider provider = new SM3Provider();
                System.out.println("constructed=" + libCryptoMapped());
                Security.addProvider(provider);
                System.out.println("added=" + libCryptoMapped());
                Security.removeProvider(SM3Provider.NAME);
                Security.insertProviderAt(provider, 1);
                // Every lookup of the JDK's own algorithms asks SM3FFM first now.
                MessageDigest.getInstance("SHA-256").digest(ABC);
                System.out.println("inserted-first=" + libCryptoMapped());
                MessageDigest.getInstance("SM3").digest(ABC);
                System.out.println("digested=" + libCryptoMapped());
            }
            case "info-first" -> {
                SM3Provider provider = new SM3Provider();
                Security.addProvider(provider);
                System.out.println("info=" + provider.getInfo());
                System.out.println("info-property=" + provider.getProperty("Provider.id info"));
                System.out.println("info-get=" + provider.get("Provider.id info"));
                System.out.println("version=" + provider.getVersionStr());
                System.out.println("available=" + SM3Provider.isAvailable());
            }
            case "providers" -> {
                System.out.println("providers=" + names());
                System.out.println("sha256=" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(ABC)));
                System.out.println("sha256-provider=" + MessageDigest.getInstance("SHA-256").getProvider().getName());
                System.out.println("sm3-provider=" + (Security.getProviders("MessageDigest.SM3") == null ? "none"
                        : MessageDigest.getInstance("SM3").getProvider().getName()));
            }
            case "install" -> install();
            case "assert-available" -> {
                try {
                    SM3Provider.assertAvailable();
                    System.out.println("assert=passed");
                } catch (java.security.ProviderException e) {
                    Exception reason = SM3Provider.unavailability().orElseThrow();
                    System.out.println("assert=" + e.getMessage());
                    System.out.println("cause-is-unavailability=" + (e.getCause() == reason));
                    System.out.println("message-is-reason=" + e.getMessage().equals(reason.getMessage()));
                }
            }
            case "services" -> {
                // args: the order ("sm3ffm-first" or "bc-first"), then the services to use.
                Provider sm3ffm = new SM3Provider();
                Provider bc = new org.bouncycastle.jce.provider.BouncyCastleProvider();
                boolean bcFirst = args[1].equals("bc-first");
                Security.insertProviderAt(bcFirst ? bc : sm3ffm, 1);
                Security.insertProviderAt(bcFirst ? sm3ffm : bc, 2);
                for (String service : Arrays.copyOfRange(args, 2, args.length)) {
                    use(service);
                }
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    /** Whether this process has mapped a file named libcrypto, as the kernel lists it. */
    private static boolean libCryptoMapped() throws Exception {
        return Files.readAllLines(Path.of("/proc/self/maps")).stream().anyMatch(l -> l.contains("libcrypto"));
    }

    private static List<String> names() {
        return Arrays.stream(Security.getProviders()).map(Provider::getName).toList();
    }

    private static void install() throws Exception {
        List<String> jdk = names();
        SM3Provider.install();
        Provider installed = Security.getProviders()[0];
        SM3Provider.install();
        System.out.println("fresh=" + names().equals(concat(jdk)) + " again-same=" + (Security.getProviders()[0] == installed));

        Security.removeProvider(SM3Provider.NAME);
        Provider last = new SM3Provider();
        Security.addProvider(last);
        SM3Provider.install();
        System.out.println("moved=" + names().equals(concat(jdk)) + " moved-same=" + (Security.getProviders()[0] == last));

        Security.removeProvider(SM3Provider.NAME);
        int threads = 8;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Callable<Void>> calls = java.util.Collections.nCopies(threads, () -> {
                start.await();
                SM3Provider.install();
                return null;
            });
            List<Future<Void>> done = calls.stream().map(pool::submit).toList();
            start.countDown();
            for (Future<Void> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        System.out.println("concurrent=" + names().equals(concat(jdk)));
        System.out.println("providers=" + names());
    }

    private static List<String> concat(List<String> jdk) {
        return java.util.stream.Stream.concat(java.util.stream.Stream.of(SM3Provider.NAME), jdk.stream()).toList();
    }

    /** Uses a service through the JCA, naming no provider; prints who served it, or what was thrown and why. */
    private static void use(String service) {
        try {
            Provider servedBy = switch (service) {
                case "MessageDigest" -> {
                    MessageDigest md = MessageDigest.getInstance("SM3");
                    md.digest(ABC);
                    yield md.getProvider();
                }
                case "Mac" -> {
                    Mac mac = Mac.getInstance("HmacSM3");
                    mac.init(new SecretKeySpec(ABC, "HmacSM3"));
                    mac.doFinal(ABC);
                    yield mac.getProvider();
                }
                case "KeyGenerator" -> {
                    KeyGenerator generator = KeyGenerator.getInstance("HmacSM3");
                    generator.generateKey();
                    yield generator.getProvider();
                }
                case "SecretKeyFactory" -> {
                    SecretKeyFactory factory = SecretKeyFactory.getInstance("PBKDF2WithHmacSM3");
                    factory.generateSecret(new PBEKeySpec("pw".toCharArray(), ABC, 2, 256));
                    yield factory.getProvider();
                }
                case "HKDF-SM3", "X963KDF-SM3" -> {
                    KDF kdf = KDF.getInstance(service);
                    kdf.deriveData(service.startsWith("HKDF") ? HKDFParameterSpec.ofExtract().addIKM(ABC).extractOnly()
                            : new io.github.sm3ffm.X963KDFParameterSpec(new SecretKeySpec(ABC, "Generic"), ABC, 32));
                    yield kdf.getProviderName() == null ? null : Security.getProvider(kdf.getProviderName());
                }
                default -> throw new IllegalArgumentException(service);
            };
            System.out.println(service + "=served by " + servedBy.getName());
        } catch (Exception e) {
            Throwable cause = e.getCause();
            System.out.println(service + "=" + e.getClass().getName() + ": " + e.getMessage() + " | cause="
                    + (cause == null ? "none" : cause.getClass().getSimpleName() + ": " + cause.getMessage()));
        }
    }
}
