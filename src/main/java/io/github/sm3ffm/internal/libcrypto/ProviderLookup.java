package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.openssl.OpenSSL.ENGINE_finish;
import static io.github.sm3ffm.internal.openssl.OpenSSL.ENGINE_get_digest_engine;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_get0_provider;
import static io.github.sm3ffm.internal.openssl.OpenSSL.NID_sm3;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_FUNC_DIGEST_DUPCTX;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_FUNC_DIGEST_FINAL;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_FUNC_DIGEST_FREECTX;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_FUNC_DIGEST_INIT;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_FUNC_DIGEST_NEWCTX;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_FUNC_DIGEST_UPDATE;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_OP_DIGEST;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_PROVIDER_get0_name;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_PROVIDER_get0_provider_ctx;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_PROVIDER_query_operation;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_PROVIDER_unquery_operation;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import io.github.sm3ffm.internal.openssl.ossl_algorithm_st;
import io.github.sm3ffm.internal.openssl.ossl_dispatch_st;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.security.ProviderException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Finds the SM3 functions of the provider that {@code EVP_MD_fetch} chose (provider-digest(7)), through
 * {@code EVP_MD_get0_provider} and {@code OSSL_PROVIDER_query_operation}, under the conditions {@link DirectSm3}
 * lists; else says why they are not used.
 */
final class ProviderLookup {
    private ProviderLookup() {
    }

    /**
     * The functions behind {@code md}, the fetched SM3 (NULL when there is none), or why they are not used. A lookup
     * that could not run (a failed call, an allocation) throws: that is no reason to give up the functions for good.
     */
    static Found find(MemorySegment md) {
        return find(md, System.getProperty(DirectSm3.PROPERTY));
    }

    /**
     * As {@link #find(MemorySegment)}, with {@code direct} for the value of {@link DirectSm3#PROPERTY}: tests look
     * the functions up whatever backend their JVM runs on.
     */
    static Found find(MemorySegment md, String direct) {
        try {
            return lookUp(md, direct);
        } catch (ProviderException | Error e) {
            throw e;
        } catch (RuntimeException e) {
            return Found.no("looking up the provider's SM3 functions failed: " + e);
        }
    }

    private static Found lookUp(MemorySegment md, String direct) {
        if ("false".equalsIgnoreCase(direct)) {
            return Found.no(DirectSm3.PROPERTY + "=false");
        }
        if (md.equals(MemorySegment.NULL)) {
            return Found.no("SM3 is unavailable");
        }
        if (engineTakesSm3()) {
            return Found.no("an ENGINE is registered for SM3");
        }
        MemorySegment provider = EVP_MD_get0_provider(md);
        if (provider.equals(MemorySegment.NULL)) {
            return Found.no("the fetched SM3 has no provider");
        }
        String name = OSSL_PROVIDER_get0_name(provider).reinterpret(Long.MAX_VALUE).getString(0);
        List<MemorySegment> sm3 = sm3Implementations(provider);
        if (sm3 == null) {
            return Found.no("provider \"" + name + "\" lists no digests");
        }
        if (sm3.size() != 1) {
            return Found.no("provider \"" + name + "\" has " + sm3.size() + " digests named SM3");
        }
        return found(name, provider, functions(sm3.get(0)));
    }

    // Builds without engines (and OpenSSL 4) have neither function, and no engine can take SM3 there.
    private static boolean engineTakesSm3() {
        SymbolLookup loaded = SymbolLookup.loaderLookup();
        if (loaded.find("ENGINE_get_digest_engine").isEmpty() || loaded.find("ENGINE_finish").isEmpty()) {
            return false;
        }
        MemorySegment engine = ENGINE_get_digest_engine(NID_sm3());
        if (engine.equals(MemorySegment.NULL)) {
            return false;
        }
        ENGINE_finish(engine);
        return true;
    }

    /** The dispatch tables of {@code provider}'s digests named SM3; null when it lists no digests. */
    private static List<MemorySegment> sm3Implementations(MemorySegment provider) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment noCache = arena.allocate(JAVA_INT);
            MemorySegment algorithms = OSSL_PROVIDER_query_operation(provider, OSSL_OP_DIGEST(), noCache);
            if (algorithms.equals(MemorySegment.NULL)) {
                return null;
            }
            try {
                return namedSm3(algorithms);
            } finally {
                OSSL_PROVIDER_unquery_operation(provider, OSSL_OP_DIGEST(), algorithms);
            }
        }
    }

    // Entries end with a NULL name list; a name list is "SM3:1.2.156.10197.1.401" and the like.
    private static List<MemorySegment> namedSm3(MemorySegment algorithms) {
        List<MemorySegment> sm3 = new ArrayList<>();
        MemorySegment all = algorithms.reinterpret(Long.MAX_VALUE);
        for (long i = 0; ; i++) {
            MemorySegment entry = ossl_algorithm_st.asSlice(all, i);
            MemorySegment names = ossl_algorithm_st.algorithm_names(entry);
            if (names.equals(MemorySegment.NULL)) {
                return sm3;
            }
            for (String n : names.reinterpret(Long.MAX_VALUE).getString(0).split(":")) {
                if (n.trim().toUpperCase(Locale.ROOT).equals("SM3")) {
                    sm3.add(ossl_algorithm_st.implementation(entry));
                    break;
                }
            }
        }
    }

    // The table ends with function id 0; the first entry for an id wins, as in OpenSSL.
    private static Map<Integer, MemorySegment> functions(MemorySegment dispatch) {
        Map<Integer, MemorySegment> functions = new HashMap<>();
        MemorySegment all = dispatch.reinterpret(Long.MAX_VALUE);
        for (long i = 0; ; i++) {
            MemorySegment entry = ossl_dispatch_st.asSlice(all, i);
            int id = ossl_dispatch_st.function_id(entry);
            if (id == 0) {
                return functions;
            }
            functions.putIfAbsent(id, ossl_dispatch_st.function(entry));
        }
    }

    /** All six functions, and copyctx where the provider has it; dispatch ids not known here are ignored. */
    private static Found found(String name, MemorySegment provider, Map<Integer, MemorySegment> functions) {
        int[] needed = {OSSL_FUNC_DIGEST_NEWCTX(), OSSL_FUNC_DIGEST_INIT(), OSSL_FUNC_DIGEST_UPDATE(),
                OSSL_FUNC_DIGEST_FINAL(), OSSL_FUNC_DIGEST_FREECTX(), OSSL_FUNC_DIGEST_DUPCTX()};
        for (int id : needed) {
            if (functions.get(id) == null) {
                return Found.no("provider \"" + name + "\" has no SM3 function " + id);
            }
        }
        MemorySegment providerCtx = OSSL_PROVIDER_get0_provider_ctx(provider);
        return new Found(null, name, providerCtx, functions.get(needed[0]), functions.get(needed[1]),
                functions.get(needed[2]), functions.get(needed[3]), functions.get(needed[4]), functions.get(needed[5]),
                functions.get(DirectSm3.OSSL_FUNC_DIGEST_COPYCTX));
    }
}
