package io.github.sm3ffm.internal.libcrypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The loader's decisions, in this JVM: which candidates it tries, in which order, what it refuses and how it
 * says so. (Child JVMs test the same through the system property, and a JVM without native access.)
 */
class LoaderTest {

    @Test
    void theVersionedNamesComeFirstNewestFirst() {
        assertEquals(List.of("libcrypto.so.4", "libcrypto.so.3", "libcrypto.so"), LibCrypto.defaultNames());
    }

    @Test
    void aNameThatOpensIsTakenAfterOnesThatDoNot() throws Exception {
        LibCrypto.Outcome o = LibCrypto.load(null, List.of("libsm3ffm-absent.so.9", "libcrypto.so.3"));
        assertNull(o.error());
        assertNotNull(o.sm3());
        assertTrue(o.version().startsWith("OpenSSL 3"), o.version());
        assertEquals(LibCrypto.path(), o.path(), "the file the name resolved to, as the JVM's own loading found it");
        assertTrue(Files.isRegularFile(o.path()));
    }

    @Test
    void aBlankPathMeansUnset() {
        LibCrypto.Outcome o = LibCrypto.load("  ", List.of("libsm3ffm-absent.so.9"));
        String message = o.error().getMessage();
        assertTrue(message.contains("tried libsm3ffm-absent.so.9: cannot be opened"), message);
        assertNull(o.sm3());
    }

    @Test
    void anExplicitPathIsTheOnlyCandidate() throws Exception {
        LibCrypto.Outcome o = LibCrypto.load("/nonexistent/libcrypto.so.3", List.of("libcrypto.so.3"));
        assertEquals("OpenSSL 3 libcrypto with SM3 is unavailable; tried "
                + LibCrypto.PATH_PROPERTY + "=/nonexistent/libcrypto.so.3: no such file", o.error().getMessage());
        LibCrypto.Outcome direct = LibCrypto.load(LibCrypto.path().toString(), List.of());
        assertNull(direct.error());
        assertEquals(LibCrypto.path(), direct.path());
    }

    @Test
    void aLibraryThatIsNotLibcryptoIsRefusedBeforeAnythingIsBound() throws Exception {
        // A library of this JVM's own, loaded already and surely of the same architecture, that is not libcrypto.
        Path lib = Path.of(System.getProperty("java.home"), "lib", "libjava.so");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isRegularFile(lib), "no " + lib);
        String path = lib.toString();
        LibCrypto.Outcome o = LibCrypto.load(path, List.of());
        String message = o.error().getMessage();
        assertTrue(message.endsWith(path + ": not libcrypto (no OpenSSL_version_num)"), message);
        assertNull(o.error().getCause());
    }

    @Test
    void everyFunctionTheBindingsDeclareIsCheckedButTheOptionalOnes() {
        List<String> bound = Bindings.boundSymbols();
        assertTrue(bound.contains("EVP_MD_fetch") && bound.contains("CRYPTO_malloc"), bound.toString());
        for (String optional : Bindings.OPTIONAL_SYMBOLS) {
            assertTrue(!bound.contains(optional), optional);
        }
    }
}
