package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.BLOCK_SIZE;
import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MAC_CTX_dup;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MAC_CTX_free;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MAC_CTX_new;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MAC_CTX_set_params;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MAC_init;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OPENSSL_cleanse;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_MAC_PARAM_DIGEST;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_MAC_PARAM_PROPERTIES;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_PARAM_construct_end;
import static io.github.sm3ffm.internal.openssl.OpenSSL.OSSL_PARAM_construct_utf8_string;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.github.sm3ffm.internal.openssl.ossl_param_st;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.invoke.MethodHandle;
import java.security.ProviderException;
import java.util.Arrays;

/**
 * An HMAC-SM3 message stream over pooled contexts (see {@link NativeStream}): RFC 2104 over the provider's
 * own SM3 functions where {@link DirectSm3} allows them, else OpenSSL's {@code EVP_MAC} "HMAC".
 *
 * <p>The key waits on the Java heap, as the JDK's own HMAC keeps its pads there, and reaches a context
 * when a message first needs one (a borrowed or newly claimed context, or a new key); a claimed context
 * that already holds the key restarts from it.
 *
 * <p>Directly, a context is three SM3 contexts: the inner and outer pads absorbed once per key, and the
 * message's. A message starts as a {@code dupctx} of the inner state; {@code final} hashes the inner
 * digest on a {@code dupctx} of the outer state, freed at once. That is OpenSSL's own HMAC (which also
 * copies its inner and outer states per message, with {@code EVP_MD_CTX_copy_ex}) without the
 * {@code EVP_MAC}, {@code HMAC_CTX} and {@code EVP_MD_CTX} layers and their parameter handling, which
 * cost 13-17% of a short MAC on OpenSSL 3.0 (docs/design.md). Keys longer than a block are hashed first
 * through the same functions.
 *
 * <p>Through {@code EVP_MAC}, a context is started with {@code EVP_MAC_init(key)}, or with
 * {@code EVP_MAC_init(NULL)}, which restarts from the stored pads. The digest is chosen once per context,
 * when it is allocated, so a new key costs no digest lookup by name. Keys up to
 * {@value NativeStream#CRITICAL_CHUNK} bytes reach OpenSSL straight from the array in a critical call
 * (OpenSSL keeps its own copy, which it clears when it drops it); longer ones, whose hashing would hold
 * off GC too long, go through a native copy that is cleansed at once. An empty key is passed as a non-NULL
 * pointer, since a NULL key means "keep the old one".
 *
 * <p>Either way, an idle pooled context still holds the pads of the last key it served until it is reused
 * or freed (freeing clears them).
 */
public final class NativeHmac extends NativeStream<NativeHmac.Context> {
    /** Whether HMAC is computed here over the provider's SM3 functions; else by {@code EVP_MAC}. */
    private static final boolean DIRECT = DirectSm3.ENABLED;

