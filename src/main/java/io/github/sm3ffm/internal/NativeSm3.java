package io.github.sm3ffm.internal;

import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestFinal_ex$address;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestFinal_ex$descriptor;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestInit_ex2$address;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestInit_ex2$descriptor;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestUpdate$address;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestUpdate$descriptor;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_CTX_copy_ex;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_CTX_free;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_CTX_new;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/** An SM3 message stream over pooled {@code EVP_MD_CTX}s (see {@link NativeStream}). */
final class NativeSm3 extends NativeStream<NativeSm3.Context> {
    static final int DIGEST_LENGTH = 32;

    private static final Linker LINKER = Linker.nativeLinker();
    // jextract cannot emit critical handles: these are linked here from the generated address and
    // descriptor. Critical calls skip the thread-state transition and may read and write Java arrays.
    private static final MethodHandle UPDATE_CRITICAL = LINKER.downcallHandle(
            EVP_DigestUpdate$address(), EVP_DigestUpdate$descriptor(), Linker.Option.critical(true));
    private static final MethodHandle UPDATE = LINKER.downcallHandle(
            EVP_DigestUpdate$address(), EVP_DigestUpdate$descriptor());
    private static final MethodHandle FINAL_CRITICAL = LINKER.downcallHandle(
            EVP_DigestFinal_ex$address(), EVP_DigestFinal_ex$descriptor(), Linker.Option.critical(false));
    private static final MethodHandle INIT_CRITICAL = LINKER.downcallHandle(
            EVP_DigestInit_ex2$address(), EVP_DigestInit_ex2$descriptor(), Linker.Option.critical(false));

    /** Contexts for the {@code EVP_MD} that the loader fetched once; created on first use of SM3. */
    private static final class Pool {
        static final ContextPool<Context> POOL = new ContextPool<>(Context::allocate);
    }

    private final MemorySegment md;

    private NativeSm3(MemorySegment md) {
        this.md = md;
    }

    /** A stream for a new message; it holds no native memory until a message needs OpenSSL. */
    static NativeSm3 create() throws LibCryptoUnavailableException {
        return new NativeSm3(LibCrypto.sm3());
    }

    /** One {@code EVP_MD_CTX} and its staging buffer. */
    static final class Context extends PooledContext {
        final MemorySegment ctx;

        private Context(MemorySegment ctx, MemorySegment staging) {
            super(staging);
            this.ctx = ctx;
        }

        static Context allocate() {
            MemorySegment staging = allocateStaging();
            MemorySegment ctx = EVP_MD_CTX_new();
            if (ctx.equals(MemorySegment.NULL)) {
                freeStaging(staging);
                throw OpenSSLErrors.failure("EVP_MD_CTX_new");
            }
            return new Context(ctx, staging);
        }

        @Override
        void freeContext() {
            EVP_MD_CTX_free(ctx);
        }
    }

    @Override
    ContextPool<Context> pool() {
        return Pool.POOL;
    }

    /** An independent copy of this message so far. */
    NativeSm3 copy() {
        NativeSm3 n = new NativeSm3(md);
        copyTo(n);
        return n;
    }

    @Override
    Context copyOf(Context c) {
        Context n = pool().acquire();
        if (EVP_MD_CTX_copy_ex(n.ctx, c.ctx) != 1) {
            n.free();
            throw OpenSSLErrors.failure("EVP_MD_CTX_copy_ex");
        }
        return n;
    }

    @Override
    void start(Context c, boolean fresh) {
        int rc;
        try {
            rc = (int) INIT_CRITICAL.invokeExact(c.ctx, md, MemorySegment.NULL);
        } catch (Throwable t) {
            throw PooledContext.rethrow(t);
        }
        PooledContext.check(rc, "EVP_DigestInit_ex2");
    }

    @Override
    void finalInto(Context c, byte[] out, int offset) {
        int rc;
        try {
            // Into the staging buffer, then copied: a heap segment for out would be an allocation that
            // escape analysis does not reliably remove behind this many frames.
            rc = (int) FINAL_CRITICAL.invokeExact(c.ctx, c.staging, MemorySegment.NULL);
        } catch (Throwable t) {
            throw PooledContext.rethrow(t);
        }
        PooledContext.check(rc, "EVP_DigestFinal_ex");
        MemorySegment.copy(c.staging, JAVA_BYTE, 0, out, offset, DIGEST_LENGTH);
    }

    @Override
    void feedCritical(Context c, MemorySegment data, long len) {
        int rc;
        try {
            rc = (int) UPDATE_CRITICAL.invokeExact(c.ctx, data, len);
        } catch (Throwable t) {
            throw PooledContext.rethrow(t);
        }
        PooledContext.check(rc, "EVP_DigestUpdate");
    }

    @Override
    void feedCritical(Context c, byte[] data, int offset, int len) {
        int rc;
        try {
            // Wrapped here, beside the downcall, so that escape analysis can drop the segment objects.
            rc = (int) UPDATE_CRITICAL.invokeExact(c.ctx, MemorySegment.ofArray(data).asSlice(offset, len),
                    (long) len);
        } catch (Throwable t) {
            throw PooledContext.rethrow(t);
        }
        PooledContext.check(rc, "EVP_DigestUpdate");
    }

    @Override
    void feedLong(Context c, MemorySegment data) {
        int rc;
        try {
            rc = (int) UPDATE.invokeExact(c.ctx, data, data.byteSize());
        } catch (Throwable t) {
            throw PooledContext.rethrow(t);
        }
        PooledContext.check(rc, "EVP_DigestUpdate");
    }
}
