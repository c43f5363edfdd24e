package io.github.sm3ffm.internal.libcrypto;

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

/**
 * An SM3 message stream over pooled native contexts (see {@link NativeStream}): the provider's own SM3
 * contexts called directly where {@link DirectSm3} allows it, else {@code EVP_MD_CTX}s. This is what the
 * {@code MessageDigest} engine calls.
 */
public final class NativeSm3 extends NativeStream<NativeSm3.Context> {
    /** Bytes in an SM3 digest (GB/T 32905-2016), and so in an HMAC-SM3. */
    public static final int DIGEST_LENGTH = 32;

    private static final Linker LINKER = Linker.nativeLinker();
    // Critical, linked here as UpdateFunction says why; these two write only native memory. FINAL_CRITICAL
    // is also the final of the clone floor benchmark, which times these calls alone.
    static final MethodHandle FINAL_CRITICAL = LINKER.downcallHandle(
            EVP_DigestFinal_ex$address(), EVP_DigestFinal_ex$descriptor(), Linker.Option.critical(false));
    private static final MethodHandle INIT_CRITICAL = LINKER.downcallHandle(
            EVP_DigestInit_ex2$address(), EVP_DigestInit_ex2$descriptor(), Linker.Option.critical(false));

    /** Whether contexts are the provider's own (see {@link DirectSm3}), else {@code EVP_MD_CTX}s. */
    private static final boolean DIRECT = DirectSm3.ENABLED;
    private static final UpdateFunction UPDATE = DIRECT ? DirectSm3.UPDATE
            : UpdateFunction.link(EVP_DigestUpdate$address(), EVP_DigestUpdate$descriptor(), "EVP_DigestUpdate");

    /** Contexts for the {@code EVP_MD} that the loader fetched once; created on first use of SM3. */
    private static final class Pool {
        static final ContextPool<Context> POOL = new ContextPool<>(Context::allocate);
    }

    private final MemorySegment md;

    private NativeSm3(MemorySegment md) {
        this.md = md;
    }

    /** A stream for a new message; it holds no native memory until a message needs OpenSSL. */
    public static NativeSm3 create() throws LibCryptoUnavailableException {
        return new NativeSm3(LibCrypto.sm3());
    }

    /** One SM3 context (the provider's own, or an {@code EVP_MD_CTX}) and its staging buffer. */
    static final class Context extends PooledContext {
        private Context(MemorySegment ctx, MemorySegment staging) {
            super(ctx, staging);
        }

        static Context allocate() {
            MemorySegment staging = allocateStaging();
            MemorySegment ctx;
            try {
                ctx = DIRECT ? DirectSm3.newContext() : EVP_MD_CTX_new();
            } catch (RuntimeException e) {
                freeStaging(staging);
                throw e;
            }
            if (ctx.equals(MemorySegment.NULL)) {
                freeStaging(staging);
                throw OpenSSLErrors.failure("EVP_MD_CTX_new");
            }
            return new Context(ctx, staging);
        }

        @Override
        void freeContext() {
            if (DIRECT) {
                DirectSm3.free(ctx);
            } else {
                EVP_MD_CTX_free(ctx);
            }
        }
    }

    @Override
    ContextPool<Context> pool() {
        return Pool.POOL;
    }

    /** An independent copy of this message so far. */
    public NativeSm3 copy() {
        NativeSm3 n = new NativeSm3(md);
        copyTo(n);
        return n;
    }

    @Override
    Context copyOf(Context c) {
        if (DIRECT) {
            // The provider's dupctx makes a new context (3.0 has no copy into an existing one).
            MemorySegment dup = DirectSm3.dup(c.ctx);
            // A pooled context takes the copy in place of its own: no new staging buffer per clone.
            Context n;
            try {
                n = pool().acquire();
            } catch (RuntimeException e) {
                DirectSm3.free(dup);
                throw e;
            }
            DirectSm3.free(n.ctx);
            n.ctx = dup;
            return n;
        }
        Context n = pool().acquire();
        if (EVP_MD_CTX_copy_ex(n.ctx, c.ctx) != 1) {
            n.free();
            throw OpenSSLErrors.failure("EVP_MD_CTX_copy_ex");
        }
        return n;
    }

    @Override
    void start(Context c, boolean fresh) {
        if (DIRECT) {
            DirectSm3.init(c.ctx);
            return;
        }
        int rc;
        try {
            rc = (int) INIT_CRITICAL.invokeExact(c.ctx, md, MemorySegment.NULL);
        } catch (Throwable t) {
            throw OpenSSLErrors.rethrow(t);
        }
        OpenSSLErrors.check(rc, "EVP_DigestInit_ex2");
    }

    @Override
    void finalInto(Context c, byte[] out, int offset) {
        // Into the staging buffer, then copied, like pending bytes (see NativeStream).
        if (DIRECT) {
            DirectSm3.finalInto(c.ctx, c.staging, c.writtenLength);
            c.copyOutput(out, offset, "SM3 final");
            return;
        }
        int rc;
        try {
            rc = (int) FINAL_CRITICAL.invokeExact(c.ctx, c.staging, MemorySegment.NULL);
        } catch (Throwable t) {
            throw OpenSSLErrors.rethrow(t);
        }
        OpenSSLErrors.check(rc, "EVP_DigestFinal_ex");
        MemorySegment.copy(c.staging, JAVA_BYTE, 0, out, offset, DIGEST_LENGTH);
    }

    @Override
    void feed(Context c, MemorySegment data, long len, boolean critical) {
        UPDATE.call(c.ctx, data, len, critical);
    }
}