    /** The EVP_MAC calls, linked only when HMAC goes through {@code EVP_MAC} (not on the direct path). */
    static final class EvpMac {
        // jextract cannot emit critical handles: these are linked here (see LibCrypto.downcall), their C types as
        // in the bindings (a test compares them). Each is a static final read where it is invoked, so it is a
        // constant however the JIT inlines (see Sm3Calls).
        // int EVP_MAC_update(EVP_MAC_CTX *, const unsigned char *, size_t)
        private static final FunctionDescriptor UPDATE_DESCRIPTOR = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS,
                JAVA_LONG);
        static final MethodHandle UPDATE_CRITICAL = LibCrypto.downcall("EVP_MAC_update", UPDATE_DESCRIPTOR,
                Linker.Option.critical(true));
        // int EVP_MAC_final(EVP_MAC_CTX *, unsigned char *out, size_t *outl, size_t outsize)
        static final MethodHandle FINAL_CRITICAL = LibCrypto.downcall("EVP_MAC_final",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG), Linker.Option.critical(false));
        // int EVP_MAC_init(EVP_MAC_CTX *, const unsigned char *key, size_t keylen, const OSSL_PARAM params[]);
        // the key is read from its array in place.
        static final MethodHandle INIT_CRITICAL = LibCrypto.downcall("EVP_MAC_init",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS), Linker.Option.critical(true));

        // Linked on first use, as in DirectSm3: short-lived programs never feed native memory.
        static final class Ordinary {
            static final MethodHandle UPDATE = LibCrypto.downcall("EVP_MAC_update", UPDATE_DESCRIPTOR);
        }
    }

    private static final class Pool {
        // {"digest" = "SM3", end}: OpenSSL only reads it, so one array serves every context and thread.
        static final MemorySegment DIGEST_SM3 = DIRECT ? null : digestParams(Arena.global());
        static final ContextPool<Context> POOL = new ContextPool<>(Context::allocate);
    }

    private byte[] key;
    /** Whether the claimed context, if any, holds {@code key}. */
    private boolean keyLoaded;

    private NativeHmac() {
    }

    /** A stream that needs a key next; it holds no native memory until a message needs OpenSSL. */
    public static NativeHmac create() throws LibCryptoUnavailableException {
        // Fails here, in the engine's constructor, when OpenSSL cannot give HMAC-SM3.
        LibCrypto.hmac();
        return new NativeHmac();
    }

    /**
     * An {@code EVP_MAC_CTX} for HMAC with SM3 in {@code ctx}, or directly the message's SM3 context in
     * {@code ctx} beside the keyed {@code inner} and {@code outer} ones; and a staging buffer.
     */
    static final class Context extends PooledContext {
        MemorySegment inner;
        MemorySegment outer;

        private Context(MemorySegment ctx, MemorySegment staging) {
            super(ctx, staging);
        }

        static Context allocate() {
            return DIRECT ? allocateDirect() : allocateMac();
        }

        private static Context allocateMac() {
            MemorySegment mac;
            try {
                mac = LibCrypto.hmac();
            } catch (LibCryptoUnavailableException e) {
                // Not reached: a stream, which asks for contexts, exists only when HMAC is available.
                throw new ProviderException(e);
            }
            Context c = wrap(EVP_MAC_CTX_new(mac), "EVP_MAC_CTX_new");
            if (EVP_MAC_CTX_set_params(c.ctx, Pool.DIGEST_SM3) != 1) {
                c.free();
                throw OpenSSLErrors.failure("EVP_MAC_CTX_set_params(digest=SM3)");
            }
            return c;
        }

        private static Context allocateDirect() {
            MemorySegment staging = allocateStaging();
            Context c;
            try {
                c = new Context(DirectSm3.newContext(), staging);
            } catch (RuntimeException e) {
                freeStaging(staging);
                throw e;
            }
            try {
                c.inner = DirectSm3.newContext();
                c.outer = DirectSm3.newContext();
            } catch (RuntimeException e) {
                c.free();
                throw e;
            }
            return c;
        }

        /** Pairs a context {@code call} just made (NULL if it failed) with a new staging buffer. */
        static Context wrap(MemorySegment ctx, String call) {
            if (ctx.equals(MemorySegment.NULL)) {
                throw OpenSSLErrors.failure(call);
            }
            try {
                return new Context(ctx, allocateStaging());
            } catch (ProviderException e) {
                EVP_MAC_CTX_free(ctx);
                throw e;
            }
        }

        @Override
        void freeContext() {
            if (DIRECT) {
                freeEach(ctx, inner, outer);
            } else {
                EVP_MAC_CTX_free(ctx);
            }
        }
    }

    /** Frees the provider contexts given, skipping nulls. */
    private static void freeEach(MemorySegment... contexts) {
        for (MemorySegment c : contexts) {
            if (c != null) {
                DirectSm3.free(c);
            }
        }
    }

    private static MemorySegment digestParams(Arena arena) {
        MemorySegment params = ossl_param_st.allocateArray(3, arena);
        // Each struct-returning call writes its OSSL_PARAM into the next element.
        SegmentAllocator next = SegmentAllocator.slicingAllocator(params);
        OSSL_PARAM_construct_utf8_string(next, OSSL_MAC_PARAM_DIGEST(), arena.allocateFrom("SM3"), 0);
        MemorySegment query = LibCrypto.propertyQueryString();
        if (!query.equals(MemorySegment.NULL)) {
            // The SM3 inside HMAC comes from the same providers as everything else.
            OSSL_PARAM_construct_utf8_string(next, OSSL_MAC_PARAM_PROPERTIES(), query, 0);
        }
        OSSL_PARAM_construct_end(next);
        return params;
    }

    @Override
    ContextPool<Context> pool() {
        return Pool.POOL;
    }

    /** Drops any message in progress and starts over with a copy of {@code key}; the caller clears its array. */
    public void init(byte[] key) {
        replaceKey(key.clone());
    }

    /** Zeroes the copy of the key; the stream needs {@link #init} before its next message. */
    void clearKey() {
        replaceKey(null);
    }

    private void replaceKey(byte[] copy) {
        enter();
        try {
            byte[] old = this.key;
            this.key = copy;
            keyLoaded = false;
            if (old != null) {
                Arrays.fill(old, (byte) 0);
            }
            endMessage();
        } finally {
            exit();
        }
    }

    /**
     * Clears {@code c}, a context this stream borrowed, of every state derived from its keys and messages
     * (the pads, the message, the staging bytes), so that it can go back to the pool holding no secret.
     */
    void scrub(Context c) {
        if (DIRECT) {
            // The provider's init zeroes the whole SM3 state before setting the IV.
            DirectSm3.init(c.ctx);
            DirectSm3.init(c.inner);
            DirectSm3.init(c.outer);
        } else {
            // An empty key replaces the pads, and OpenSSL clears its copy of the old key.
            initCritical(c, c.staging.asSlice(0, 0));
        }
        c.staging.fill((byte) 0);
    }

    /** An independent copy: the key and the message so far. */
    public NativeHmac copy() {
        NativeHmac n = new NativeHmac();
        copyTo(n);
        return n;
    }

    @Override
    void copyKeyTo(NativeStream<Context> that) {
        NativeHmac n = (NativeHmac) that;
        n.key = key == null ? null : key.clone();
        // A copied context holds the key already; without one, a new context loads it.
        n.keyLoaded = true;
    }

    @Override
    Context copyOf(Context c) {
        if (!DIRECT) {
            return Context.wrap(EVP_MAC_CTX_dup(c.ctx), "EVP_MAC_CTX_dup");
        }
        MemorySegment message = null;
        MemorySegment inner = null;
        MemorySegment outer = null;
        try {
            message = DirectSm3.dup(c.ctx);
            inner = DirectSm3.dup(c.inner);
            outer = DirectSm3.dup(c.outer);
            // A pooled context takes the copies in place of its own: no new staging buffer per clone.
            Context n = pool().acquire();
            freeEach(n.ctx, n.inner, n.outer);
            n.ctx = message;
            n.inner = inner;
            n.outer = outer;
            return n;
        } catch (RuntimeException e) {
            freeEach(message, inner, outer);
            throw e;
        }
    }

    @Override
    void start(Context c, boolean fresh) {
        boolean load = fresh || !keyLoaded;
        byte[] k = key;
        if (load && k == null) {
            throw new IllegalStateException("HmacSM3 has no key");
        }
        if (DIRECT) {
            if (load) {
                absorbPads(c, k);
                keyLoaded = true;
            }
            // The message starts from a copy of the keyed inner state, in place of the last message's.
            MemorySegment message = DirectSm3.dup(c.inner);
            DirectSm3.free(c.ctx);
            c.ctx = message;
        } else if (load) {
            if (k.length > CRITICAL_CHUNK) {
                initFromNativeCopy(c, k);
            } else {
                initCritical(c, k.length == 0 ? c.staging.asSlice(0, 0) : MemorySegment.ofArray(k));
            }
            keyLoaded = true;
        } else {
            initCritical(c, MemorySegment.NULL);
        }
    }

    /**
     * Absorbs K0 XOR ipad into {@code c.inner} and K0 XOR opad into {@code c.outer} (RFC 2104), K0 being
     * the key, or its SM3 digest (hashed on {@code c.ctx}) when it is longer than a block.
     */
    private void absorbPads(Context c, byte[] k) {
        byte[] pads = new byte[2 * BLOCK_SIZE];
        try {
            if (k.length > BLOCK_SIZE) {
                DirectSm3.init(c.ctx);
                // In place, not through the staging buffer, which would keep key bytes past the digest.
                feedInPlace(c, k, 0, k.length);
                DirectSm3.finalInto(c.ctx, c.staging, c.writtenLength);
                c.checkWritten("SM3 final");
                MemorySegment.copy(c.staging, JAVA_BYTE, 0, pads, 0, DIGEST_LENGTH);
            } else {
                System.arraycopy(k, 0, pads, 0, k.length);
            }
            for (int i = 0; i < BLOCK_SIZE; i++) {
                pads[BLOCK_SIZE + i] = (byte) (pads[i] ^ 0x5c);
                pads[i] ^= 0x36;
            }
            MemorySegment both = MemorySegment.ofArray(pads);
            DirectSm3.init(c.inner);
            DirectSm3.update(c.inner, both, BLOCK_SIZE);
            DirectSm3.init(c.outer);
            DirectSm3.update(c.outer, both.asSlice(BLOCK_SIZE, BLOCK_SIZE), BLOCK_SIZE);
        } finally {
            Arrays.fill(pads, (byte) 0);
            c.staging.asSlice(0, DIGEST_LENGTH).fill((byte) 0);
        }
    }

    private void initFromNativeCopy(Context c, byte[] k) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment copy = arena.allocate(k.length);
            try {
                MemorySegment.copy(k, 0, copy, JAVA_BYTE, 0, k.length);
                OpenSSLErrors.check(EVP_MAC_init(c.ctx, copy, k.length, MemorySegment.NULL), "EVP_MAC_init");
            } finally {
                OPENSSL_cleanse(copy, copy.byteSize());
            }
        }
    }

    /** {@code EVP_MAC_init} with a key (heap or native), or with NULL to restart with the current key. */
    private void initCritical(Context c, MemorySegment k) {
        int rc;
        try {
            rc = (int) EvpMac.INIT_CRITICAL.invokeExact(c.ctx, k, k.byteSize(), MemorySegment.NULL);
        } catch (Throwable t) {
            throw OpenSSLErrors.rethrow(t);
        }
        OpenSSLErrors.check(rc, "EVP_MAC_init");
    }

    @Override
    void finalInto(Context c, byte[] out, int offset) {
        // The staging buffer is free now: it receives the MAC, then (past it) the length OpenSSL wrote.
        if (DIRECT) {
            DirectSm3.finalInto(c.ctx, c.staging, c.writtenLength);
            c.checkWritten("SM3 final");
            // The outer hash over the inner digest, on a copy of the keyed outer state.
            MemorySegment outer = DirectSm3.dup(c.outer);
            try {
                DirectSm3.update(outer, c.staging, DIGEST_LENGTH);
                DirectSm3.finalInto(outer, c.staging, c.writtenLength);
            } finally {
                DirectSm3.free(outer);
            }
            c.copyOutput(out, offset, "SM3 final");
            return;
        }
        int rc;
        try {
            rc = (int) EvpMac.FINAL_CRITICAL.invokeExact(c.ctx, c.staging, c.writtenLength, (long) DIGEST_LENGTH);
        } catch (Throwable t) {
            throw OpenSSLErrors.rethrow(t);
        }
        OpenSSLErrors.check(rc, "EVP_MAC_final");
        c.copyOutput(out, offset, "EVP_MAC_final");
    }

    @Override
    void feed(Context c, MemorySegment data, long len, boolean critical) {
        if (DIRECT) {
            if (critical) {
                DirectSm3.update(c.ctx, data, len);
            } else {
                DirectSm3.updateNative(c.ctx, data, len);
            }
            return;
        }
        int rc;
        try {
            rc = critical ? (int) EvpMac.UPDATE_CRITICAL.invokeExact(c.ctx, data, len)
                    : (int) EvpMac.Ordinary.UPDATE.invokeExact(c.ctx, data, len);
        } catch (Throwable t) {
            throw OpenSSLErrors.rethrow(t);
        }
        OpenSSLErrors.check(rc, "EVP_MAC_update");
    }
}
