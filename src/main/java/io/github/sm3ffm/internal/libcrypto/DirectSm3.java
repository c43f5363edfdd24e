package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.ProviderBackend.Functions.COPYCTX;
import static io.github.sm3ffm.internal.libcrypto.ProviderBackend.Functions.DUPCTX;
import static io.github.sm3ffm.internal.libcrypto.ProviderBackend.Functions.FINAL;
import static io.github.sm3ffm.internal.libcrypto.ProviderBackend.Functions.FREECTX;
import static io.github.sm3ffm.internal.libcrypto.ProviderBackend.Functions.INIT;
import static io.github.sm3ffm.internal.libcrypto.ProviderBackend.Functions.NEWCTX;
import static io.github.sm3ffm.internal.libcrypto.ProviderBackend.Functions.PROVIDER_CTX;
import static io.github.sm3ffm.internal.libcrypto.ProviderBackend.Functions.UPDATE;
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
import static io.github.sm3ffm.internal.openssl.OpenSSL.OpenSSL_version_num;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.github.sm3ffm.internal.openssl.ossl_algorithm_st;
import io.github.sm3ffm.internal.openssl.ossl_dispatch_st;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The SM3 functions of the provider that {@code EVP_MD_fetch} chose, found ({@link Lookup}) to be called without
 * EVP (provider-digest(7)) and linked by {@link ProviderBackend.Functions}: {@code newctx}, {@code init},
 * {@code update}, {@code final}, {@code dupctx},
 * {@code freectx}, found through {@code EVP_MD_get0_provider} and {@code OSSL_PROVIDER_query_operation};
 * and {@code copyctx} where the provider has it (OpenSSL 3.5 and later), a copy into an existing context
 * without the allocation and free of a {@code dupctx}.
 *
 * <p>Why: on OpenSSL 3.0, EVP adds checks, the {@code EVP_MD_CTX} indirection and, in
 * {@code EVP_MD_CTX_copy_ex}, a reset and reference counting around {@code dupctx}, a share of a short digest
 * worth the path (docs/design-notebook.md has the measurements). On OpenSSL 3.5 and later EVP's share is smaller; the
 * path is the same.
 *
 * <p>EVP's guarantees are kept, or the path is not used and EVP serves every call:
 * <ul>
 * <li>only the provider that {@code EVP_MD_fetch} chose under the configured properties, and only when it
 * has exactly one digest named SM3 (a second entry, with other properties, would be ambiguous);</li>
 * <li>not when an {@code ENGINE} is registered for SM3: EVP would route the digest there;</li>
 * <li>all six functions present ({@code copyctx} is optional); dispatch ids this class does not know are
 * ignored;</li>
 * <li>the init/update/final order is kept by the pooled contexts, whose users start a
 * message before they feed it and start it again after every final;</li>
 * <li>the GB/T 32905-2016 "abc" example is hashed through these functions before they are used;</li>
 * <li>{@code -Dsm3ffm.sm3.direct=false} turns the path off.</li>
 * </ul>
 * How contexts are copied is decided here once ({@link #COPIES}); copying OpenSSL's own {@code SM3_CTX} as
 * bytes needs the release number, the provider's name and a read-only proof of the layout first
 * ({@link Sm3CtxLayout}), and {@code -Dsm3ffm.sm3.stateCopy=false} turns that copy off alone.
 * The fetched {@code EVP_MD}, kept for the JVM's life, holds a reference to its provider, so the
 * functions stay loaded.
 */
final class DirectSm3 {
    /** System property: {@code false} makes every SM3 call go through EVP. */
    static final String PROPERTY = "sm3ffm.sm3.direct";

    /**
     * {@code OSSL_FUNC_DIGEST_COPYCTX}: OpenSSL 3.5 added it to core_dispatch.h, after the 3.0 headers that
     * the bindings are generated from.
     */
    static final int OSSL_FUNC_DIGEST_COPYCTX = 15;

    /** What the lookup found, in a holder of its own: {@link ProviderBackend.Functions} links from it. */
    static final class Lookup {
        static final Found FOUND = findOrExplain();

        private Lookup() {
        }

        // Never throws: a class whose initialiser fails is unusable for the JVM's life.
        private static Found findOrExplain() {
            try {
                return find();
            } catch (Throwable t) {
                return Found.no("looking up the provider's SM3 functions failed: " + t);
            }
        }

        private static Found find() {
            if ("false".equalsIgnoreCase(System.getProperty(PROPERTY))) {
                return Found.no(PROPERTY + "=false");
            }
            MemorySegment md = LibCrypto.fetchedSm3();
            if (md.equals(MemorySegment.NULL)) {
                return Found.no("SM3 is unavailable");
            }
            SymbolLookup loaded = SymbolLookup.loaderLookup();
            // Builds without engines (and OpenSSL 4) have neither function, and no engine can take SM3 there.
            if (loaded.find("ENGINE_get_digest_engine").isPresent()
                    && loaded.find("ENGINE_finish").isPresent()) {
                MemorySegment engine = ENGINE_get_digest_engine(NID_sm3());
                if (!engine.equals(MemorySegment.NULL)) {
                    ENGINE_finish(engine);
                    return Found.no("an ENGINE is registered for SM3");
                }
            }
            MemorySegment provider = EVP_MD_get0_provider(md);
            if (provider.equals(MemorySegment.NULL)) {
                return Found.no("the fetched SM3 has no provider");
            }
            String name = OSSL_PROVIDER_get0_name(provider).reinterpret(Long.MAX_VALUE).getString(0);
            MemorySegment dispatch;
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment noCache = arena.allocate(JAVA_INT);
                MemorySegment algorithms = OSSL_PROVIDER_query_operation(provider, OSSL_OP_DIGEST(), noCache);
                if (algorithms.equals(MemorySegment.NULL)) {
                    return Found.no("provider \"" + name + "\" lists no digests");
                }
                try {
                    List<MemorySegment> sm3 = sm3Implementations(algorithms);
                    if (sm3.size() != 1) {
                        return Found.no("provider \"" + name + "\" has " + sm3.size() + " digests named SM3");
                    }
                    dispatch = sm3.get(0);
                } finally {
                    OSSL_PROVIDER_unquery_operation(provider, OSSL_OP_DIGEST(), algorithms);
                }
            }
            Map<Integer, MemorySegment> functions = functions(dispatch);
            int[] needed = {OSSL_FUNC_DIGEST_NEWCTX(), OSSL_FUNC_DIGEST_INIT(), OSSL_FUNC_DIGEST_UPDATE(),
                    OSSL_FUNC_DIGEST_FINAL(), OSSL_FUNC_DIGEST_FREECTX(), OSSL_FUNC_DIGEST_DUPCTX()};
            for (int id : needed) {
                if (functions.get(id) == null) {
                    return Found.no("provider \"" + name + "\" has no SM3 function " + id);
                }
            }
            MemorySegment providerCtx = OSSL_PROVIDER_get0_provider_ctx(provider);
            return new Found(null, name, providerCtx, functions.get(needed[0]), functions.get(needed[1]),
                    functions.get(needed[2]), functions.get(needed[3]), functions.get(needed[4]),
                    functions.get(needed[5]),
                    functions.get(OSSL_FUNC_DIGEST_COPYCTX));
        }

        // Entries end with a NULL name list; a name list is "SM3:1.2.156.10197.1.401" and the like.
        private static List<MemorySegment> sm3Implementations(MemorySegment algorithms) {
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
    }

    private static final Found FOUND = Lookup.FOUND;

    /** Why SM3 goes through EVP: nothing usable was found, or the functions found hash "abc" wrong. */
    static final String REASON = FOUND.reason != null ? FOUND.reason : check();
    /** Whether SM3 calls go to the provider directly; else through EVP. */
    static final boolean ENABLED = REASON == null;
    /** The name of the provider whose functions are called, or null. */
    static final String PROVIDER_NAME = FOUND.provider;

    /** System property: {@code false} keeps contexts from being copied as {@code SM3_CTX} bytes (dupctx instead). */
    static final String STATE_COPY_PROPERTY = "sm3ffm.sm3.stateCopy";

    /** How the provider's contexts are copied; decided here once, and {@link Backend#choose} maps it to a backend. */
    enum Copies {
        /** With its copyctx, into an existing context (OpenSSL 3.5 and later). */
        COPYCTX,
        /** As the bytes of OpenSSL's own {@code SM3_CTX}, from Java (OpenSSL 3.0 to 3.4, layout proved at load). */
        STATE_BYTES,
        /** With its dupctx, which allocates the copy. */
        DUPCTX
    }

    /** Bytes of OpenSSL's {@code SM3_CTX}: 8 + 2 + 16 + 1 four-byte words, from 1.1.1 to 3.4. */
    static final long SM3_CTX_BYTES = 108;

    /** The way contexts are copied; null when EVP serves SM3. */
    static final Copies COPIES = ENABLED ? copies() : null;

    /**
     * What the loaded libcrypto offers SM3's direct path: why the provider's functions are not used (null when
     * they are), whose they are, and how its contexts are copied. {@link Backend#choose} maps it to a backend.
     */
    record Offer(String reason, String provider, Copies copies) {
    }

    /** The offer of this JVM's libcrypto, decided once. */
    static final Offer OFFER = new Offer(REASON, PROVIDER_NAME, COPIES);

    private DirectSm3() {
    }

    /** What was found, or why the path is not used. */
    record Found(String reason, String provider, MemorySegment providerCtx, MemorySegment newctx,
                         MemorySegment init, MemorySegment update, MemorySegment fin, MemorySegment freectx,
                         MemorySegment dupctx, MemorySegment copyctx) {
        static Found no(String reason) {
            return new Found(reason, null, null, null, null, null, null, null, null, null);
        }
    }

    /** OpenSSL_version_num() of 3.5.0: releases from 3.0 up to it have OpenSSL's SM3_CTX and no copyctx. */
    private static final long OPENSSL_3_5 = 0x3050_0000L;

    private static Copies copies() {
        return copies(COPYCTX != null, System.getProperty(STATE_COPY_PROPERTY), PROVIDER_NAME, OpenSSL_version_num(),
                Sm3CtxLayout.Calls.LINKED, DirectSm3::copyCheck);
    }

    /** A check that may throw, as the calls through method handles declare. */
    interface Check {
        boolean passes() throws Throwable;
    }

    /**
     * How the provider's contexts are copied, from what the loaded libcrypto offers: its copyctx where it has one;
     * else OpenSSL's own {@code SM3_CTX} as bytes, only from OpenSSL 3.0 to 3.4's default provider, unless
     * {@code stateCopy} is "false", and only once the layout is proved through {@code calls} (read-only, asked
     * last, so that nothing is written into a context as bytes before) and {@code copyCheck} passes; else dupctx.
     */
    static Copies copies(boolean copyctx, String stateCopy, String providerName, long versionNum,
                         Sm3CtxLayout.Calls calls, Check copyCheck) {
        if (copyctx) {
            return Copies.COPYCTX;
        }
        if ("false".equalsIgnoreCase(stateCopy) || !"default".equals(providerName) || !hasSm3Ctx(versionNum)) {
            return Copies.DUPCTX;
        }
        try {
            return Sm3CtxLayout.proved(calls) && copyCheck.passes() ? Copies.STATE_BYTES : Copies.DUPCTX;
        } catch (Throwable t) {
            return Copies.DUPCTX;
        }
    }

    /** Whether {@code versionNum}, OpenSSL_version_num(), is a release from 3.0 to 3.4. */
    static boolean hasSm3Ctx(long versionNum) {
        return versionNum >= LibCrypto.OPENSSL_3_0 && versionNum < OPENSSL_3_5;
    }

    /**
     * Whether contexts copied as {@link #SM3_CTX_BYTES} bytes, into a context in the middle of another message,
     * finish as the source and its dupctx copy do, from every point of a block and across blocks.
     */
    private static boolean copyCheck() throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            byte[] bytes = new byte[300];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) (i * 7 + 1);
            }
            MemorySegment message = arena.allocateFrom(JAVA_BYTE, bytes);
            MemorySegment out = arena.allocate(3 * Sm3Sizes.DIGEST_LENGTH);
            MemorySegment outl = arena.allocate(JAVA_LONG);
            for (long n : new long[] {0, 1, 31, 55, 56, 63, 64, 65, 127, 128, 200}) {
                MemorySegment src = MemorySegment.NULL;
                MemorySegment into = MemorySegment.NULL;
                MemorySegment dup = MemorySegment.NULL;
                try {
                    src = newContext();
                    into = newContext();
                    int rc = (int) INIT.invokeExact(src, MemorySegment.NULL);
                    rc &= (int) UPDATE.invokeExact(src, message, n);
                    rc &= (int) INIT.invokeExact(into, MemorySegment.NULL);
                    rc &= (int) UPDATE.invokeExact(into, message.asSlice(1), 199L - n / 2);
                    dup = (MemorySegment) DUPCTX.invokeExact(src);
                    if (rc != 1 || dup.equals(MemorySegment.NULL)) {
                        return false;
                    }
                    MemorySegment.copy(src.reinterpret(SM3_CTX_BYTES), 0, into.reinterpret(SM3_CTX_BYTES), 0,
                            SM3_CTX_BYTES);
                    MemorySegment[] all = {src, into, dup};
                    for (int k = 0; k < all.length; k++) {
                        rc &= (int) UPDATE.invokeExact(all[k], message.asSlice(n), 77L);
                        rc &= (int) FINAL.invokeExact(all[k], out.asSlice(k * Sm3Sizes.DIGEST_LENGTH), outl,
                                (long) Sm3Sizes.DIGEST_LENGTH);
                    }
                    long d = Sm3Sizes.DIGEST_LENGTH;
                    if (rc != 1 || out.asSlice(0, d).mismatch(out.asSlice(d, d)) != -1
                            || out.asSlice(0, d).mismatch(out.asSlice(2 * d, d)) != -1) {
                        return false;
                    }
                } finally {
                    for (MemorySegment c : new MemorySegment[] {src, into, dup}) {
                        if (!c.equals(MemorySegment.NULL)) {
                            FREECTX.invokeExact(c);
                        }
                    }
                }
            }
            return true;
        }
    }

    private static MemorySegment newContext() throws Throwable {
        MemorySegment ctx = (MemorySegment) NEWCTX.invokeExact(PROVIDER_CTX);
        if (ctx.equals(MemorySegment.NULL)) {
            throw new IllegalStateException("the provider's SM3 newctx failed");
        }
        return ctx;
    }

    /** Hashes "abc" through the functions found; null when they give the standard's digest. */
    private static String check() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ctx = (MemorySegment) NEWCTX.invokeExact(PROVIDER_CTX);
            if (ctx.equals(MemorySegment.NULL)) {
                return "the provider's SM3 newctx failed";
            }
            try {
                MemorySegment in = arena.allocateFrom("abc");
                MemorySegment out = arena.allocate(Sm3Sizes.DIGEST_LENGTH);
                MemorySegment outl = arena.allocate(JAVA_LONG);
                int rc = (int) INIT.invokeExact(ctx, MemorySegment.NULL);
                rc &= (int) UPDATE.invokeExact(ctx, in, 3L);
                rc &= (int) FINAL.invokeExact(ctx, out, outl, (long) Sm3Sizes.DIGEST_LENGTH);
                String digest = HexFormat.of().formatHex(out.toArray(JAVA_BYTE));
                if (rc != 1 || outl.get(JAVA_LONG, 0) != Sm3Sizes.DIGEST_LENGTH
                        || !digest.equals(Algorithm.SM3_ABC)) {
                    return "the provider's SM3 functions gave SM3(\"abc\") = " + digest;
                }
                return null;
            } finally {
                FREECTX.invokeExact(ctx);
            }
        } catch (Throwable t) {
            return "the provider's SM3 functions failed: " + t;
        }
    }
}
