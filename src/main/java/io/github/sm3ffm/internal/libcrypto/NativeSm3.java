package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.MemorySegment;

/**
 * An SM3 message stream over pooled native contexts (see {@link NativeStream}): the provider's own SM3
 * contexts called directly where {@link DirectSm3} allows it, else {@code EVP_MD_CTX}s, as
 * {@link Sm3Calls#SELECTED} says once for the JVM's life. This is what the {@code MessageDigest} engine calls.
 */
public final class NativeSm3 extends NativeStream<NativeSm3.Context> {
    private static final Sm3Calls SM3 = Sm3Calls.SELECTED;

    /** Contexts for the {@code EVP_MD} that the loader fetched once; created on first use of SM3. */
    private static final class Pool {
        static final ContextPool<Context> POOL = new ContextPool<>(Context::allocate);
    }

    private NativeSm3() {
    }

    /** A stream for a new message; it holds no native memory until a message needs OpenSSL. */
    public static NativeSm3 create() throws LibCryptoUnavailableException {
        // Fails here, in the engine's constructor, when OpenSSL cannot give SM3.
        LibCrypto.sm3();
        return new NativeSm3();
    }

    /** One SM3 context (the provider's own, or an {@code EVP_MD_CTX}) and its staging buffer. */
    static final class Context extends PooledContext {
        private Context(MemorySegment ctx, MemorySegment staging) {
            super(ctx, staging);
        }

        static Context allocate() {
            MemorySegment staging = allocateStaging();
            try {
                return new Context(SM3.newContext(), staging);
            } catch (RuntimeException e) {
                freeStaging(staging);
                throw e;
            }
        }

        @Override
        void freeContext() {
            SM3.free(ctx);
        }
    }

    @Override
    ContextPool<Context> pool() {
        return Pool.POOL;
    }

    /** An independent copy of this message so far. */
    public NativeSm3 copy() {
        NativeSm3 n = new NativeSm3();
        copyTo(n);
        return n;
    }

    @Override
    Context copyOf(Context c) {
        // A pooled context takes the copy: no new staging buffer per clone.
        Context n = pool().acquire();
        try {
            n.ctx = SM3.copy(c.ctx, n.ctx);
        } catch (RuntimeException e) {
            // Its context may be half copied: it does not go back to the pool.
            n.free();
            throw e;
        }
        return n;
    }

    @Override
    void start(Context c, boolean fresh) {
        SM3.init(c.ctx);
    }

    @Override
    void finalInto(Context c, byte[] out, int offset) {
        // Into the staging buffer, then copied, like pending bytes (see NativeStream).
        SM3.finalInto(c);
        MemorySegment.copy(c.staging, JAVA_BYTE, 0, out, offset, DIGEST_LENGTH);
    }

    @Override
    void feed(Context c, MemorySegment data, long len, boolean critical) {
        if (critical) {
            SM3.update(c.ctx, data, len);
        } else {
            SM3.updateNative(c.ctx, data, len);
        }
    }
}
