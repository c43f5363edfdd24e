package io.github.sm3ffm.bench;

import com.tencent.kona.crypto.KonaCryptoNativeProvider;
import com.tencent.kona.crypto.KonaCryptoProvider;
import io.github.sm3ffm.SM3Provider;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.Security;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.ServiceLoader;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/**
 * The implementations compared, by the value of the benchmarks' {@code provider} parameter, and the probe
 * that tells which of them work on this machine and which services each offers.
 *
 * <p>Kona 1.0.19 ships its implementations as separate providers in one jar: {@code KonaCrypto}, pure Java,
 * and {@code KonaCrypto-Native}, OpenSSL over JNI with a libcrypto of its own (OpenSSL 3.5.0, extracted from
 * its jar). Any other name is looked up among the providers on the class path ({@link ServiceLoader}), which
 * is how a competitor jar given to {@code bench/run --extra-jar} takes part. Each fork creates only the
 * provider it measures, so Kona's libcrypto and the system's never meet in one JVM.
 */
public final class Providers {
    /** This project. */
    public static final String SM3FFM = SM3Provider.NAME;
    /** BouncyCastle, pure Java. */
    public static final String BC = "BC";
    /** Tencent Kona, pure Java. */
    public static final String KONA = "KonaCrypto";
    /** Tencent Kona's OpenSSL over JNI. */
    public static final String KONA_NATIVE = "KonaCrypto-Native";
    /** GlaSSLess, OpenSSL through FFM, when its jar is given (it is on no public repository). */
    public static final String GLASSLESS = "GlaSSLess";
    /** The implementations measured unless told otherwise. */
    public static final List<String> ALL = List.of(SM3FFM, BC, KONA, KONA_NATIVE);

    public static final String DIGEST = "MessageDigest.SM3";
    public static final String HMAC = "Mac.HmacSM3";
    public static final String PBKDF2 = "SecretKeyFactory.PBKDF2WithHmacSM3";
    private static final List<String> SERVICES = List.of(DIGEST, HMAC, PBKDF2);

    private Providers() {
    }

    /**
     * A new instance of the named implementation, also added to {@code Security} (last, when no provider of
     * that name is there yet) as each one's documentation asks: Kona's pure-Java HmacSM3, for one, finds its
     * SM3 through {@code Security.getProvider("KonaCrypto")}. The benchmarks pass the instance to
     * {@code getInstance}, so the provider list is not searched.
     */
    public static Provider create(String name) {
        Provider provider = switch (name) {
            case SM3FFM -> new SM3Provider();
            case BC -> new BouncyCastleProvider();
            case KONA -> new KonaCryptoProvider();
            case KONA_NATIVE -> new KonaCryptoNativeProvider();
            default -> ServiceLoader.load(Provider.class).stream().map(ServiceLoader.Provider::get)
                    .filter(p -> p.getName().equals(name)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("unknown implementation " + name + "; known: "
                            + ALL + " and the providers of jars given with --extra-jar"));
        };
        Security.addProvider(provider);
        return provider;
    }

    /** Whether {@code provider} offers {@code service}, written {@code Type.Algorithm}. */
    public static boolean offers(Provider provider, String service) {
        int dot = service.indexOf('.');
        return provider.getService(service.substring(0, dot), service.substring(dot + 1)) != null;
    }

    /** {@code size} bytes that are the same in every fork, so every implementation hashes the same input. */
    public static byte[] message(int size) {
        byte[] message = new byte[size];
        new Random(size).nextBytes(message);
        return message;
    }

    /** The shared libraries with "crypto" in their name that this process has mapped (Linux only). */
    private static List<String> loadedCryptoLibraries() throws IOException {
        Path maps = Path.of("/proc/self/maps");
        if (!Files.isReadable(maps)) {
            return List.of();
        }
        try (var lines = Files.lines(maps)) {
            return lines.map(line -> line.substring(line.lastIndexOf(' ') + 1))
                    .filter(file -> file.startsWith("/") && file.contains(".so") && file.toLowerCase().contains("crypto"))
                    .distinct().toList();
        }
    }

    /**
     * Probes one implementation in this JVM and prints {@code key=value} lines: {@code status} (available
     * or unavailable), {@code reason}, {@code version}, {@code info}, {@code services}, {@code source} (its jar or
     * directory) and {@code libraries} (the native crypto libraries then mapped). Available means
     * its SM3 gives the GB/T 32905-2016 answer for "abc".
     */
    public static void main(String[] args) {
        String name = args[0];
        List<String> lines = new ArrayList<>();
        try {
            Provider provider = create(name);
            byte[] abc = MessageDigest.getInstance("SM3", provider).digest("abc".getBytes(StandardCharsets.US_ASCII));
            byte[] expected = HexFormat.of().parseHex("66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0");
            if (!Arrays.equals(abc, expected)) {
                throw new IllegalStateException("SM3(\"abc\") gave " + HexFormat.of().formatHex(abc));
            }
            lines.add("status=available");
            lines.add("version=" + provider.getVersionStr());
            lines.add("info=" + provider.getInfo());
            lines.add("services=" + String.join(",", SERVICES.stream().filter(s -> offers(provider, s)).toList()));
            lines.add("source=" + Path.of(provider.getClass().getProtectionDomain().getCodeSource().getLocation().toURI())
                    .getFileName());
            lines.add("libraries=" + String.join(",", loadedCryptoLibraries()));
        } catch (Throwable e) {
            lines.add("status=unavailable");
            StringBuilder reason = new StringBuilder(e.toString());
            for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
                reason.append("; caused by ").append(c);
            }
            lines.add("reason=" + reason);
        }
        lines.forEach(line -> System.out.println(line.replace('\n', ' ')));
    }
}
