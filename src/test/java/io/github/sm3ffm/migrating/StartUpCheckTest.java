package io.github.sm3ffm.migrating;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.ChildJvm;
import io.github.sm3ffm.SM3Provider;
import java.security.MessageDigest;
import java.security.Security;
import java.util.List;
import java.util.Map;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.junit.jupiter.api.Test;

/**
 * docs/migrating.md, "Check at start-up": without a usable libcrypto a provider-less {@code getInstance("SM3")} moves
 * on to BouncyCastle without a word, so a service that must hash with OpenSSL checks once at start-up. Run in a
 * child JVM pointed at a file that is no libcrypto.
 */
class StartUpCheckTest {
    /** The service's start: SM3FFM first, BouncyCastle behind it, then the check the page recommends. */
    public static void main(String[] args) throws Exception {
        Security.insertProviderAt(new SM3Provider(), 1);
        Security.addProvider(new BouncyCastleProvider());
        System.out.println("served by " + MessageDigest.getInstance("SM3").getProvider().getName());
        if (!SM3Provider.isAvailable()) {
            System.out.println("unavailable: " + SM3Provider.unavailability().orElseThrow().getMessage());
            System.exit(3);
        }
    }

    @Test
    void withOpenSslTheFirstSm3IsSm3ffmAndTheCheckPasses() throws Exception {
        ChildJvm.Result result = ChildJvm.run(Map.of(), List.of(), StartUpCheckTest.class);
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.output().contains("served by SM3FFM"), result.output());
    }

    @Test
    void withoutOpenSslBouncyCastleServesSilentlyAndOnlyTheCheckTells() throws Exception {
        ChildJvm.Result result = ChildJvm.run(Map.of(), List.of("-Dsm3ffm.libcrypto.path=/nonexistent/libcrypto.so.3"),
                StartUpCheckTest.class);
        assertEquals(3, result.exitCode(), result.output());
        assertTrue(result.output().contains("served by BC"), result.output());
        assertTrue(result.output().contains("unavailable: "), result.output());
    }
}
