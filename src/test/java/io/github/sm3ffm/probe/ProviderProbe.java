package io.github.sm3ffm.probe;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.Security;
import java.util.HexFormat;
import java.util.ServiceLoader;

/**
 * Child-JVM entry point that registers and uses the provider the way a user would. Lives outside the
 * library's packages, unlike the other probes (internal.libcrypto): it also runs from the class path while the
 * library is on the module path, where the module's packages hide the class path's classes of the same package.
 */
public final class ProviderProbe {
    private ProviderProbe() {
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "configured" -> {
                // Registered by a security.provider.N line only.
                report(MessageDigest.getInstance("SM3"));
            }
            case "service-loader" -> {
                Provider p = ServiceLoader.load(Provider.class).stream().map(ServiceLoader.Provider::get)
                        .filter(x -> x.getName().equals("SM3FFM")).findFirst().orElseThrow();
                System.out.println("module=" + p.getClass().getModule().getName());
                Security.addProvider(p);
                report(MessageDigest.getInstance("SM3", "SM3FFM"));
            }
            case "unavailable" -> {
                Provider p = ServiceLoader.load(Provider.class).stream().map(ServiceLoader.Provider::get)
                        .filter(x -> x.getName().equals("SM3FFM")).findFirst().orElseThrow();
                System.out.println("added=" + (Security.addProvider(p) > 0));
                System.out.println("info=" + p.getInfo());
                try {
                    MessageDigest.getInstance("SM3", "SM3FFM");
                    System.out.println("nsae=none");
                } catch (NoSuchAlgorithmException e) {
                    System.out.println("nsae=" + e.getMessage());
                    System.out.println("cause=" + e.getCause().getClass().getSimpleName() + ": "
                            + e.getCause().getMessage());
                }
                System.out.println("sha256=" + HexFormat.of().formatHex(
                        MessageDigest.getInstance("SHA-256").digest("abc".getBytes("US-ASCII"))));
                Security.addProvider(new org.bouncycastle.jce.provider.BouncyCastleProvider());
                report(MessageDigest.getInstance("SM3"));
            }
            case "names" -> {
                // Every name of the digest, through the JCA's checks (jdk.crypto.disabledAlgorithms).
                Security.addProvider(new io.github.sm3ffm.SM3Provider());
                for (String name : new String[] {"SM3", "1.2.156.10197.1.401", "OID.1.2.156.10197.1.401"}) {
                    try {
                        MessageDigest.getInstance(name);
                        System.out.println(name + ": allowed");
                    } catch (NoSuchAlgorithmException e) {
                        System.out.println(name + ": " + e.getMessage());
                    }
                }
            }
            case "every-service" -> {
                // Each service of the provider, used once, or the reason it is refused.
                Provider p = new io.github.sm3ffm.SM3Provider();
                System.out.println("info=" + p.getInfo());
                byte[] abc = "abc".getBytes("US-ASCII");
                line("digest", () -> MessageDigest.getInstance("SM3", p).digest(abc));
                line("mac", () -> {
                    javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSM3", p);
                    mac.init(new javax.crypto.spec.SecretKeySpec(abc, "HmacSM3"));
                    return mac.doFinal(abc);
                });
                line("pbkdf2", () -> javax.crypto.SecretKeyFactory.getInstance("PBKDF2WithHmacSM3", p)
                        .generateSecret(new javax.crypto.spec.PBEKeySpec("pw".toCharArray(), abc, 2, 256)).getEncoded());
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    private static void line(String what, java.util.concurrent.Callable<byte[]> use) {
        try {
            System.out.println(what + "=" + HexFormat.of().formatHex(use.call()));
        } catch (Exception e) {
            System.out.println(what + "=" + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private static void report(MessageDigest md) throws Exception {
        System.out.println("provider=" + md.getProvider().getName());
        System.out.println("sm3=" + HexFormat.of().formatHex(md.digest("abc".getBytes("US-ASCII"))));
    }
}
