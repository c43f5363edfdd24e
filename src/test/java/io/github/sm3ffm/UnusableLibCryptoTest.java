package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.sm3ffm.probe.ProviderProbe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A libcrypto that cannot serve SM3, named by {@code -Dsm3ffm.libcrypto.path}: every service is refused with
 * {@code NoSuchAlgorithmException} and the reason, and the JVM goes on. The FIPS-only configuration is tested
 * in {@code LibCryptoTest} with the system's library; the two libraries here are not on a user's machine, so
 * these cases run when the build is given them:
 * {@code mvn verify -Dsm3ffm.test.openssl11=/path/libcrypto.so.1.1 -Dsm3ffm.test.nosm3=/path/libcrypto.so.3}
 * (an OpenSSL 1.1 library, and an OpenSSL 3 built with {@code no-sm3}), and are skipped otherwise.
 */
class UnusableLibCryptoTest {
    @Test
    void openSsl11IsRefusedForItsVersion() throws Exception {
        String out = everyService(library("sm3ffm.test.openssl11"));
        assertRefused(out, "; OpenSSL 3.0 or later is required");
        assertTrue(out.contains("OpenSSL version number 0x1010"), out);
    }

    @Test
    void aBuildWithoutSm3IsRefusedWithOpenSslsReason() throws Exception {
        String out = everyService(library("sm3ffm.test.nosm3"));
        assertRefused(out, "cannot give SM3: EVP_MD_fetch(NULL, \"SM3\", NULL) failed: error:");
    }

    private static Path library(String property) {
        String path = System.getProperty(property, "");
        assumeTrue(!path.isBlank(), property + " names no library");
        Path file = Path.of(path);
        assertTrue(Files.isRegularFile(file), property + "=" + path + " is not a file");
        return file;
    }

    private static String everyService(Path library) throws Exception {
        ChildJvm.Result r = ChildJvm.run(Map.of(), List.of("-Dsm3ffm.libcrypto.path=" + library),
                ProviderProbe.class, "every-service");
        assertEquals(0, r.exitCode(), r.output());
        System.out.println(r.output().lines().filter(l -> l.startsWith("digest=")).findFirst().orElse(""));
        return r.output();
    }

    private static void assertRefused(String out, String reason) {
        for (String service : List.of("digest", "mac", "pbkdf2")) {
            String line = out.lines().filter(l -> l.startsWith(service + "=")).findFirst().orElseThrow();
            assertTrue(line.startsWith(service + "=NoSuchAlgorithmException: "), out);
            assertTrue(line.contains(reason), reason + " not in\n" + out);
        }
        assertTrue(out.lines().anyMatch(l -> l.startsWith("info=") && l.contains("unavailable")), out);
    }
}
