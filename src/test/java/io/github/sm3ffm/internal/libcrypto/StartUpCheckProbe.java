package io.github.sm3ffm.internal.libcrypto;

import io.github.sm3ffm.SM3Provider;
import java.security.MessageDigest;
import java.security.Security;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/**
 * StartUpCheckTest's child JVM, a service's start as docs/migrating.md ("Check at start-up") has it: SM3FFM first,
 * BouncyCastle behind it, then the check the page recommends. Public API only. Exits 3 if the check fails.
 */
public final class StartUpCheckProbe {
    private StartUpCheckProbe() {
    }

    public static void main(String[] args) throws Exception {
        Security.insertProviderAt(new SM3Provider(), 1);
        Security.addProvider(new BouncyCastleProvider());
        System.out.println("served by " + MessageDigest.getInstance("SM3").getProvider().getName());
        if (!SM3Provider.isAvailable()) {
            System.out.println("unavailable: " + SM3Provider.unavailability().orElseThrow().getMessage());
            System.exit(3);
        }
    }
}
