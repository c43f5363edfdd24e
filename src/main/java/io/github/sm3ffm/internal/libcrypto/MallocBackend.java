package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.openssl.OpenSSL.CRYPTO_clear_free;
import static io.github.sm3ffm.internal.openssl.OpenSSL.CRYPTO_malloc;

import java.lang.foreign.MemorySegment;

/** A backend whose buffers beside its contexts come from OpenSSL's allocator, as every backend's do. */
abstract class MallocBackend implements Backend {
    /**
     * {@code bytes} of zeroed native memory; free it with {@link #release}. Zeroed once here, so that the pool's
     * wipes, which zero only what was written, leave the whole buffer zero.
     */
    @Override
    public final MemorySegment allocate(long bytes) {
        return OpenSSLErrors.allocated(CRYPTO_malloc(bytes, MemorySegment.NULL, 0), "CRYPTO_malloc").reinterpret(bytes)
                .fill((byte) 0);
    }

    /** Zeroes and frees what {@link #allocate} gave. */
    @Override
    public final void release(MemorySegment buffer) {
        CRYPTO_clear_free(buffer, buffer.byteSize(), MemorySegment.NULL, 0);
    }
}
