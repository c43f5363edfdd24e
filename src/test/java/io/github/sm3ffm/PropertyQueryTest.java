package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.probe.ProviderProbe;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.junit.jupiter.api.Test;

/** {@code -Dsm3ffm.properties}: an OpenSSL property query that chooses the implementation of every service. */
class PropertyQueryTest {
    private static final byte[] ABC = "abc".getBytes(StandardCharsets.US_ASCII);

    @Test
    void theDefaultProviderServesEveryService() throws Exception {
        String out = run("provider=default");
        assertTrue(out.contains("digest=66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0"), out);
        Mac mac = Mac.getInstance("HmacSM3", new BouncyCastleProvider());
        mac.init(new SecretKeySpec(ABC, "HmacSM3"));
        assertTrue(out.contains("mac=" + HexFormat.of().formatHex(mac.doFinal(ABC))), out);
        byte[] key = SecretKeyFactory.getInstance("PBKDF2WithHmacSM3", new BouncyCastleProvider())
                .generateSecret(new PBEKeySpec("pw".toCharArray(), ABC, 2, 256)).getEncoded();
        assertTrue(out.contains("pbkdf2=" + HexFormat.of().formatHex(key)), out);
        assertTrue(out.contains("properties \"provider=default\""), out);
    }

    @Test
    void anUnknownProviderRefusesEveryServiceWithOpenSslsReason() throws Exception {
        String out = run("provider=mycard");
        for (String service : List.of("digest", "mac", "pbkdf2")) {
            String line = out.lines().filter(l -> l.startsWith(service + "=")).findFirst().orElseThrow();
            assertTrue(line.startsWith(service + "=NoSuchAlgorithmException: "), out);
            assertTrue(line.contains("EVP_MD_fetch(NULL, \"SM3\", \"provider=mycard\") failed: error:"), out);
            assertTrue(line.contains("unsupported"), "OpenSSL's own reason: " + out);
        }
    }

    private static String run(String query) throws Exception {
        ChildJvm.Result r = ChildJvm.run(Map.of(), List.of("-Dsm3ffm.properties=" + query), ProviderProbe.class,
                "every-service");
        assertEquals(0, r.exitCode(), r.output());
        return r.output();
    }
}
