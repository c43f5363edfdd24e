package io.github.sm3ffm.internal.libcrypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.ChildJvm;
import io.github.sm3ffm.internal.openssl.OpenSSL;
import java.lang.foreign.FunctionDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LibCryptoTest {
    private static final String SHA256_ABC = "sha256=ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

    @Test
    void loadsSystemLibCryptoAndFetchesSm3() throws Exception {
        assertTrue(LibCrypto.isAvailable(), () -> LibCrypto.loadingError().orElseThrow().getMessage());
        assertTrue(LibCrypto.loadingError().isEmpty());
        assertTrue(LibCrypto.version().matches("OpenSSL [3-9]\\..*"), LibCrypto.version());
        assertTrue(Files.isRegularFile(LibCrypto.path()), LibCrypto.path().toString());
        assertFalse(LibCrypto.sm3().equals(java.lang.foreign.MemorySegment.NULL));
        assertEquals(LibCrypto.sm3(), LibCrypto.sm3(), "SM3 is fetched once and kept");
        String chosen = System.getProperty(LibCrypto.PATH_PROPERTY, "");
        if (!chosen.isBlank()) {
            assertEquals(Path.of(chosen).toAbsolutePath(), LibCrypto.path(), "the library the build was given");
        }
        System.out.println("Tested against " + LibCrypto.version() + " at " + LibCrypto.path() + "; SM3 through "
                + BackendChoice.selected().description());
    }

    /**
     * The seam that decorates the backend (a decorator sees every key, pad and message) is reachable from this
     * package only, and only before the backend is chosen: in an ordinary run the real backend serves every call.
     */
    @Test
    void theBackendSeamIsNotReachableFromOutsideNorAfterTheChoice() throws Exception {
        assertTrue(Faults.chosen() instanceof EvpBackend || Faults.chosen() instanceof ProviderBackend,
                Faults.chosen().getClass().getName());
        assertTrue(BackendChoice.made());
        assertThrows(IllegalStateException.class, () -> BackendChoice.decorate(s -> s, b -> b));
        assertFalse(java.lang.reflect.Modifier.isPublic(Backend.class.getModifiers()), "Backend is package-private");
        java.lang.reflect.Method decorate = BackendChoice.class.getDeclaredMethod("decorate",
                java.util.function.UnaryOperator.class, java.util.function.UnaryOperator.class);
        int modifiers = decorate.getModifiers();
        assertFalse(java.lang.reflect.Modifier.isPublic(modifiers) || java.lang.reflect.Modifier.isProtected(modifiers)
                || java.lang.reflect.Modifier.isPrivate(modifiers), "decorate is package-private");
        // The module exports the public package alone: nothing of the facade is open to reflection from outside.
        Module module = Backend.class.getModule();
        if (module.isNamed()) {
            assertFalse(module.isOpen(Backend.class.getPackageName()));
            assertFalse(module.isExported(Backend.class.getPackageName()));
        }
    }

    @Test
    void handlesLinkedBesideTheBindingsTakeTheirTypes() {
        assertTrue(LibCrypto.isAvailable(), "the bindings resolve their symbols in the library the loader chose");
        assertEquals(OpenSSL.EVP_DigestInit_ex2$handle().type(), EvpBackend.INIT.type());
        assertEquals(OpenSSL.EVP_DigestUpdate$handle().type(), EvpBackend.UPDATE.type());
        assertEquals(OpenSSL.EVP_DigestUpdate$handle().type(), EvpBackend.Ordinary.UPDATE.type());
        assertEquals(OpenSSL.EVP_DigestFinal_ex$handle().type(), EvpBackend.FINAL.type());
        UnsatisfiedLinkError missing = assertThrows(UnsatisfiedLinkError.class,
                () -> Bindings.downcall("EVP_NoSuchFunction", FunctionDescriptor.ofVoid()));
        assertTrue(missing.getMessage().contains("EVP_NoSuchFunction"), missing.getMessage());
    }

    @Test
    void bindingsCoverEverySymbolTheLoaderChecks() {
        // Exactly the functions the library calls: a binding nothing calls would make the loader refuse a
        // libcrypto for a symbol it never needs.
        assertEquals(new java.util.TreeSet<>(List.of("OpenSSL_version_num", "OpenSSL_version", "EVP_MD_fetch",
                        "EVP_MD_free", "EVP_MD_get_size", "EVP_MD_CTX_new", "EVP_MD_CTX_free", "EVP_MD_CTX_copy_ex",
                        "EVP_DigestInit_ex2", "EVP_DigestUpdate", "EVP_DigestFinal_ex", "ERR_get_error",
                        "ERR_error_string_n", "ERR_clear_error", "CRYPTO_malloc", "CRYPTO_clear_free",
                        "EVP_MD_get0_provider", "OSSL_PROVIDER_get0_provider_ctx", "OSSL_PROVIDER_get0_name",
                        "OSSL_PROVIDER_query_operation", "OSSL_PROVIDER_unquery_operation")),
                new java.util.TreeSet<>(Bindings.boundSymbols()));
    }

    @Test
    void explicitPathIsUsedAndNamed() throws Exception {
        Path real = LibCrypto.path();
        ChildJvm.Result r = probe(Map.of(), "-D" + LibCrypto.PATH_PROPERTY + "=" + real);
        assertTrue(r.output().contains("available=true"), r.output());
        assertTrue(r.output().contains("path=" + real), r.output());
    }

    @Test
    void nonexistentPathIsReportedWithThePath() throws Exception {
        ChildJvm.Result r = probe(Map.of(), "-D" + LibCrypto.PATH_PROPERTY + "=/nonexistent");
        assertUnavailable(r, "sm3ffm.libcrypto.path=/nonexistent: no such file");
    }

    @Test
    void aLibraryThatIsNotLibCryptoIsRejected() throws Exception {
        Path libz = List.of("/lib/x86_64-linux-gnu/libz.so.1", "/usr/lib/x86_64-linux-gnu/libz.so.1",
                        "/lib64/libz.so.1", "/usr/lib64/libz.so.1", "/usr/lib/libz.so.1").stream()
                .map(Path::of).filter(Files::exists).findFirst()
                .orElseGet(() -> Path.of(System.getProperty("java.home"), "lib", "libzip.so"));
        ChildJvm.Result r = probe(Map.of(), "-D" + LibCrypto.PATH_PROPERTY + "=" + libz);
        assertUnavailable(r, libz + ": not libcrypto (no OpenSSL_version_num)");
    }

    @Test
    void deniedNativeAccessGivesTheLaunchFlagFirstAndTheCauseOnce() throws Exception {
        ChildJvm.Result r = ChildJvm.java(Map.of(), List.of("--illegal-native-access=deny", "-cp", ChildJvm.classPath(),
                LoaderProbe.class.getName()));
        String error = r.output().lines().filter(l -> l.startsWith("error=")).findFirst().orElseThrow();
        assertTrue(error.startsWith("error=OpenSSL 3 libcrypto with SM3 is unavailable: launch with"
                + " --enable-native-access=io.github.sm3ffm on the module path, or --enable-native-access=ALL-UNNAMED on"
                + " the class path (Illegal native access from an unnamed module"), r.output());
        assertEquals(1, error.split("Illegal native access", -1).length - 1, error);
        assertTrue(r.output().contains(SHA256_ABC), r.output());
    }

    @Test
    void baseProviderOnlyConfigurationCannotGiveSm3() throws Exception {
        ChildJvm.Result r = probe(Map.of("OPENSSL_CONF", ChildJvm.vectors().resolve("base-only.cnf").toString()));
        assertUnavailable(r, "EVP_MD_fetch(NULL, \"SM3\", NULL) failed");
        assertTrue(r.output().contains("unsupported"), r.output());
    }

    @Test
    void fipsPropertyConfigurationCannotGiveSm3() throws Exception {
        ChildJvm.Result r = probe(Map.of("OPENSSL_CONF", ChildJvm.vectors().resolve("fipsprop.cnf").toString()));
        assertUnavailable(r, "EVP_MD_fetch(NULL, \"SM3\", NULL) failed");
        assertTrue(r.output().contains("unsupported"), r.output());
    }

    private static ChildJvm.Result probe(Map<String, String> env, String... jvmArgs) throws Exception {
        return ChildJvm.run(env, List.of(jvmArgs), LoaderProbe.class);
    }

    private static void assertUnavailable(ChildJvm.Result r, String expected) {
        String out = r.output();
        assertEquals(0, r.exitCode(), out);
        assertTrue(out.contains("available=false"), out);
        assertTrue(out.contains("again=false"), out);
        assertTrue(out.contains(expected), "expected '" + expected + "' in:\n" + out);
        assertTrue(out.contains(SHA256_ABC), "the JVM keeps working:\n" + out);
        assertFalse(out.contains("Exception in thread"), out);
        assertFalse(out.contains("WARNING"), out);
    }
}
