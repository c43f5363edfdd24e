package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.openssl.OpenSSL.ERR_clear_error;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_KDF_CTX_dup;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_KDF_CTX_free;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_KDF_CTX_new;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_KDF_CTX_set_params;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_KDF_derive;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_KDF_fetch;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OPENSSL_cleanse;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_KDF_NAME_PBKDF2;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_KDF_PARAM_DIGEST;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_KDF_PARAM_ITER;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_KDF_PARAM_PASSWORD;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_KDF_PARAM_PKCS5;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_KDF_PARAM_PROPERTIES;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_KDF_PARAM_SALT;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_PARAM_construct_end;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_PARAM_construct_int;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_PARAM_construct_octet_string;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_PARAM_construct_uint;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_PARAM_construct_utf8_string;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import io.github.sm3ffm.internal.openssl.ossl_param_st;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.security.ProviderException;
import java.util.ArrayList;
import java.util.List;

/**
 * PBKDF2 (RFC 8018) with HMAC-SM3 by OpenSSL's {@code EVP_KDF} "PBKDF2", fetched once (HKDF and the X9.63
 * KDF are computed over pooled contexts: {@link NativeHkdf}, {@link NativeX963Kdf}). Each derivation is one
 * native call, which can run for seconds, so it is an ordinary downcall (GC may run meanwhile) on native
 * copies of the inputs. Every copy of a secret (the password) and the derived bytes are cleansed before
 * their memory is freed, and OpenSSL clears its own copies when the context goes.
 */
public final class NativePbkdf2 {
    private final MemorySegment kdf;
    /**
     * A context with the digest (and the property query) set, copied for each derivation, never freed; NULL
     * where the provider cannot copy its contexts. Setting the digest fetches it by name, which costs as much
     * as a short derivation; a copy of a context that has it costs a reference count.
     */
    private final MemorySegment digestSet;

    private NativePbkdf2(MemorySegment kdf, MemorySegment digestSet) {
        this.kdf = kdf;
        this.digestSet = digestSet;
    }

