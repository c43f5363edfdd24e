package io.github.sm3ffm.internal.libcrypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
    void aDirectoryAsThePathIsNotAFileAndTheLibraryInItIsSuggested(@TempDir Path empty) throws Exception {
        Path dir = LibCrypto.path().getParent();
        String message = LibCrypto.load(dir.toString(), List.of()).error().getMessage();
        assertTrue(message.contains(LibCrypto.PATH_PROPERTY + "=" + dir + ": not a file: " + LibCrypto.PATH_PROPERTY
                + " takes the path of libcrypto, such as " + dir.resolve("libcrypto.so.")), message);
        message = LibCrypto.load(empty.toString(), List.of()).error().getMessage();
        assertTrue(message.endsWith(LibCrypto.PATH_PROPERTY + "=" + empty + ": not a file: " + LibCrypto.PATH_PROPERTY
                + " takes the path of libcrypto, not a directory"), message);
    }

    @Test
    void aLibraryNameAsThePathIsNotAFileAndUnsetIsSuggested() {
        String message = LibCrypto.load("libcrypto.so.3", List.of()).error().getMessage();
        assertTrue(message.endsWith(LibCrypto.PATH_PROPERTY + "=libcrypto.so.3: not a file: " + LibCrypto.PATH_PROPERTY
                + " takes the path of libcrypto (leave it unset to find libcrypto.so.4, libcrypto.so.3, libcrypto.so by"
                + " name)"), message);
    }

    // dlsym searches a library's dependencies too: libssl would pass every check through the libcrypto it links.
    @Test
    void libsslIsRefusedAndTheLibCryptoItLinksIsNamed() throws Exception {
        Path libssl = LibCrypto.path().resolveSibling("libssl.so.3");
        assumeTrue(Files.isRegularFile(libssl), "no " + libssl);
        String message = LibCrypto.load(libssl.toString(), List.of()).error().getMessage();
        String prefix = LibCrypto.PATH_PROPERTY + "=" + libssl + ": not libcrypto: it takes OpenSSL_version_num from ";
        assertTrue(message.contains(prefix), message);
        String definer = message.substring(message.indexOf(prefix) + prefix.length(), message.indexOf("; set "));
        assertTrue(Files.isSameFile(LibCrypto.path(), Path.of(definer)), message);
        assertTrue(message.endsWith("; set " + LibCrypto.PATH_PROPERTY + " to that file"), message);
    }

    @Test
    void whenNoNameOpensTheMessageNamesThePackagesThatProvideLibCrypto() {
        String message = LibCrypto.load(null, List.of("libsm3ffm-absent.so.9", "libsm3ffm-absent.so.8")).error()
                .getMessage();
        for (String distribution : List.of("Debian 12 and Ubuntu 22.04: libssl3", "Debian 13 and Ubuntu 24.04: libssl3t64",
                "RHEL and Fedora: openssl-libs", "Alpine: libcrypto3")) {
            assertTrue(message.contains(distribution), message);
        }
        assertTrue(message.endsWith("or set " + LibCrypto.PATH_PROPERTY + " to its file"), message);
    }

    @Test
    void whenANameOpensButIsRefusedNoPackageIsSuggested() {
        Path lib = Path.of(System.getProperty("java.home"), "lib", "libjava.so");
        assumeTrue(Files.isRegularFile(lib), "no " + lib);
        String message = LibCrypto.load(null, List.of("libsm3ffm-absent.so.9", lib.toString())).error().getMessage();
        assertTrue(message.endsWith(lib + ": not libcrypto (no OpenSSL_version_num)"), message);
        String explicit = LibCrypto.load("/nonexistent/libcrypto.so.3", List.of()).error().getMessage();
        assertTrue(!explicit.contains("install"), explicit);
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
