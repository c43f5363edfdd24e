package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.probe.KeyedServicesProbe;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** HmacSM3 and PBKDF2WithHmacSM3 where OpenSSL cannot serve them, and native memory over many instances. */
class KeyedServicesLifetimeTest {
    private static final String SHA256_ABC = "sha256=ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

    @Test
    void withoutSm3EveryServiceIsRefusedWithTheReason() throws Exception {
        ChildJvm.Result r = ChildJvm.run(
                Map.of("OPENSSL_CONF", ChildJvm.vectors().resolve("base-only.cnf").toString()), List.of(),
                KeyedServicesProbe.class, "services");
        String out = r.output();
        assertEquals(0, r.exitCode(), out);
        for (String service : List.of("Mac", "KeyGenerator", "SecretKeyFactory")) {
            String algorithm = service.equals("SecretKeyFactory") ? "PBKDF2WithHmacSM3" : "HmacSM3";
            assertTrue(out.contains(service + ": NoSuchAlgorithmException: " + algorithm
                    + " from SM3FFM is unavailable: "), out);
            assertTrue(out.contains(service + " cause: io.github.sm3ffm.internal.LibCryptoUnavailableException"), out);
        }
        assertTrue(out.contains("EVP_MD_fetch(NULL, \"SM3\", NULL) failed"), out);
        assertTrue(out.contains("Mac without a provider: InvalidKeyException"), out);
        assertTrue(out.contains("SecretKeyFactory without a provider: NoSuchAlgorithmException"), out);
        assertTrue(out.contains(SHA256_ABC), "the JVM keeps working:\n" + out);
        assertFalse(out.contains("Exception in thread"), out);
    }

    @Test
    void abandonedMacsAndClonesGiveTheirNativeMemoryBack() throws Exception {
        // Four rounds of 200,000 Macs and 200,000 clones, over 1 KiB of native memory each: a leak would
        // add over 400 MiB per round; without one, rounds 2 to 4 reuse what round 1 left in malloc's arenas.
        ChildJvm.Result r = ChildJvm.run(Map.of(), List.of("-Xmx64m"), KeyedServicesProbe.class, "leak", "200000");
        String out = r.output();
        assertEquals(0, r.exitCode(), out);
        String line = out.lines().filter(l -> l.startsWith("rssGrowthKiB=")).findFirst().orElseThrow();
        long growth = Long.parseLong(line.substring("rssGrowthKiB=".length()));
        System.out.printf("Leak check: 4 x 200,000 keyed Macs and clones abandoned; RSS grew %d MiB over the last"
                + " two rounds%n", growth >> 10);
        assertTrue(growth < 200 * 1024, out);
    }
}
