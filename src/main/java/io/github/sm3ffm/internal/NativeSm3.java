package io.github.sm3ffm.internal;

import static io.github.sm3ffm.internal.openssl.OpenSSL.CRYPTO_clear_free;
import static io.github.sm3ffm.internal.openssl.OpenSSL.CRYPTO_malloc;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestFinal_ex$address;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestFinal_ex$descriptor;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestInit_ex2$address;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestInit_ex2$descriptor;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestUpdate$address;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestUpdate$descriptor;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_CTX_copy_ex;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_CTX_free;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_CTX_new;

import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.security.ProviderException;

/**
 * The native side of one SM3 computation: an {@code EVP_MD_CTX} and an off-heap staging buffer, both
 * owned by this object and freed by {@link #run()}, which is the {@link java.lang.ref.Cleaner} action.
 * It holds no reference to the digest object that uses it, so it never keeps that object alive.
 *
 * <p>Not thread-safe: the caller serialises access.
 */
final class NativeSm3 implements Runnable {
    private static final Linker LINKER = Linker.nativeLinker();
    // Critical handles skip the thread-state transition and may read and write Java arrays in place.
    // They hold off GC for their duration, so heap input is fed in bounded chunks (see SM3Digest).
    private static final MethodHandle UPDATE = LINKER.downcallHandle(
            EVP_DigestUpdate$address(), EVP_DigestUpdate$descriptor(), Linker.Option.critical(true));
    private static final MethodHandle FINAL = LINKER.downcallHandle(
            EVP_DigestFinal_ex$address(), EVP_DigestFinal_ex$descriptor(), Linker.Option.critical(true));
    private static final MethodHandle INIT = LINKER.downcallHandle(
            EVP_DigestInit_ex2$address(), EVP_DigestInit_ex2$descriptor(), Linker.Option.critical(false));
    // Off-heap input larger than a chunk goes through a plain downcall, which lets GC proceed meanwhile.
    private static final MethodHandle UPDATE_LONG = LINKER.downcallHandle(
            EVP_DigestUpdate$address(), EVP_DigestUpdate$descriptor());

    private final MemorySegment md;
    private final MemorySegment ctx;
    final MemorySegment staging;

    private NativeSm3(MemorySegment md, MemorySegment ctx, MemorySegment staging) {
        this.md = md;
        this.ctx = ctx;
        this.staging = staging;
    }

    /** A fresh context, initialised for SM3, with a staging buffer of {@code stagingSize} bytes. */
    static NativeSm3 create(MemorySegment md, int stagingSize) {
        NativeSm3 n = allocate(md, stagingSize);
        n.init();
        return n;
    }

    /** An independent copy of this context's state, with the first {@code staged} staging bytes. */
    NativeSm3 copy(int staged) {
        NativeSm3 n = allocate(md, (int) staging.byteSize());
        if (EVP_MD_CTX_copy_ex(n.ctx, ctx) != 1) {
            n.run();
            throw OpenSSLErrors.failure("EVP_MD_CTX_copy_ex");
        }
        MemorySegment.copy(staging, 0, n.staging, 0, staged);
        return n;
    }

    private static NativeSm3 allocate(MemorySegment md, int stagingSize) {
        MemorySegment ctx = EVP_MD_CTX_new();
        if (ctx.equals(MemorySegment.NULL)) {
            throw OpenSSLErrors.failure("EVP_MD_CTX_new");
        }
        MemorySegment buffer = CRYPTO_malloc(stagingSize, MemorySegment.NULL, 0);
        if (buffer.equals(MemorySegment.NULL)) {
            EVP_MD_CTX_free(ctx);
            throw OpenSSLErrors.failure("CRYPTO_malloc");
        }
        return new NativeSm3(md, ctx, buffer.reinterpret(stagingSize));
    }

    /** Starts a new message; the fetched SM3 is reused, so no algorithm lookup happens here. */
    void init() {
        int rc;
        try {
            rc = (int) INIT.invokeExact(ctx, md, MemorySegment.NULL);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != 1) {
            throw OpenSSLErrors.failure("EVP_DigestInit_ex2");
        }
    }

    /** Hashes {@code len} bytes of {@code data} from {@code offset}; heap or native, one short call. */
    void update(MemorySegment data, long offset, long len) {
        int rc;
        try {
            rc = (int) UPDATE.invokeExact(ctx, data.asSlice(offset, len), len);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != 1) {
            throw OpenSSLErrors.failure("EVP_DigestUpdate");
        }
    }

    /** Hashes a native segment of any length in one call that does not block GC. */
    void updateLong(MemorySegment nativeData) {
        int rc;
        try {
            rc = (int) UPDATE_LONG.invokeExact(ctx, nativeData, nativeData.byteSize());
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != 1) {
            throw OpenSSLErrors.failure("EVP_DigestUpdate");
        }
    }

    /** Writes the 32-byte digest to {@code out} (heap or native) and leaves the context finished. */
    void finish(MemorySegment out) {
        int rc;
        try {
            rc = (int) FINAL.invokeExact(ctx, out, MemorySegment.NULL);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != 1) {
            throw OpenSSLErrors.failure("EVP_DigestFinal_ex");
        }
    }

    /** Frees the context and the staging buffer (cleared first: it held message bytes). */
    @Override
    public void run() {
        EVP_MD_CTX_free(ctx);
        CRYPTO_clear_free(staging, staging.byteSize(), MemorySegment.NULL, 0);
    }

    // A downcall declares Throwable but only fails with unchecked exceptions and errors.
    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException e) {
            return e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new ProviderException(t);
    }
}
