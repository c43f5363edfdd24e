package io.github.sm3ffm.internal;

import static io.github.sm3ffm.internal.openssl.OpenSSL.CRYPTO_clear_free;
import static io.github.sm3ffm.internal.openssl.OpenSSL.CRYPTO_malloc;

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

    final MemorySegment staging;
    /** The claim of the engine that owns this context across calls; null while idle or borrowed. */
    ContextPool.Claim claim;

    /** Takes ownership of {@code staging} (from {@link #allocateStaging}). */
    PooledContext(MemorySegment staging) {
        this.staging = staging;
        ALL.add(this);
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

    /** OpenSSL's EVP functions return 1 on success. */
    static void check(int rc, String call) {
        if (rc != 1) {
            throw OpenSSLErrors.failure(call);
        }
    }

    // A downcall declares Throwable but fails only with unchecked exceptions and errors.
    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException e) {
            return e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new ProviderException(t);
    }
}
