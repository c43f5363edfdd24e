package io.github.sm3ffm.internal.libcrypto;

import java.security.MessageDigest;
import java.util.HexFormat;

/** Child-JVM entry point: prints what the loader concluded, then proves the JVM still works. */
public final class LoaderProbe {
    private LoaderProbe() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("available=" + LibCrypto.isAvailable());
        LibCrypto.loadingError().ifPresent(e -> System.out.println("error=" + e.getMessage()));
        if (LibCrypto.isAvailable()) {
            System.out.println("version=" + LibCrypto.version());
            System.out.println("path=" + LibCrypto.path());
        }
        // Asking twice must give the same recorded answer, not a new attempt or an Error.
        System.out.println("again=" + LibCrypto.isAvailable());
        byte[] sha = MessageDigest.getInstance("SHA-256").digest("abc".getBytes("US-ASCII"));
        System.out.println("sha256=" + HexFormat.of().formatHex(sha));
    }
}
