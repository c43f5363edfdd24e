package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_fetch;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_free;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_get_size;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OPENSSL_VERSION;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OpenSSL_version;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The one place that finds, checks and binds the system's libcrypto, and fetches SM3 from it.
 *
 * <p>The generated bindings resolve symbols through the class loader's libraries (jextract ran without
 * {@code --library}), and each binding resolves its symbol in a static initialiser that throws if the
 * symbol is missing. So a candidate library is first opened privately, checked for OpenSSL 3 and for
 * every symbol the bindings declare, and only then loaded with {@link System#load}. A library that is
 * not libcrypto never reaches the bindings.
 *
 * <p>Loading happens once, on first use, and never throws: the outcome (the fetched SM3 {@code EVP_MD},
 * kept for the JVM's life, or the reason there is none) is recorded for every later caller.
 */
public final class LibCrypto {
    /** System property naming the exact libcrypto file to use; no other candidate is tried then. */
    public static final String PATH_PROPERTY = LoadingHints.PATH_PROPERTY;
    /**
     * System property: an OpenSSL property query (property(7)), such as {@code provider=mycard}, passed to
     * the one fetch, SM3's, whose provider then computes HMAC and every KDF too; blank means none.
     */
    public static final String PROPERTIES_PROPERTY = "sm3ffm.properties";

    private LibCrypto() {
    }

    /** What loading gave: the fetched SM3, OpenSSL's version and the file; or why there is none. */
    record Outcome(MemorySegment sm3, String version, Path path, LibCryptoUnavailableException error) {
    }

    // Holder idiom: the first caller pays for loading, and load() catches everything it can throw.
    private static final class Loaded {
        static final Outcome OUTCOME = load(System.getProperty(PATH_PROPERTY), defaultNames());
    }

    /** The property query of {@value #PROPERTIES_PROPERTY}, or null; read once. */
    public static String propertyQuery() {
        return Query.VALUE;
    }

    private static final class Query {
        static final String VALUE = read();

        private static String read() {
            String q = System.getProperty(PROPERTIES_PROPERTY);
            return q == null || q.isBlank() ? null : q.trim();
        }
    }

    /** The query as a C string (NULL when there is none), valid for the JVM's life. */
    static MemorySegment propertyQueryString() {
        return NativeQuery.STRING;
    }

    private static final class NativeQuery {
        static final MemorySegment STRING = Query.VALUE == null ? MemorySegment.NULL
                : Arena.global().allocateFrom(Query.VALUE);
    }

    /** How a fetch call reads in messages, e.g. {@code EVP_MD_fetch(NULL, "SM3", "provider=x")}. */
    private static String call(String function, String algorithm) {
        return function + "(NULL, \"" + algorithm + "\", "
                + (Query.VALUE == null ? "NULL" : "\"" + Query.VALUE + "\"") + ")";
    }

    /** Whether libcrypto was found and gave SM3. */
    public static boolean isAvailable() {
        return Loaded.OUTCOME.error == null;
    }

    /** Why libcrypto or its SM3 is unavailable; empty when it is available. */
    public static Optional<LibCryptoUnavailableException> loadingError() {
        return Optional.ofNullable(Loaded.OUTCOME.error);
    }

    /** The SM3 {@code EVP_MD} fetched once at load; valid for the life of the JVM. */
    public static MemorySegment sm3() throws LibCryptoUnavailableException {
        return available().sm3;
    }

    /**
     * The SM3 {@code EVP_MD} fetched at load, or NULL when loading failed: for code that runs only once SM3
     * is known to be available, or that decides without it.
     */
    static MemorySegment fetchedSm3() {
        MemorySegment md = Loaded.OUTCOME.sm3;
        return md == null ? MemorySegment.NULL : md;
    }

    /** OpenSSL's version text, or null when loading failed: for code that decides without it. */
    static String fetchedVersion() {
        return Loaded.OUTCOME.version;
    }

    /** OpenSSL's own version text, e.g. "OpenSSL 3.0.19 27 Jan 2026". */
    public static String version() throws LibCryptoUnavailableException {
        return available().version;
    }

    /** The libcrypto file in use. */
    public static Path path() throws LibCryptoUnavailableException {
        return available().path;
    }

    private static Outcome available() throws LibCryptoUnavailableException {
        Outcome outcome = Loaded.OUTCOME;
        if (outcome.error != null) {
            throw outcome.error;
        }
        return outcome;
    }

    /**
     * Loads the first usable candidate: {@code explicit} alone when it is set (the value of {@value #PATH_PROPERTY}),
     * else each of {@code names} in turn. Never throws; callable again (a library already loaded stays loaded).
     */
    static Outcome load(String explicit, List<String> names) {
        List<String> tried = new ArrayList<>();
        Throwable lastCause = null;
        boolean noneOpened = true;
        if (explicit != null && explicit.isBlank()) {
            // Blank means unset, so a build can pass an empty value through without choosing a library.
            explicit = null;
        }
        for (String candidate : explicit != null ? List.of(explicit) : names) {
            String label = explicit != null ? PATH_PROPERTY + "=" + candidate : candidate;
            try {
                Path path = Candidate.open(candidate, explicit != null, defaultNames());
                System.load(path.toString());
                return fetchSm3(path);
            } catch (Candidate.Rejected e) {
                tried.add(label + ": " + e.getMessage());
                noneOpened &= e.unopened;
            } catch (LibCryptoUnavailableException e) {
                return new Outcome(null, null, null, e);
            } catch (IllegalCallerException e) {
                return new Outcome(null, null, null,
                        new LibCryptoUnavailableException(LoadingHints.nativeAccessDenied(e), e));
            } catch (Throwable e) {
                // IllegalCallerException without native access, UnsatisfiedLinkError, anything else.
                tried.add(label + ": " + Candidate.describe(e));
                lastCause = e;
                noneOpened = false;
            }
        }
        String message = "OpenSSL 3 libcrypto with SM3 is unavailable; tried " + String.join("; ", tried);
        if (explicit == null && noneOpened) {
            message += LoadingHints.install();
        }
        return new Outcome(null, null, null, new LibCryptoUnavailableException(message, lastCause));
    }

    /**
     * The newest ABI first: a system that has both OpenSSL 4 and 3 installed keeps 3 for older programs,
     * and 4 is the one its distribution moved to. Runtime-only systems ship the versioned files without
     * the development symlink, which comes last.
     */
    static List<String> defaultNames() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (os.contains("mac")) {
            return List.of("libcrypto.4.dylib", "libcrypto.3.dylib", "libcrypto.dylib");
        }
        return List.of("libcrypto.so.4", "libcrypto.so.3", "libcrypto.so");
    }

    private static Outcome fetchSm3(Path path) throws LibCryptoUnavailableException {
        String version = OpenSSL_version(OPENSSL_VERSION()).getString(0);
        String where = version + " at " + path;
        OpenSSLErrors.clear();
        MemorySegment md;
        try (Arena arena = Arena.ofConfined()) {
            md = EVP_MD_fetch(MemorySegment.NULL, arena.allocateFrom("SM3"), propertyQueryString());
        }
        if (md.equals(MemorySegment.NULL)) {
            throw new LibCryptoUnavailableException(
                    where + " cannot give SM3: " + call("EVP_MD_fetch", "SM3") + " failed: " + OpenSSLErrors.drain(),
                    null);
        }
        int size = EVP_MD_get_size(md);
        if (size != Sm3Sizes.DIGEST_LENGTH) {
            EVP_MD_free(md);
            throw new LibCryptoUnavailableException(where + " gave an SM3 with a " + size + "-byte digest", null);
        }
        return new Outcome(md, version, path, null);
    }
}
