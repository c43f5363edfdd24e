package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.openssl.OpenSSL.C_POINTER;
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
import java.util.Optional;

/**
 * One candidate for libcrypto, opened privately and checked before {@link LibCrypto} lets the bindings see it:
 * the file itself (not a library it depends on) defines {@code OpenSSL_version_num}, the version is 3.0 or later,
 * and every symbol the bindings declare is there.
 */
final class Candidate {
    /** OpenSSL_version_num() of 3.0.0, the oldest release the library takes. */
    static final long OPENSSL_3_0 = 0x3000_0000L;

    private Candidate() {
    }

    /**
     * Opens {@code candidate} (a path when {@code isPath}, else a name for the dynamic linker), checks it, and
     * returns the absolute file to load; {@code names} are the default names, for the hint given when a path
     * names no file.
     */
    static Path open(String candidate, boolean isPath, List<String> names) throws Rejected {
        Arena arena = Arena.ofShared();
        boolean accepted = false;
        try {
            Path path = isPath ? existingFile(candidate, names) : null;
            SymbolLookup lookup = lookup(candidate, path, arena);
            MemorySegment versionNum = lookup.find("OpenSSL_version_num")
                    .orElseThrow(() -> new Rejected("not libcrypto (no OpenSSL_version_num)"));
            // dlsym also searches a library's dependencies: libssl would pass every check below through libcrypto.
            Path definer = fileContaining(versionNum);
            if (isPath && !LoadingHints.isSameFile(path, definer)) {
                throw new Rejected(LoadingHints.notLibCrypto(definer));
            }
            long version = versionNum(versionNum);
            if (version < OPENSSL_3_0) {
                throw new Rejected(String.format(
                        "OpenSSL version number 0x%08x; OpenSSL 3.0 or later is required", version));
            }
            requireBoundSymbols(lookup);
            accepted = true;
            return isPath ? path : definer;
        } finally {
            // The private handle is only for checking; System.load keeps the accepted library open.
            if (!accepted) {
                arena.close();
            }
        }
    }

    private static Path existingFile(String candidate, List<String> names) throws Rejected {
        Path path = Path.of(candidate).toAbsolutePath();
        if (!Files.isRegularFile(path)) {
            boolean named = Files.exists(path) || Path.of(candidate).getParent() == null;
            throw new Rejected(named ? LoadingHints.notAFile(path, names) : "no such file");
        }
        return path;
    }

    private static SymbolLookup lookup(String candidate, Path path, Arena arena) throws Rejected {
        try {
            return path != null ? SymbolLookup.libraryLookup(path, arena) : SymbolLookup.libraryLookup(candidate, arena);
        } catch (IllegalArgumentException e) {
            throw new Rejected("cannot be opened (" + e.getMessage() + ")", true);
        }
    }

    private static void requireBoundSymbols(SymbolLookup lookup) throws Rejected {
        List<String> missing = new ArrayList<>();
        for (String symbol : Bindings.boundSymbols()) {
            if (lookup.find(symbol).isEmpty()) {
                missing.add(symbol);
            }
        }
        if (!missing.isEmpty()) {
            throw new Rejected("missing symbols " + missing);
        }
    }

    private static long versionNum(MemorySegment address) throws Rejected {
        MethodHandle handle = Linker.nativeLinker().downcallHandle(address, FunctionDescriptor.of(JAVA_LONG));
        try {
            return (long) handle.invokeExact();
        } catch (Throwable e) {
            throw new Rejected("OpenSSL_version_num failed: " + describe(e));
        }
    }

    /** The file a library opened by name came from, asked of the dynamic linker with dladdr(3). */
    private static Path fileContaining(MemorySegment symbol) throws Rejected {
        Linker linker = Linker.nativeLinker();
        Optional<MemorySegment> dladdr = linker.defaultLookup().find("dladdr");
        if (dladdr.isEmpty()) {
            throw new Rejected("dladdr is not available to locate the file");
        }
        MethodHandle handle = linker.downcallHandle(dladdr.get(), FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        try (Arena arena = Arena.ofConfined()) {
            // Dl_info: dli_fname, dli_fbase, dli_sname, dli_saddr.
            MemorySegment info = arena.allocate(ADDRESS.byteSize() * 4, ADDRESS.byteAlignment());
            int found;
            try {
                found = (int) handle.invokeExact(symbol, info);
            } catch (Throwable e) {
                throw new Rejected("dladdr failed: " + describe(e));
            }
            MemorySegment name = info.get(C_POINTER, 0);
            if (found == 0 || name.equals(MemorySegment.NULL)) {
                throw new Rejected("dladdr could not name the file");
            }
            return Path.of(name.getString(0)).toAbsolutePath();
        }
    }

    static String describe(Throwable e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    /** A candidate that is not a usable libcrypto; the next one is tried. */
    static final class Rejected extends Exception {
        private static final long serialVersionUID = 1L;
        /** Whether the dynamic linker could not open it at all: none opening means libcrypto is not installed. */
        final boolean unopened;

        Rejected(String message) {
            this(message, false);
        }

        Rejected(String message, boolean unopened) {
            super(message, null, false, false);
            this.unopened = unopened;
        }
    }
}
