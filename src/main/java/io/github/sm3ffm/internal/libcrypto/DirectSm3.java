package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.KnownAnswers.SM3_ABC;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OpenSSL_version_num;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HexFormat;

/**
 * The SM3 functions of the provider that {@code EVP_MD_fetch} chose, found ({@link ProviderLookup}) to be called without
 * EVP (provider-digest(7)) and linked ({@link Linked}): {@code newctx}, {@code init},
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
 * What the functions offer, and how contexts are copied, is decided here ({@link #offer}); copying OpenSSL's own
 * {@code SM3_CTX} as bytes needs the release number, the provider's name and a read-only proof of the layout
 * first ({@link Sm3CtxLayout}), and {@code -Dsm3ffm.sm3.stateCopy=false} turns that copy off alone.
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

    /** System property: {@code false} keeps contexts from being copied as {@code SM3_CTX} bytes (dupctx instead). */
    static final String STATE_COPY_PROPERTY = "sm3ffm.sm3.stateCopy";

    /** OpenSSL_version_num() of 3.5.0: releases from 3.0 up to it have OpenSSL's SM3_CTX and no copyctx. */
    private static final long OPENSSL_3_5 = 0x3050_0000L;

    private DirectSm3() {
    }

    /** How the provider's contexts are copied; {@link BackendChoice} maps it to a backend. */
    enum Copies {
        /** With its copyctx, into an existing context (OpenSSL 3.5 and later). */
        COPYCTX,
        /** As the bytes of OpenSSL's own {@code SM3_CTX}, from Java (OpenSSL 3.0 to 3.4, layout proved at load). */
        STATE_BYTES,
        /** With its dupctx, which allocates the copy. */
        DUPCTX
    }

    /**
     * What the loaded libcrypto offers SM3's direct path: why the provider's functions are not used (null when
     * they are), whose they are, how its contexts are copied, and the functions linked.
     */
    record Offer(String reason, String provider, Copies copies, Linked linked) {
        static Offer evp(String reason) {
            return new Offer(reason, null, null, null);
        }

        /** Whether SM3 calls go to the provider directly; else through EVP. */
        boolean direct() {
            return reason == null;
        }
    }

    /**
     * What {@code found}, linked as {@code linked}, offers once checked through {@code calls} (the linked functions,
     * or a test's wrapper around them): EVP when they hash "abc" wrong, else the functions and how to copy their
     * contexts. A check that could not run (a call failed) throws, and decides nothing.
     */
    static Offer offer(Found found, Linked linked, ProviderCalls calls) throws Throwable {
        String wrong = abcCheck(calls);
        if (wrong != null) {
            return Offer.evp(wrong);
        }
        Copies copies = copies(linked.copyInto() != null, System.getProperty(STATE_COPY_PROPERTY), found.provider(),
                OpenSSL_version_num(), calls, () -> copyCheck(calls));
        return new Offer(null, found.provider(), copies, linked);
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
     * A proof or check that could not run throws.
     */
    static Copies copies(boolean copyctx, String stateCopy, String providerName, long versionNum,
                         ProviderCalls calls, Check copyCheck) throws Throwable {
        if (copyctx) {
            return Copies.COPYCTX;
        }
        if ("false".equalsIgnoreCase(stateCopy) || !"default".equals(providerName) || !hasSm3Ctx(versionNum)) {
            return Copies.DUPCTX;
        }
        return Sm3CtxLayout.proved(calls) && copyCheck.passes() ? Copies.STATE_BYTES : Copies.DUPCTX;
    }

    /** Whether {@code versionNum}, OpenSSL_version_num(), is a release from 3.0 to 3.4. */
    static boolean hasSm3Ctx(long versionNum) {
        return versionNum >= Candidate.OPENSSL_3_0 && versionNum < OPENSSL_3_5;
    }

    /**
     * Whether contexts copied as {@link Sm3CtxLayout#SM3_CTX_BYTES} bytes, into a context in the middle of another
     * message, finish as the source and its dupctx copy do, from every point of a block and across blocks.
     * Package-private so that tests hand it stand-ins whose byte copy is wrong.
     */
    static boolean copyCheck(ProviderCalls calls) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            byte[] bytes = new byte[300];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) (i * 7 + 1);
            }
            MemorySegment message = arena.allocateFrom(JAVA_BYTE, bytes);
            MemorySegment out = arena.allocate(3 * Sm3Sizes.DIGEST_LENGTH);
            MemorySegment outl = arena.allocate(JAVA_LONG);
            for (long n : new long[] {0, 1, 31, 55, 56, 63, 64, 65, 127, 128, 200}) {
                if (!byteCopyAgrees(calls, message, n, out, outl)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** One point of {@link #copyCheck}: a source that has taken {@code n} bytes of {@code message}. */
    private static boolean byteCopyAgrees(ProviderCalls calls, MemorySegment message, long n, MemorySegment out,
                                          MemorySegment outl) throws Throwable {
        MemorySegment src = MemorySegment.NULL;
        MemorySegment into = MemorySegment.NULL;
        MemorySegment dup = MemorySegment.NULL;
        try {
            src = calls.newctxOrThrow();
            into = calls.newctxOrThrow();
            calls.initOrThrow(src);
            calls.updateOrThrow(src, message, n);
            calls.initOrThrow(into);
            calls.updateOrThrow(into, message.asSlice(1), 199L - n / 2);
            dup = calls.dupctxOrThrow(src);
            long bytes = Sm3CtxLayout.SM3_CTX_BYTES;
            MemorySegment.copy(src.reinterpret(bytes), 0, into.reinterpret(bytes), 0, bytes);
            MemorySegment[] all = {src, into, dup};
            for (int k = 0; k < all.length; k++) {
                calls.updateOrThrow(all[k], message.asSlice(n), 77L);
                calls.finOrThrow(all[k], out.asSlice(k * Sm3Sizes.DIGEST_LENGTH), outl);
            }
            long d = Sm3Sizes.DIGEST_LENGTH;
            return out.asSlice(0, d).mismatch(out.asSlice(d, d)) == -1
                    && out.asSlice(0, d).mismatch(out.asSlice(2 * d, d)) == -1;
        } finally {
            calls.freeIfMade(src);
            calls.freeIfMade(into);
            calls.freeIfMade(dup);
        }
    }

    /** Hashes "abc" through {@code calls}; null when they give the standard's digest, else what they gave. */
    static String abcCheck(ProviderCalls calls) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ctx = calls.newctxOrThrow();
            try {
                MemorySegment in = arena.allocateFrom("abc");
                MemorySegment out = arena.allocate(Sm3Sizes.DIGEST_LENGTH);
                MemorySegment outl = arena.allocate(JAVA_LONG);
                calls.initOrThrow(ctx);
                calls.updateOrThrow(ctx, in, 3L);
                calls.finOrThrow(ctx, out, outl);
                String digest = HexFormat.of().formatHex(out.toArray(JAVA_BYTE));
                if (outl.get(JAVA_LONG, 0) != Sm3Sizes.DIGEST_LENGTH || !digest.equals(SM3_ABC)) {
                    return "the provider's SM3 functions gave SM3(\"abc\") = " + digest;
                }
                return null;
            } finally {
                calls.freectx(ctx);
            }
        }
    }
}
