package io.github.sm3ffm.internal.libcrypto;

import io.github.sm3ffm.internal.openssl.OpenSSL;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** What the generated bindings need of a libcrypto, and the handles they cannot express. */
final class Bindings {
    private Bindings() {
    }

    /**
     * A handle to a function of the loaded libcrypto, linked from its symbol with options the bindings
     * cannot express (critical calls). The bindings' {@code X$address()} would also link their own ordinary
     * handle for X: one more generated downcall stub, milliseconds of every program's start, for nothing.
     */
    static MethodHandle downcall(String function, FunctionDescriptor descriptor, Linker.Option... options) {
        Optional<MemorySegment> address = SymbolLookup.loaderLookup().find(function);
        if (address.isEmpty()) {
            throw new UnsatisfiedLinkError("unresolved symbol: " + function);
        }
        return Linker.nativeLinker().downcallHandle(address.get(), descriptor, options);
    }

    /**
     * Functions the bindings declare that a usable libcrypto may lack: the ENGINE API, absent from builds
     * with {@code no-engine} and from OpenSSL 4. Their callers look them up first.
     */
    static final List<String> OPTIONAL_SYMBOLS = List.of("ENGINE_get_digest_engine", "ENGINE_finish");

    /**
     * Every function the generated bindings declare that libcrypto must have: the generated X$address()
     * accessors name them.
     */
    static List<String> boundSymbols() {
        List<String> names = new ArrayList<>();
        for (Method m : OpenSSL.class.getDeclaredMethods()) {
            if (m.getName().endsWith("$address") && m.getParameterCount() == 0) {
                String name = m.getName().substring(0, m.getName().length() - "$address".length());
                if (!OPTIONAL_SYMBOLS.contains(name)) {
                    names.add(name);
                }
            }
        }
        return names;
    }
}
