package io.github.sm3ffm.internal;

import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MAC_CTX_dup;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MAC_CTX_free;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MAC_CTX_new;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MAC_CTX_set_params;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MAC_final$address;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MAC_final$descriptor;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MAC_init;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MAC_init$address;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MAC_init$descriptor;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MAC_update$address;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MAC_update$descriptor;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OPENSSL_cleanse;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_MAC_PARAM_DIGEST;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_PARAM_construct_end;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_PARAM_construct_utf8_string;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.github.sm3ffm.internal.openssl.ossl_param_st;
import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.invoke.MethodHandle;
import java.security.ProviderException;

/**
 * An {@code EVP_MAC_CTX} computing HMAC with SM3, with its staging buffer (see {@link NativeContext}).
 *
 * <p>The digest is chosen once per context, when it is created, so a new key costs one
 * {@code EVP_MAC_init} and no digest lookup by name; a restart passes no key, and OpenSSL's HMAC then
 * starts over with the key it holds. Keys up to {@value NativeContext#CRITICAL_CHUNK} bytes reach
 * OpenSSL straight from the caller's array in a critical call (OpenSSL keeps its own copy, which it
 * clears when it drops it); longer ones, whose hashing would hold off GC too long, go through a native
 * copy that is cleansed at once. An empty key is passed as a non-NULL pointer, since a NULL key would
 * mean "keep the old one".
 */
final class NativeHmac extends NativeContext {
    static final int MAC_LENGTH = 32;

    private static final Linker LINKER = Linker.nativeLinker();
    // Linked here because jextract cannot emit critical handles (see NativeSm3).
    private static final MethodHandle UPDATE_CRITICAL = LINKER.downcallHandle(
            EVP_MAC_update$address(), EVP_MAC_update$descriptor(), Linker.Option.critical(true));
    private static final MethodHandle UPDATE = LINKER.downcallHandle(
            EVP_MAC_update$address(), EVP_MAC_update$descriptor());
    private static final MethodHandle FINAL_CRITICAL = LINKER.downcallHandle(
            EVP_MAC_final$address(), EVP_MAC_final$descriptor(), Linker.Option.critical(true));
    private static final MethodHandle INIT_CRITICAL = LINKER.downcallHandle(
            EVP_MAC_init$address(), EVP_MAC_init$descriptor(), Linker.Option.critical(true));

    // {"digest" = "SM3", end}: OpenSSL only reads it, so one array serves every context and thread.
    private static final MemorySegment DIGEST_SM3 = digestParams(Arena.global());

    private final MemorySegment mac;
    private final MemorySegment ctx;
    // Where EVP_MAC_final reports the length it wrote: just past the MAC, in the staging buffer.
    private final MemorySegment writtenLength;
    private boolean keyed;

    private NativeHmac(MemorySegment mac, MemorySegment ctx, MemorySegment staging, boolean keyed) {
        super(staging);
        this.writtenLength = staging.asSlice(MAC_LENGTH, JAVA_LONG.byteSize());
        this.mac = mac;
        this.ctx = ctx;
        this.keyed = keyed;
    }

    private static MemorySegment digestParams(Arena arena) {
        MemorySegment params = ossl_param_st.allocateArray(2, arena);
        // Each struct-returning call writes its OSSL_PARAM into the next element.
        SegmentAllocator next = SegmentAllocator.slicingAllocator(params);
        OSSL_PARAM_construct_utf8_string(next, OSSL_MAC_PARAM_DIGEST(), arena.allocateFrom("SM3"), 0);
        OSSL_PARAM_construct_end(next);
        return params;
    }

    /** A context for HMAC-SM3 on the {@code EVP_MAC} fetched once by the loader; it needs a key next. */
    static NativeHmac create(MemorySegment mac) {
        NativeHmac n = withStaging(mac, EVP_MAC_CTX_new(mac), "EVP_MAC_CTX_new", false);
        if (EVP_MAC_CTX_set_params(n.ctx, DIGEST_SM3) != 1) {
            n.run();
            throw OpenSSLErrors.failure("EVP_MAC_CTX_set_params(digest=SM3)");
        }
        return n;
    }

    /** An independent copy: the OpenSSL state (key included) and the staged bytes. */
    synchronized NativeHmac copy() {
        if (!keyed) {
            // OpenSSL cannot duplicate an HMAC that has no key yet, and there is no state to carry over.
            return create(mac);
        }
        NativeHmac n = withStaging(mac, EVP_MAC_CTX_dup(ctx), "EVP_MAC_CTX_dup", true);
        copyStagedTo(n);
        return n;
    }

