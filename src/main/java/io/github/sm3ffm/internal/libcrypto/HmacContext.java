package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.BLOCK_SIZE;
import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.MemorySegment;

/**
 * HMAC-SM3 (RFC 2104), written once over the SM3 operations of the selected backend ({@link Backend}): the
 * provider's functions or {@code EVP_MD_CTX}s alike. Three SM3 contexts: the message's, and the inner and
 * outer states of a key, absorbed once for a context that serves many messages ({@link #key}) and copied per
 * message, as OpenSSL's own HMAC copies them. A context that serves one message (a new {@code Mac}, an HKDF
 * extract) starts from the pads themselves: the same compressions, without the two copies.
 *
 * <p>The pads (K0 XOR ipad, K0 XOR opad: 128 bytes, {@link #padsOf}) stay with the caller on the Java heap,
 * as the JDK's own HMAC keeps them, and the key itself is not kept. Everything an HMAC leaves here derives from a
 * key; the pool clears all of it before it lends the context again, as it does every context.
 *
 * <p>Staging regions besides the common ones: {@link #pads} (both pads while they are absorbed, 128), and
 * {@link #outerBlock}, the outer pad followed by {@link #innerDigest}, hashed as one update.
 */
final class HmacContext extends PooledContext {
    MemorySegment inner;
    MemorySegment outer;
    /** Both pads, at the start of the buffer, while {@link #key} absorbs them. */
    private final MemorySegment pads;
    /** The inner pad alone, or the outer pad of {@link #outerBlock}. */
    private final MemorySegment firstBlock;
    /** Where the inner digest goes without keyed states: just past the outer pad copied in front of it. */
    private final MemorySegment innerDigest;
    /** The outer pad and the inner digest behind it. */
    private final MemorySegment outerBlock;
    /** Whether {@code inner} and {@code outer} hold a key's pads. */
    boolean keyed;

    HmacContext(MemorySegment ctx, MemorySegment inner, MemorySegment outer, MemorySegment staging) {
        super(ctx, staging);
        this.inner = inner;
        this.outer = outer;
        this.pads = staging.asSlice(0, PADS_LENGTH);
        this.firstBlock = staging.asSlice(0, BLOCK_SIZE);
        this.innerDigest = staging.asSlice(BLOCK_SIZE, DIGEST_LENGTH);
        this.outerBlock = staging.asSlice(0, BLOCK_SIZE + DIGEST_LENGTH);
    }

    /**
     * The pads of {@code key}: K0 XOR ipad, then K0 XOR opad, K0 being the key padded with zeros, or its SM3
     * digest (hashed here, in place) when it is longer than a block. The caller zeroes them when done; the digest
     * left in the output region goes with the next message's bytes or with the pool's wipe.
     */
    byte[] padsOf(byte[] key) {
        if (key.length <= BLOCK_SIZE) {
            return padsOfBlock(key);
        }
        byte[] k = new byte[PADS_LENGTH];
        if (primed) {
            primed = false;
        } else {
            BACKEND.init(ctx);
        }
        // In place, not through the staging buffer, which would keep key bytes past the digest.
        MemorySegment whole = MemorySegment.ofArray(key);
        for (int at = 0; at < key.length; at += CRITICAL_CHUNK) {
            int n = Math.min(CRITICAL_CHUNK, key.length - at);
            BACKEND.update(ctx, whole.asSlice(at, n), n);
        }
        mark(DIGEST_LENGTH);
        BACKEND.finalInto(ctx, output, writtenLength);
        MemorySegment.copy(output, JAVA_BYTE, 0, k, 0, DIGEST_LENGTH);
        return xorPads(k);
    }

    /** The pads of a key of at most a block, which need no hashing. */
    static byte[] padsOfBlock(byte[] key) {
        byte[] k = new byte[PADS_LENGTH];
        System.arraycopy(key, 0, k, 0, key.length);
        return xorPads(k);
    }