    /**
     * Fetches PBKDF2 and sets its digest once, for the JVM's life; called by {@code Algorithm}, which hands
     * the result out once its self-test has passed.
     */
    static NativePbkdf2 fetch() throws LibCryptoUnavailableException {
        ERR_clear_error();
        MemorySegment kdf = EVP_KDF_fetch(MemorySegment.NULL, OSSL_KDF_NAME_PBKDF2(), LibCrypto.propertyQueryString());
        if (kdf.equals(MemorySegment.NULL)) {
            throw new LibCryptoUnavailableException(LibCrypto.version() + " at " + LibCrypto.path()
                    + " cannot give PBKDF2: " + LibCrypto.call("EVP_KDF_fetch", "PBKDF2") + " failed: "
                    + OpenSSLErrors.drain(), null);
        }
        MemorySegment ctx = newContext(kdf);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment array = ossl_param_st.allocateArray(3, arena);
            SegmentAllocator next = SegmentAllocator.slicingAllocator(array);
            digest(next, arena);
            OSSL_PARAM_construct_end(next);
            if (EVP_KDF_CTX_set_params(ctx, array) != 1) {
                ProviderException e = OpenSSLErrors.failure("EVP_KDF_CTX_set_params(digest=SM3)");
                EVP_KDF_CTX_free(ctx);
                throw e;
            }
        }
        MemorySegment copy = EVP_KDF_CTX_dup(ctx);
        if (copy.equals(MemorySegment.NULL)) {
            OpenSSLErrors.drain();
            EVP_KDF_CTX_free(ctx);
            return new NativePbkdf2(kdf, MemorySegment.NULL);
        }
        EVP_KDF_CTX_free(copy);
        return new NativePbkdf2(kdf, ctx);
    }

    private static MemorySegment newContext(MemorySegment kdf) {
        MemorySegment ctx = EVP_KDF_CTX_new(kdf);
        if (ctx.equals(MemorySegment.NULL)) {
            throw OpenSSLErrors.failure("EVP_KDF_CTX_new");
        }
        return ctx;
    }

    /** The parameters {"digest" = "SM3"} and, when one is configured, the property query. */
    private static void digest(SegmentAllocator next, Arena arena) {
        // Each struct-returning call writes its OSSL_PARAM into the next element.
        OSSL_PARAM_construct_utf8_string(next, OSSL_KDF_PARAM_DIGEST(), arena.allocateFrom("SM3"), 0);
        MemorySegment query = LibCrypto.propertyQueryString();
        if (!query.equals(MemorySegment.NULL)) {
            // The SM3 (and HMAC-SM3) inside comes from the same providers as everything else.
            OSSL_PARAM_construct_utf8_string(next, OSSL_KDF_PARAM_PROPERTIES(), query, 0);
        }
    }

    /**
     * Derives {@code length} bytes with PBKDF2. The caller has checked the arguments as the JDK's PBKDF2 does;
     * OpenSSL's SP 800-132 lower bounds (16-byte salt, 1000 iterations, 14-byte key) are switched off
     * ("pkcs5" = 1) because PKCS #5 and the JDK accept less.
     */
    public byte[] derive(byte[] password, byte[] salt, int iterations, int length) {
        if (length == 0) {
            return new byte[0];
        }
        try (Params p = new Params()) {
            p.secret(OSSL_KDF_PARAM_PASSWORD(), password);
            p.octets(OSSL_KDF_PARAM_SALT(), salt);
            p.add(next -> OSSL_PARAM_construct_uint(next, OSSL_KDF_PARAM_ITER(), p.arena.allocateFrom(JAVA_INT, iterations)));
            p.add(next -> OSSL_PARAM_construct_int(next, OSSL_KDF_PARAM_PKCS5(), p.arena.allocateFrom(JAVA_INT, 1)));
            return p.derive(this, length);
        }
    }

    /** The parameters of one derivation and their native memory; secrets are cleansed on close. */
    private static final class Params implements AutoCloseable {
        interface Param {
            void construct(SegmentAllocator next);
        }

        final Arena arena = Arena.ofConfined();
        private final List<Param> params = new ArrayList<>();
        private final List<MemorySegment> secrets = new ArrayList<>();

        void add(Param p) {
            params.add(p);
        }

        void octets(MemorySegment name, byte[] value) {
            // Never NULL, even when empty: a NULL pointer would mean "not given".
            MemorySegment copy = arena.allocate(Math.max(1, value.length));
            MemorySegment.copy(value, 0, copy, JAVA_BYTE, 0, value.length);
            add(next -> OSSL_PARAM_construct_octet_string(next, name, copy, value.length));
        }

        void secret(MemorySegment name, byte[] value) {
            secrets.add(arena.allocate(Math.max(1, value.length)));
            MemorySegment copy = secrets.getLast();
            MemorySegment.copy(value, 0, copy, JAVA_BYTE, 0, value.length);
            add(next -> OSSL_PARAM_construct_octet_string(next, name, copy, value.length));
        }

        byte[] derive(NativePbkdf2 kdf, int length) {
            MemorySegment out = arena.allocate(Math.max(1, length));
            secrets.add(out);
            boolean copy = !kdf.digestSet.equals(MemorySegment.NULL);
            MemorySegment array = ossl_param_st.allocateArray(params.size() + 3, arena);
            SegmentAllocator next = SegmentAllocator.slicingAllocator(array);
            if (!copy) {
                digest(next, arena);
            }
            for (Param p : params) {
                p.construct(next);
            }
            OSSL_PARAM_construct_end(next);
            MemorySegment ctx = copy ? EVP_KDF_CTX_dup(kdf.digestSet) : newContext(kdf.kdf);
            if (ctx.equals(MemorySegment.NULL)) {
                throw OpenSSLErrors.failure("EVP_KDF_CTX_dup");
            }
            try {
                OpenSSLErrors.check(EVP_KDF_derive(ctx, out, length, array), "EVP_KDF_derive");
            } finally {
                EVP_KDF_CTX_free(ctx);
            }
            return out.asSlice(0, length).toArray(JAVA_BYTE);
        }

        @Override
        public void close() {
            for (MemorySegment s : secrets) {
                OPENSSL_cleanse(s, s.byteSize());
            }
            arena.close();
        }
    }
}
