package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.internal.libcrypto.KeyedServicesProbe;
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
            assertTrue(out.contains(service + " cause: io.github.sm3ffm.internal.libcrypto.LibCryptoUnavailableException"), out);
        }
        assertTrue(out.contains("EVP_MD_fetch(NULL, \"SM3\", NULL) failed"), out);
        assertTrue(out.contains("Mac without a provider: InvalidKeyException"), out);
        assertTrue(out.contains("SecretKeyFactory without a provider: NoSuchAlgorithmException"), out);
        assertTrue(out.contains(SHA256_ABC), "the JVM keeps working:\n" + out);
        assertFalse(out.contains("Exception in thread"), out);
    }

    @Test
    void abandonedMacsAndClonesGiveTheirNativeMemoryBack() throws Exception {
        // Four rounds of 150,000 Macs and 150,000 clones. The resident set is only reported: it keeps the
        // high-water mark of the Cleaner's backlog, which on a loaded machine swings by hundreds of MiB.
        // The count of contexts not yet freed is exact: a leak would leave 1,200,000.
        ChildJvm.Result r = ChildJvm.run(Map.of(), List.of("-Xmx256m"), KeyedServicesProbe.class, "leak", "150000");
        String out = r.output();
        assertEquals(0, r.exitCode(), out);
        long live = MisuseAndLifetimeTest.value(out, "liveContextsAfterCleanup=");
        System.out.printf("Leak check: 4 x 150,000 keyed Macs and clones abandoned; RSS grew %d MiB over the last"
                + " two rounds; %d contexts left after cleanup%n",
                MisuseAndLifetimeTest.value(out, "rssGrowthKiB=") >> 10, live);
        assertTrue(live < 100, out);
    }
}
