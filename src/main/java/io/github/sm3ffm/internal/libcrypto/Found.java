package io.github.sm3ffm.internal.libcrypto;

import java.lang.foreign.MemorySegment;

/**
 * The provider's SM3 functions that {@link ProviderLookup} found behind the fetched SM3, as addresses, or why they
 * are not used ({@code reason}, then every other component is null). {@code copyctx} is null before OpenSSL 3.5.
 */
record Found(String reason, String provider, MemorySegment providerCtx, MemorySegment newctx, MemorySegment init,
             MemorySegment update, MemorySegment fin, MemorySegment freectx, MemorySegment dupctx,
             MemorySegment copyctx) {
    static Found no(String reason) {
        return new Found(reason, null, null, null, null, null, null, null, null, null);
    }
}