    /** Pairs a context {@code call} just made (NULL if it failed) with a new staging buffer. */
    private static NativeHmac withStaging(MemorySegment mac, MemorySegment ctx, String call, boolean keyed) {
        if (ctx.equals(MemorySegment.NULL)) {
            throw OpenSSLErrors.failure(call);
        }
        try {
            return new NativeHmac(mac, ctx, allocateStaging(), keyed);
        } catch (ProviderException e) {
            EVP_MAC_CTX_free(ctx);
            throw e;
        }
    }

    /** Drops any message in progress and starts over with {@code key}; the caller clears its array. */
    synchronized void init(byte[] key) {
        keyed = false;
        resetLocked();
        if (key.length > CRITICAL_CHUNK) {
            initFromNativeCopy(key);
        } else {
            initCritical(key.length == 0 ? staging.asSlice(0, 0) : MemorySegment.ofArray(key));
        }
        keyed = true;
    }

    private void initFromNativeCopy(byte[] key) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment copy = arena.allocate(key.length);
            try {
                MemorySegment.copy(key, 0, copy, JAVA_BYTE, 0, key.length);
                check(EVP_MAC_init(ctx, copy, key.length, MemorySegment.NULL), "EVP_MAC_init");
            } finally {
                OPENSSL_cleanse(copy, copy.byteSize());
            }
        }
    }

    /** {@code EVP_MAC_init} with a key (heap or native), or with NULL to restart with the current key. */
    private void initCritical(MemorySegment key) {
        int rc;
        try {
            rc = (int) INIT_CRITICAL.invokeExact(ctx, key, key.byteSize(), MemorySegment.NULL);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        check(rc, "EVP_MAC_init");
    }

    /** Writes the MAC (32 bytes) to {@code out}, heap or native, and starts a new message, same key. */
    synchronized void doFinal(byte[] out) {
        try {
            flushLocked();
            requireKey();
            // The staging buffer is empty now: it receives the MAC, then (past it) the length OpenSSL
            // wrote. A heap segment for out would be an allocation that escape analysis does not
            // reliably remove behind this many frames.
            int rc;
            try {
                rc = (int) FINAL_CRITICAL.invokeExact(ctx, staging, writtenLength, (long) MAC_LENGTH);
            } catch (Throwable t) {
                throw rethrow(t);
            }
            check(rc, "EVP_MAC_final");
            long n = writtenLength.get(JAVA_LONG, 0);
            if (n != MAC_LENGTH) {
                throw new ProviderException("EVP_MAC_final wrote " + n + " bytes, not " + MAC_LENGTH);
            }
            MemorySegment.copy(staging, JAVA_BYTE, 0, out, 0, MAC_LENGTH);
        } finally {
            resetLocked();
        }
    }

    synchronized void reset() {
        resetLocked();
    }

    /** Restarts with the current key; before the first key there is nothing to restart. */
    @Override
    void restart() {
        if (keyed) {
            initCritical(MemorySegment.NULL);
        }
    }

    // Reached only when a native init failed after the Mac had a key: the context's state is then unknown.
    private void requireKey() {
        if (!keyed) {
            throw new ProviderException("HmacSM3 has no key: its last init failed");
        }
    }

    @Override
    void updateCritical(MemorySegment data, long len) {
        requireKey();
        int rc;
        try {
            rc = (int) UPDATE_CRITICAL.invokeExact(ctx, data, len);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        check(rc, "EVP_MAC_update");
    }

    @Override
    void updateCritical(byte[] data, int offset, int len) {
        requireKey();
        int rc;
        try {
            // Wrapped here, beside the downcall, so that escape analysis can drop the segment objects.
            rc = (int) UPDATE_CRITICAL.invokeExact(ctx, MemorySegment.ofArray(data).asSlice(offset, len), (long) len);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        check(rc, "EVP_MAC_update");
    }

    @Override
    void updateLong(MemorySegment data) {
        requireKey();
        int rc;
        try {
            rc = (int) UPDATE.invokeExact(ctx, data, data.byteSize());
        } catch (Throwable t) {
            throw rethrow(t);
        }
        check(rc, "EVP_MAC_update");
    }

    @Override
    public void run() {
        EVP_MAC_CTX_free(ctx);
        freeStaging(staging);
    }
}
