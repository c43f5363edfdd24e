package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_KDF_CTX_free;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_KDF_CTX_new;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_KDF_derive;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OPENSSL_cleanse;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_KDF_PARAM_DIGEST;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_KDF_PARAM_PROPERTIES;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_KDF_PARAM_ITER;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_KDF_PARAM_PASSWORD;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_KDF_PARAM_PKCS5;
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

/**
 * PBKDF2 (RFC 8018) with HMAC-SM3 by OpenSSL's {@code EVP_KDF} "PBKDF2": every iteration of every block
 * in one native call. That call can run for seconds, so it is an ordinary downcall (GC may run
 * meanwhile) on native copies of the inputs; the copies of the password and the derived key are cleansed
 * before their memory is freed, and OpenSSL clears its own copy of the password when the context goes.
 */
public final class NativePbkdf2 {
    private final MemorySegment kdf;

    private NativePbkdf2(MemorySegment kdf) {
        this.kdf = kdf;
    }

    /** PBKDF2 with HMAC-SM3, or why libcrypto cannot give it. */
    public static NativePbkdf2 create() throws LibCryptoUnavailableException {
        return new NativePbkdf2(LibCrypto.pbkdf2());
    }

    /**
     * Derives {@code length} bytes. The caller has checked the arguments as the JDK's PBKDF2 does; OpenSSL's
     * SP 800-132 lower bounds (16-byte salt, 1000 iterations, 14-byte key) are switched off ("pkcs5" = 1)
     * because PKCS #5 and the JDK accept less.
     */
    public byte[] derive(byte[] password, byte[] salt, int iterations, int length) {
        byte[] key = new byte[length];
        if (length == 0) {
            return key;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pass = arena.allocate(Math.max(1, password.length));
            MemorySegment out = arena.allocate(length);
            try {
                MemorySegment.copy(password, 0, pass, JAVA_BYTE, 0, password.length);
                MemorySegment params = ossl_param_st.allocateArray(7, arena);
                // Each struct-returning call writes its OSSL_PARAM into the next element.
                SegmentAllocator next = SegmentAllocator.slicingAllocator(params);
                OSSL_PARAM_construct_octet_string(next, OSSL_KDF_PARAM_PASSWORD(), pass, password.length);
                OSSL_PARAM_construct_octet_string(next, OSSL_KDF_PARAM_SALT(),
                        arena.allocateFrom(JAVA_BYTE, salt), salt.length);
                OSSL_PARAM_construct_uint(next, OSSL_KDF_PARAM_ITER(), arena.allocateFrom(JAVA_INT, iterations));
                OSSL_PARAM_construct_utf8_string(next, OSSL_KDF_PARAM_DIGEST(), arena.allocateFrom("SM3"), 0);
                OSSL_PARAM_construct_int(next, OSSL_KDF_PARAM_PKCS5(), arena.allocateFrom(JAVA_INT, 1));
                MemorySegment query = LibCrypto.propertyQueryString();
                if (!query.equals(MemorySegment.NULL)) {
                    // The HMAC-SM3 inside comes from the same providers as everything else.
                    OSSL_PARAM_construct_utf8_string(next, OSSL_KDF_PARAM_PROPERTIES(), query, 0);
                }
                OSSL_PARAM_construct_end(next);
                derive(out, params);
                MemorySegment.copy(out, JAVA_BYTE, 0, key, 0, length);
                return key;
            } finally {
                OPENSSL_cleanse(pass, pass.byteSize());
                OPENSSL_cleanse(out, out.byteSize());
            }
        }
    }

    private void derive(MemorySegment out, MemorySegment params) {
        MemorySegment ctx = EVP_KDF_CTX_new(kdf);
        if (ctx.equals(MemorySegment.NULL)) {
            throw OpenSSLErrors.failure("EVP_KDF_CTX_new");
        }
        try {
            OpenSSLErrors.check(EVP_KDF_derive(ctx, out, out.byteSize(), params), "EVP_KDF_derive");
        } finally {
            EVP_KDF_CTX_free(ctx);
        }
    }
}
