package io.github.sm3ffm.bench;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.github.sm3ffm.internal.libcrypto.LibCrypto;
import io.github.sm3ffm.internal.libcrypto.LibCryptoUnavailableException;
import io.github.sm3ffm.internal.openssl.OpenSSL;
import io.github.sm3ffm.internal.openssl.ossl_algorithm_st;
import io.github.sm3ffm.internal.openssl.ossl_dispatch_st;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Arrays;
import java.util.Locale;

/**
 * The SM3 functions of the provider that {@code EVP_MD_fetch} chose (provider-digest(7)), which sm3-ffm calls
 * without EVP, linked here by the benchmarks that measure the native calls alone. Linked the way sm3-ffm links
 * them: {@code init} and {@code dupctx} ordinary downcalls, the others critical.
 */
final class ProviderSm3 {
    private static final MemorySegment PROVIDER = provider();
    static final MemorySegment PROVIDER_CTX = OpenSSL.OSSL_PROVIDER_get0_provider_ctx(PROVIDER);
    private static final MemorySegment DISPATCH = dispatchTable();

    static final MethodHandle NEWCTX = link(OpenSSL.OSSL_FUNC_DIGEST_NEWCTX(),
            FunctionDescriptor.of(ADDRESS, ADDRESS));
    static final MethodHandle INIT = link(OpenSSL.OSSL_FUNC_DIGEST_INIT(),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    static final MethodHandle UPDATE = link(OpenSSL.OSSL_FUNC_DIGEST_UPDATE(),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG), Linker.Option.critical(false));
    static final MethodHandle FINAL = link(OpenSSL.OSSL_FUNC_DIGEST_FINAL(),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG), Linker.Option.critical(false));
    static final MethodHandle DUPCTX = link(OpenSSL.OSSL_FUNC_DIGEST_DUPCTX(),
            FunctionDescriptor.of(ADDRESS, ADDRESS));
    static final MethodHandle FREECTX = link(OpenSSL.OSSL_FUNC_DIGEST_FREECTX(),
            FunctionDescriptor.ofVoid(ADDRESS), Linker.Option.critical(false));

    private ProviderSm3() {
    }

    private static MemorySegment provider() {
        try {
            return OpenSSL.EVP_MD_get0_provider(LibCrypto.sm3());
        } catch (LibCryptoUnavailableException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The dispatch table of the provider's first digest named SM3. */
    private static MemorySegment dispatchTable() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment noCache = arena.allocate(JAVA_INT);
            MemorySegment algorithms = OpenSSL.OSSL_PROVIDER_query_operation(PROVIDER, OpenSSL.OSSL_OP_DIGEST(),
                    noCache);
            try {
                MemorySegment all = algorithms.reinterpret(Long.MAX_VALUE);
                for (long i = 0; ; i++) {
                    MemorySegment entry = ossl_algorithm_st.asSlice(all, i);
                    MemorySegment names = ossl_algorithm_st.algorithm_names(entry);
                    if (names.equals(MemorySegment.NULL)) {
                        throw new IllegalStateException("the provider that serves SM3 lists no SM3 digest");
                    }
                    String aliases = names.reinterpret(Long.MAX_VALUE).getString(0).toUpperCase(Locale.ROOT);
                    if (Arrays.asList(aliases.split(":")).contains("SM3")) {
                        return ossl_algorithm_st.implementation(entry).reinterpret(Long.MAX_VALUE);
                    }
                }
            } finally {
                OpenSSL.OSSL_PROVIDER_unquery_operation(PROVIDER, OpenSSL.OSSL_OP_DIGEST(), algorithms);
            }
        }
    }

    // The table ends with function id 0; the first entry for an id wins, as in OpenSSL.
    private static MethodHandle link(int id, FunctionDescriptor descriptor, Linker.Option... options) {
        for (long i = 0; ; i++) {
            MemorySegment entry = ossl_dispatch_st.asSlice(DISPATCH, i);
            int entryId = ossl_dispatch_st.function_id(entry);
            if (entryId == 0) {
                throw new IllegalStateException("the provider's SM3 has no function " + id);
            }
            if (entryId == id) {
                return Linker.nativeLinker().downcallHandle(ossl_dispatch_st.function(entry), descriptor, options);
            }
        }
    }
}
