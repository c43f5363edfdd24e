package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.internal.libcrypto.LibCrypto;
import io.github.sm3ffm.internal.libcrypto.StartupProbe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a program's start sees: registering the provider maps no native library (GraalVM native-image registers
 * providers at build time), what it says about itself is right whenever it is asked, and the start-up checks
 * {@link SM3Provider#install()}, {@link SM3Provider#assertAvailable()} and {@code docs/sm3ffm.security}. Each in a
 * child JVM: the provider list and the loaded libraries are the JVM's.
 */
class StartupTest {
    private static final String UNUSABLE = "-Dsm3ffm.libcrypto.path=/nonexistent/libcrypto.so.3";

    private static String probe(List<String> jvmArgs, String... args) throws Exception {
        ChildJvm.Result r = ChildJvm.run(Map.of(), jvmArgs, StartupProbe.class, args);
        assertEquals(0, r.exitCode(), r.output());
        return r.output();
    }

    private static String line(String out, String key) {
        return out.lines().filter(l -> l.startsWith(key + "=")).map(l -> l.substring(key.length() + 1))
                .findFirst().orElseThrow(() -> new AssertionError("no " + key + " in\n" + out));
    }

    @Test
    void registeringMapsNoLibCryptoTillAServiceIsUsed() throws Exception {
        String out = probe(List.of(), "lazy");
        assertEquals("false", line(out, "constructed"), out);
        assertEquals("false", line(out, "added"), out);
        assertEquals("false", line(out, "inserted-first"), "a lookup of SHA-256 passes SM3FFM by\n" + out);
        assertEquals("true", line(out, "digested"), out);
    }

    @Test
    void theInfoAskedFirstNamesTheLibraryInUse() throws Exception {
        String out = probe(List.of(), "info-first");
        String info = line(out, "info");
        assertTrue(info.contains(LibCrypto.version()) && info.contains(LibCrypto.path().toString()), out);
        assertEquals(info, line(out, "info-property"), out);
        assertEquals(info, line(out, "info-get"), out);
        assertEquals(System.getProperty("sm3ffm.project.version"), line(out, "version"), out);
        assertEquals("true", line(out, "available"), out);
    }

    @Test
    void theInfoOfAnUnusableLibrarySaysWhy() throws Exception {
        String out = probe(List.of(UNUSABLE), "info-first");
        String info = line(out, "info");
        assertTrue(info.contains("(unavailable: OpenSSL 3 libcrypto with SM3 is unavailable; tried "
                + "sm3ffm.libcrypto.path=/nonexistent/libcrypto.so.3: no such file)"), out);
        assertEquals(info, line(out, "info-property"), out);
        assertEquals("false", line(out, "available"), out);
    }

    @Test
    void installPutsOneSm3ffmFirstWhateverWasThereAndFromManyThreads() throws Exception {
        String out = probe(List.of(), "install");
        assertTrue(out.contains("fresh=true again-same=true"), out);
        assertTrue(out.contains("moved=true moved-same=true"), out);
        assertEquals("true", line(out, "concurrent"), out);
    }

    @Test
    void assertAvailablePassesHereAndThrowsTheReasonWhereLibCryptoIsUnusable() throws Exception {
        assertDoesNotThrow(SM3Provider::assertAvailable);
        String out = probe(List.of(UNUSABLE), "assert-available");
        assertEquals("OpenSSL 3 libcrypto with SM3 is unavailable; tried sm3ffm.libcrypto.path=/nonexistent/"
                + "libcrypto.so.3: no such file", line(out, "assert"), out);
        assertEquals("true", line(out, "cause-is-unavailability"), out);
        assertEquals("true", line(out, "message-is-reason"), out);
    }

    @Test
    void theSecurityFilePutsSm3ffmFirstAndKeepsEveryJdkProvider() throws Exception {
        Path file = Path.of("docs", "sm3ffm.security").toAbsolutePath();
        assertTrue(Files.isRegularFile(file), file.toString());
        assertTrue(Files.readAllLines(file).contains("#sm3ffm.required=true"), "the required line is commented out");
        List<String> jdk = providers(probe(List.of(), "providers"));
        String out = probe(List.of("-Djava.security.properties=" + file), "providers");
        List<String> configured = providers(out);
        assertEquals("SM3FFM", configured.get(0), out);
        assertEquals(jdk, configured.subList(1, configured.size()), out);
        assertTrue(jdk.containsAll(List.of("SUN", "SunRsaSign", "SunEC", "SunJSSE", "SunJCE")), jdk::toString);
        String sha256 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256", "SUN").digest(new byte[] {'a', 'b', 'c'}));
        assertEquals(sha256, line(out, "sha256"), out);
        assertEquals("SUN", line(out, "sha256-provider"), out);
        assertEquals("SM3FFM", line(out, "sm3-provider"), out);
    }

    private static List<String> providers(String out) {
        String list = line(out, "providers");
        return List.of(list.substring(1, list.length() - 1).split(", "));
    }
}
