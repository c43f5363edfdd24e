package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.openssl.OpenSSL.C_POINTER;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_fetch;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_free;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_get_size;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OPENSSL_VERSION;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OpenSSL_version;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
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

    /** OpenSSL_version_num() of 3.0.0, the oldest release the library takes. */
    static final long OPENSSL_3_0 = 0x3000_0000L;

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
                Path path = open(candidate, explicit != null);
                System.load(path.toString());
                return fetchSm3(path);
            } catch (CandidateRejected e) {
                tried.add(label + ": " + e.getMessage());
                noneOpened &= e.unopened;
            } catch (LibCryptoUnavailableException e) {
                return new Outcome(null, null, null, e);
            } catch (IllegalCallerException e) {
                return new Outcome(null, null, null,
                        new LibCryptoUnavailableException(LoadingHints.nativeAccessDenied(e), e));
            } catch (Throwable e) {
                // IllegalCallerException without native access, UnsatisfiedLinkError, anything else.
                tried.add(label + ": " + describe(e));
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

    /** Opens a candidate privately, checks it, and returns the absolute file to bind the bindings to. */
    private static Path open(String candidate, boolean isPath) throws CandidateRejected {
        Arena arena = Arena.ofShared();
        boolean accepted = false;
        try {
            Path path = isPath ? Path.of(candidate).toAbsolutePath() : null;
            if (isPath && !Files.isRegularFile(path)) {
                boolean named = Files.exists(path) || Path.of(candidate).getParent() == null;
                throw new CandidateRejected(named ? LoadingHints.notAFile(path, defaultNames()) : "no such file");
            }
            SymbolLookup lookup;
            try {
                lookup = isPath ? SymbolLookup.libraryLookup(path, arena)
                        : SymbolLookup.libraryLookup(candidate, arena);
            } catch (IllegalArgumentException e) {
                throw new CandidateRejected("cannot be opened (" + e.getMessage() + ")", true);
            }
            Optional<MemorySegment> found = lookup.find("OpenSSL_version_num");
            if (found.isEmpty()) {
                throw new CandidateRejected("not libcrypto (no OpenSSL_version_num)");
            }
            MemorySegment versionNum = found.get();
            // dlsym also searches a library's dependencies: libssl would pass every check below through libcrypto.
            Path definer = fileContaining(versionNum);
            if (isPath && !LoadingHints.isSameFile(path, definer)) {
                throw new CandidateRejected(LoadingHints.notLibCrypto(definer));
            }
            long version = invokeVersionNum(versionNum);
            if (version < OPENSSL_3_0) {
                throw new CandidateRejected(String.format(
                        "OpenSSL version number 0x%08x; OpenSSL 3.0 or later is required", version));
            }
            List<String> missing = new ArrayList<>();
            for (String symbol : Bindings.boundSymbols()) {
                if (lookup.find(symbol).isEmpty()) {
                    missing.add(symbol);
                }
            }
            if (!missing.isEmpty()) {
                throw new CandidateRejected("missing symbols " + missing);
            }
            accepted = true;
            return isPath ? path : definer;
        } finally {
            // The private handle is only for checking; System.load keeps the accepted library open.
            if (!accepted) {
                arena.close();
            }
        }
    }

    private static long invokeVersionNum(MemorySegment address) throws CandidateRejected {
        MethodHandle handle = Linker.nativeLinker().downcallHandle(address, FunctionDescriptor.of(JAVA_LONG));
        try {
            return (long) handle.invokeExact();
        } catch (Throwable e) {
            throw new CandidateRejected("OpenSSL_version_num failed: " + describe(e));
        }
    }

    /** The file a library opened by name came from, asked of the dynamic linker with dladdr(3). */
    private static Path fileContaining(MemorySegment symbol) throws CandidateRejected {
        Linker linker = Linker.nativeLinker();
        Optional<MemorySegment> dladdr = linker.defaultLookup().find("dladdr");
        if (dladdr.isEmpty()) {
            throw new CandidateRejected("dladdr is not available to locate the file");
        }
        MethodHandle handle = linker.downcallHandle(dladdr.get(), FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        try (Arena arena = Arena.ofConfined()) {
            // Dl_info: dli_fname, dli_fbase, dli_sname, dli_saddr.
            MemorySegment info = arena.allocate(ADDRESS.byteSize() * 4, ADDRESS.byteAlignment());
            int found;
            try {
                found = (int) handle.invokeExact(symbol, info);
            } catch (Throwable e) {
                throw new CandidateRejected("dladdr failed: " + describe(e));
            }
            MemorySegment name = info.get(C_POINTER, 0);
            if (found == 0 || name.equals(MemorySegment.NULL)) {
                throw new CandidateRejected("dladdr could not name the file");
            }
            return Path.of(name.getString(0)).toAbsolutePath();
        }
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

    private static String describe(Throwable e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    /** A candidate that is not a usable libcrypto; the next one is tried. */
    private static final class CandidateRejected extends Exception {
        private static final long serialVersionUID = 1L;
        /** Whether the dynamic linker could not open it at all: none opening means libcrypto is not installed. */
        final boolean unopened;

        CandidateRejected(String message) {
            this(message, false);
        }

        CandidateRejected(String message, boolean unopened) {
            super(message, null, false, false);
            this.unopened = unopened;
        }
    }
}
