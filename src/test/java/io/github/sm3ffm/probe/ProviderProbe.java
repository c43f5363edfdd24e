package io.github.sm3ffm.probe;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.Security;
import java.util.HexFormat;
import java.util.ServiceLoader;

/**
 * Child-JVM entry point that registers and uses the provider the way a user would. Lives outside the
 * library's package so that it also runs from the class path while the library is on the module path.
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
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    private static void report(MessageDigest md) throws Exception {
        System.out.println("provider=" + md.getProvider().getName());
        System.out.println("sm3=" + HexFormat.of().formatHex(md.digest("abc".getBytes("US-ASCII"))));
    }
}