    /** K0, at the start of {@code k}, turned into K0 XOR ipad and K0 XOR opad in place. */
    private static byte[] xorPads(byte[] k) {
        for (int i = 0; i < BLOCK_SIZE; i++) {
            k[BLOCK_SIZE + i] = (byte) (k[i] ^ 0x5c);
            k[i] ^= 0x36;
        }
        return k;
    }

    /** Absorbs {@code pads} into the inner and outer states, from which every later message starts. */
    @Override
    void key(byte[] pads) {
        keyed = true;
        BACKEND.init(inner);
        BACKEND.init(outer);
        try {
            stage(pads, 0, 0, PADS_LENGTH);
            BACKEND.update(inner, firstBlock, BLOCK_SIZE);
            BACKEND.update(outer, this.pads.asSlice(BLOCK_SIZE), BLOCK_SIZE);
        } finally {
            wipe();
        }
    }

    /**
     * Starts a message: from a copy of the keyed inner state, or else from the inner pad of {@code pads}. HMAC
     * states never wait on the heap: {@code parked} is always null.
     */
    @Override
    void begin(byte[] pads, byte[] parked) {
        if (pads == null) {
            throw new IllegalStateException("HmacSM3 has no key");
        }
        if (keyed) {
            primed = false;
            ctx = BACKEND.copy(inner, ctx);
            return;
        }
        if (primed) {
            primed = false;
        } else {
            BACKEND.init(ctx);
        }
        stage(pads, 0, 0, BLOCK_SIZE);
        BACKEND.update(ctx, firstBlock, BLOCK_SIZE);
    }

    /**
     * Starts a message with its first {@code length} bytes: without keyed states, the inner pad and bytes that
     * fit the staging buffer behind it go in one call.
     */
    void start(byte[] pads, byte[] message, int offset, int length) {
        if (keyed || BLOCK_SIZE + length > STAGING_SIZE) {
            begin(pads, null);
            updateArray(message, offset, length);
            return;
        }
        if (primed) {
            primed = false;
        } else {
            BACKEND.init(ctx);
        }
        stage(pads, 0, 0, BLOCK_SIZE);
        stage(message, offset, BLOCK_SIZE, length);
        BACKEND.update(ctx, input, BLOCK_SIZE + length);
    }

    /**
     * Finishes the message: the outer hash of the inner digest, into {@link #output}, then copied to {@code out}
     * when there is one.
     */
    @Override
    void finish(byte[] pads, byte[] out, int offset) {
        if (keyed) {
            mark(DIGEST_LENGTH);
            BACKEND.finalInto(ctx, output, writtenLength);
            // On a copy of the keyed outer state that lives for this hash only (the inner one is done).
            MemorySegment o = BACKEND.copyForOneMessage(outer, ctx);
            try {
                BACKEND.update(o, output, DIGEST_LENGTH);
                BACKEND.finalInto(o, output, writtenLength);
            } finally {
                BACKEND.dropCopy(o, ctx);
            }
        } else {
            // The outer pad in front of the inner digest: one update of both.
            mark(BLOCK_SIZE + DIGEST_LENGTH);
            BACKEND.finalInto(ctx, innerDigest, writtenLength);
            BACKEND.init(ctx);
            stage(pads, BLOCK_SIZE, 0, BLOCK_SIZE);
            BACKEND.update(ctx, outerBlock, BLOCK_SIZE + DIGEST_LENGTH);
            BACKEND.finalInto(ctx, output, writtenLength);
        }
        if (out != null) {
            MemorySegment.copy(output, JAVA_BYTE, 0, out, offset, DIGEST_LENGTH);
        }
    }

    @Override
    void copyTo(PooledContext into) {
        HmacContext n = (HmacContext) into;
        n.primed = false;
        n.ctx = BACKEND.copy(ctx, n.ctx);
        if (keyed) {
            n.inner = BACKEND.copy(inner, n.inner);
            n.outer = BACKEND.copy(outer, n.outer);
        }
        n.keyed = keyed;
    }

    /** A keyed state may not wait on the heap. */
    @Override
    byte[] saveState() {
        return null;
    }
}
