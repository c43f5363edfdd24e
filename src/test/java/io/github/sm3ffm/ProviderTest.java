package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.internal.libcrypto.LibCrypto;
import io.github.sm3ffm.probe.ProviderProbe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.InvalidParameterException;
import java.security.Provider;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Registration every way users do it, and the provider's behaviour when OpenSSL cannot give SM3. */
class ProviderTest {
    private static final String SM3_ABC = "sm3=66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0";

    @Test
    void describesItselfAndTheOpenSslInUse() throws Exception {
        SM3Provider p = new SM3Provider();
        assertEquals("SM3FFM", p.getName());
        assertEquals(System.getProperty("sm3ffm.project.version"), p.getVersionStr());
        assertTrue(p.getInfo().contains(LibCrypto.version()), p.getInfo());
        for (String service : List.of("SM3 MessageDigest", "HmacSM3 Mac", "KeyGenerator", "PBKDF2WithHmacSM3")) {
            assertTrue(p.getInfo().contains(service), service + " not named in " + p.getInfo());
        }
        assertTrue(p.getInfo().contains(LibCrypto.path().toString()), p.getInfo());
        assertTrue(SM3Provider.isAvailable());
        assertTrue(SM3Provider.unavailability().isEmpty());
        Provider.Service s = p.getService("MessageDigest", "SM3");
        assertEquals("SM3", s.getAlgorithm());
        assertEquals(s, p.getService("MessageDigest", "1.2.156.10197.1.401"));
        assertEquals(s, p.getService("MessageDigest", "OID.1.2.156.10197.1.401"));
        assertThrows(InvalidParameterException.class, () -> s.newInstance("unexpected"));
    }

