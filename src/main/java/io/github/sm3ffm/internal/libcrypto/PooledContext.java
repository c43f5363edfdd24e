package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.openssl.OpenSSL.CRYPTO_clear_free;
import static io.github.sm3ffm.internal.openssl.OpenSSL.CRYPTO_malloc;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import java.security.ProviderException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One native OpenSSL context (a digest or a MAC) with its off-heap staging buffer, as kept by a
 * {@link ContextPool}. It is not tied to any engine: engines borrow it for one call, or claim it across
 * calls, and it goes back to the pool afterwards.
 *
 * <p>Every context is registered here from allocation until it is freed. That keeps the {@link ContextPool}
 * claim of a context strongly reachable while its owner may die, which is what lets the claim be enqueued
 * when the owner does, and it counts the native contexts that exist ({@link #live()}).
 */
public abstract class PooledContext {
    /** Bytes of the staging buffer: an engine's pending input, then the digest or MAC written by OpenSSL. */
    static final int STAGING_SIZE = 512;

    private static final Set<PooledContext> ALL = ConcurrentHashMap.newKeySet();

    /** The OpenSSL context; a direct SM3 clone puts the provider's copy in place of its own. */
    MemorySegment ctx;
    final MemorySegment staging;
    /** Where a final call reports the length it wrote: just past the output, in the staging buffer. */
    final MemorySegment writtenLength;
    /** The claim of the engine that owns this context across calls; null while idle or borrowed. */
    ContextPool.Claim claim;

    /** Takes ownership of {@code ctx} and of {@code staging} (from {@link #allocateStaging}). */
    PooledContext(MemorySegment ctx, MemorySegment staging) {
        this.ctx = ctx;
        this.staging = staging;
        this.writtenLength = staging.asSlice(Sm3Sizes.DIGEST_LENGTH, JAVA_LONG.byteSize());
        ALL.add(this);
    }

    /** Copies the output that {@code call} wrote into staging and reported in {@link #writtenLength}. */
    final void copyOutput(byte[] out, int offset, String call) {
        checkWritten(call);
        MemorySegment.copy(staging, JAVA_BYTE, 0, out, offset, Sm3Sizes.DIGEST_LENGTH);
    }

    /** Throws unless {@code call} reported a whole digest in {@link #writtenLength}. */
    final void checkWritten(String call) {
        long n = writtenLength.get(JAVA_LONG, 0);
        if (n != Sm3Sizes.DIGEST_LENGTH) {
            throw new ProviderException(call + " wrote " + n + " bytes, not " + Sm3Sizes.DIGEST_LENGTH);
        }
    }

    /** A staging buffer for a new context; free it with {@link #freeStaging} if the context is not built. */
    static MemorySegment allocateStaging() {
        MemorySegment buffer = CRYPTO_malloc(STAGING_SIZE, MemorySegment.NULL, 0);
        if (buffer.equals(MemorySegment.NULL)) {
            throw OpenSSLErrors.failure("CRYPTO_malloc");
        }
        return buffer.reinterpret(STAGING_SIZE);
    }

    /** Clears (it held message, key or output bytes) and frees a staging buffer. */
    static void freeStaging(MemorySegment buffer) {
        CRYPTO_clear_free(buffer, buffer.byteSize(), MemorySegment.NULL, 0);
    }

    /** Native contexts (digests and MACs, idle, borrowed or claimed) allocated and not yet freed, in this JVM. */
    public static long live() {
        return ALL.size();
    }

    /** Frees the OpenSSL context; the staging buffer is freed by {@link #free()}. */
    abstract void freeContext();

    /** Frees everything this context holds; it must not be used afterwards. */
    final void free() {
        if (ALL.remove(this)) {
            freeContext();
            freeStaging(staging);
        }
    }

}
