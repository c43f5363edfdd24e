package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.internal.libcrypto.StartupProbe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sm3ffm.required=true}: with SM3FFM registered first, BouncyCastle after it, and a libcrypto that cannot
 * serve, every JCA call naming no provider fails with the reason instead of being served by BouncyCastle; the
 * property does not reorder providers, so BouncyCastle ahead of SM3FFM serves as before. Each in a child JVM
 * (the property is read once per JVM). The KDFs, which only the packaged jar offers, are in {@code RequiredKdfIT}.
 */
class RequiredTest {
    static final String UNUSABLE = "-Dsm3ffm.libcrypto.path=/nonexistent/libcrypto.so.3";
    static final String REASON = "OpenSSL 3 libcrypto with SM3 is unavailable; tried sm3ffm.libcrypto.path="
            + "/nonexistent/libcrypto.so.3: no such file";
    private static final List<String> SERVICES = List.of("MessageDigest", "Mac", "KeyGenerator", "SecretKeyFactory");

    static String services(List<String> jvmArgs, String order, List<String> services) throws Exception {
        List<String> args = new ArrayList<>(List.of("services", order));
        args.addAll(services);
        ChildJvm.Result r = ChildJvm.run(Map.of(), jvmArgs, StartupProbe.class, args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.output());
        return r.output();
    }

    /** The line of each service names the exception that reached the user: SM3FFM's refusal with its reason. */
    static void assertRefused(String out, List<String> services) {
        for (String service : services) {
            String algorithm = service.equals("MessageDigest") ? "SM3"
                    : service.equals("SecretKeyFactory") ? "PBKDF2WithHmacSM3"
                    : service.startsWith("HKDF") || service.startsWith("X963") ? service : "HmacSM3";
            String type = service.contains("KDF") ? "KDF" : service;
            assertTrue(out.contains(service + "=java.security.ProviderException: SM3FFM is required (sm3ffm.required="
                    + "true) but cannot serve " + type + " " + algorithm + ": " + REASON
                    + " | cause=LibCryptoUnavailableException: " + REASON + "\n"), service + " in\n" + out);
        }
    }

    @Test
    void withoutThePropertyTheNextProviderServes() throws Exception {
        String out = services(List.of(UNUSABLE), "sm3ffm-first", SERVICES);
        for (String service : SERVICES) {
            assertTrue(out.contains(service + "=served by BC\n"), service + " in\n" + out);
        }
    }

    @Test
    void theSystemPropertyStopsEveryServiceAtSm3ffm() throws Exception {
        assertRefused(services(List.of(UNUSABLE, "-Dsm3ffm.required=true"), "sm3ffm-first", SERVICES), SERVICES);
    }

    @Test
    void theSecurityPropertyStopsEveryServiceAtSm3ffm(@TempDir Path dir) throws Exception {
        Path security = dir.resolve("required.security");
        Files.writeString(security, "sm3ffm.required=true\n");
        String out = services(List.of(UNUSABLE, "-Djava.security.properties=" + security), "sm3ffm-first", SERVICES);
        assertRefused(out, SERVICES);
    }

    @Test
    void theSystemPropertyOverridesTheSecurityProperty(@TempDir Path dir) throws Exception {
        Path security = dir.resolve("required.security");
        Files.writeString(security, "sm3ffm.required=true\n");
        String out = services(List.of(UNUSABLE, "-Djava.security.properties=" + security, "-Dsm3ffm.required=false"),
                "sm3ffm-first", List.of("Mac"));
        assertTrue(out.contains("Mac=served by BC\n"), out);
    }

    @Test
    void thePropertyDoesNotReorderProvidersSoBouncyCastleAheadServes() throws Exception {
        String out = services(List.of(UNUSABLE, "-Dsm3ffm.required=true"), "bc-first", SERVICES);
        for (String service : SERVICES) {
            assertTrue(out.contains(service + "=served by BC\n"), service + " in\n" + out);
        }
    }

    @Test
    void aUsableSm3ffmServesWithThePropertySet() throws Exception {
        String out = services(List.of("-Dsm3ffm.required=true"), "sm3ffm-first", SERVICES);
        for (String service : SERVICES) {
            assertTrue(out.contains(service + "=served by SM3FFM\n"), service + " in\n" + out);
        }
    }
}