    /**
     * {@code MessageDigest.getInstance} hands out the engine itself, as it does BouncyCastle's, not wrapped in the
     * JCA's delegate: one indirection fewer on every call. Its name is SM3's standard name whatever alias asked for
     * it, its provider the one that made it, and a clone is an engine of its own.
     */
    @Test
    void aDigestIsTheEngineItself() throws Exception {
        SM3Provider p = new SM3Provider();
        for (String name : List.of("SM3", "sm3", "1.2.156.10197.1.401", "OID.1.2.156.10197.1.401")) {
            java.security.MessageDigest md = java.security.MessageDigest.getInstance(name, p);
            assertEquals("io.github.sm3ffm.internal.engines.SM3Digest", md.getClass().getName(), name);
            assertEquals("SM3", md.getAlgorithm(), name);
            assertTrue(md.getProvider() == p, name);
            assertEquals(32, md.getDigestLength());
            md.update("ab".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            java.security.MessageDigest copy = (java.security.MessageDigest) md.clone();
            assertTrue(copy != md && copy.getProvider() == p && copy.getClass() == md.getClass(), name);
            copy.update((byte) 'c');
            md.update((byte) 'c');
            assertEquals(SM3_ABC.substring(4), java.util.HexFormat.of().formatHex(copy.digest()), name);
            assertEquals(SM3_ABC.substring(4), java.util.HexFormat.of().formatHex(md.digest()), name);
        }
    }

    // The engines' classes are named as strings (so that none loads before it is used): each name must be the class
    // of what its service constructs.
    @Test
    void everyServiceNamesTheClassOfTheEngineItConstructs() throws Exception {
        SM3Provider p = new SM3Provider();
        Set<String> types = new TreeSet<>();
        for (Provider.Service s : p.getServices()) {
            Object engine = s.newInstance(null);
            assertEquals(s.getClassName(), engine.getClass().getName(), s.getType() + " " + s.getAlgorithm());
            types.add(s.getType());
        }
        // The KDFs come from the jar's META-INF/versions/25 (HkdfSM3IT checks them there); these tests run the base.
        assertTrue(types.containsAll(List.of("KeyGenerator", "Mac", "MessageDigest", "SecretKeyFactory")),
                types::toString);
    }

    // ServiceLoader on the class path (META-INF/services) is what the "unavailable" probes use; on the
    // module path (module-info provides), the module-path probe.
    @Test
    void securityPropertiesLineRegistersItByName(@TempDir Path dir) throws Exception {
        Path props = dir.resolve("extra.security");
        Files.writeString(props, "security.provider.1=SM3FFM\n");
        ChildJvm.Result r = ChildJvm.run(Map.of(), List.of("-Djava.security.properties=" + props),
                ProviderProbe.class, "configured");
        assertTrue(r.output().contains("provider=SM3FFM"), r.output());
        assertTrue(r.output().contains(SM3_ABC), r.output());
    }

    @Test
    void worksOnTheModulePathWithNativeAccessForTheModuleOnly() throws Exception {
        ChildJvm.Result r = ChildJvm.java(Map.of(), List.of(
                "--enable-native-access=io.github.sm3ffm", "--illegal-native-access=deny",
                "-p", Path.of("target", "classes").toAbsolutePath().toString(), "--add-modules", "io.github.sm3ffm",
                "-cp", ChildJvm.testClassPath(), ProviderProbe.class.getName(), "service-loader"));
        assertEquals(0, r.exitCode(), r.output());
        assertTrue(r.output().contains("module=io.github.sm3ffm"), r.output());
        assertTrue(r.output().contains(SM3_ABC), r.output());
        assertFalse(r.output().contains("WARNING"), r.output());
    }

    @Test
    void withoutLibCryptoTheProviderRegistersAndExplainsAndOthersKeepWorking() throws Exception {
        ChildJvm.Result r = ChildJvm.run(Map.of(), List.of("-Dsm3ffm.libcrypto.path=/nonexistent"),
                ProviderProbe.class, "unavailable");
        assertUnavailable(r, "sm3ffm.libcrypto.path=/nonexistent: no such file");
    }

    @Test
    void withSm3DisabledInOpenSslConfigurationTheProviderExplains() throws Exception {
        ChildJvm.Result r = ChildJvm.run(
                Map.of("OPENSSL_CONF", ChildJvm.vectors().resolve("base-only.cnf").toString()), List.of(),
                ProviderProbe.class, "unavailable");
        assertUnavailable(r, "unsupported");
    }

    @Test
    void disablingEveryNameOfSm3BlocksItWhateverNameIsAskedFor(@TempDir Path dir) throws Exception {
        // The JDK checks the name asked for, and maps OIDs to names only through its own table, which has
        // no SM3: an administrator lists the OID names too (docs/services.md).
        Path security = dir.resolve("disabled.security");
        Files.writeString(security, "jdk.crypto.disabledAlgorithms=MessageDigest.SM3, "
                + "MessageDigest.1.2.156.10197.1.401, MessageDigest.OID.1.2.156.10197.1.401\n");
        ChildJvm.Result r = ChildJvm.run(Map.of(), List.of("-Djava.security.properties=" + security),
                ProviderProbe.class, "names");
        assertEquals(0, r.exitCode(), r.output());
        for (String name : List.of("SM3", "1.2.156.10197.1.401", "OID.1.2.156.10197.1.401")) {
            assertTrue(r.output().contains(name + ": " + name + " is disabled"), r.output());
        }
    }

    private static void assertUnavailable(ChildJvm.Result r, String reason) {
        String out = r.output();
        assertEquals(0, r.exitCode(), out);
        assertTrue(out.contains("added=true"), out);
        assertTrue(out.contains("nsae=SM3 from SM3FFM is unavailable"), out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("cause=LibCryptoUnavailableException") && l.contains(reason)),
                out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("info=") && l.contains(reason)), out);
        assertTrue(out.contains("sha256=ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"), out);
        assertTrue(out.contains("provider=BC"), "a provider registered later serves SM3:\n" + out);
        assertTrue(out.contains(SM3_ABC), out);
        assertFalse(out.contains("Exception in thread"), out);
    }
}
