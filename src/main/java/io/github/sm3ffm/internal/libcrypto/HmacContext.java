package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.BLOCK_SIZE;
import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * HMAC-SM3 (RFC 2104), written once over the SM3 operations of the selected backend ({@link Sm3Calls}): the
 * provider's functions or {@code EVP_MD_CTX}s alike. Three SM3 contexts: the message's, and the inner and
 * outer states of a key, absorbed once for a context that serves many messages ({@link #key}) and copied per
 * message, as OpenSSL's own HMAC copies them. A context that serves one message (a new {@code Mac}, an HKDF
 * extract) starts from the pads themselves: the same compressions, without the two copies.
 *
 * <p>The pads (K0 XOR ipad, K0 XOR opad: 128 bytes, {@link #padsOf}) stay with the caller on the Java heap,
 * as the JDK's own HMAC keeps them. Whatever this context holds that derives from them (the keyed states, an
 * unfinished message, the staging bytes) is cleared by {@link #scrub} before the pool lends it again.
 */
final class HmacContext extends PooledContext {
    MemorySegment inner;
    MemorySegment outer;
    /** Where the inner digest goes without keyed states: past the outer pad copied in front of it. */
    private final MemorySegment innerDigest;
    /** Whether {@code inner} and {@code outer} hold a key's pads. */
    private boolean keyed;
    /** Whether {@code ctx} holds key-derived state other than a finished MAC. */
    private boolean open;

    private HmacContext(MemorySegment ctx, MemorySegment staging) {
        super(ctx, staging);
        innerDigest = staging.asSlice(BLOCK_SIZE, DIGEST_LENGTH);
    }

    static HmacContext allocate() {
        MemorySegment staging = allocateStaging();
        HmacContext c;
        try {
            c = new HmacContext(SM3.newContext(), staging);
        } catch (RuntimeException e) {
            freeStaging(staging);
            throw e;
        }
        try {
            c.inner = SM3.newContext();
            c.outer = SM3.newContext();
        } catch (RuntimeException e) {
            c.free();
            throw e;
        }
        return c;
    }

    /**
     * The pads of {@code key}: K0 XOR ipad, then K0 XOR opad, K0 being the key padded with zeros, or its SM3
     * digest (hashed here, in place) when it is longer than a block. The caller zeroes them when done.
     */
    byte[] padsOf(byte[] key) {
        byte[] pads = new byte[2 * BLOCK_SIZE];
        if (key.length > BLOCK_SIZE) {
            open = true;
            SM3.init(ctx);
            // In place, not through the staging buffer, which would keep key bytes past the digest.
            updateInPlace(key, 0, key.length);
            SM3.finalInto(ctx, staging, writtenLength);
            output(pads, 0, DIGEST_LENGTH);
            staging.asSlice(0, DIGEST_LENGTH).fill((byte) 0);
        } else {
            System.arraycopy(key, 0, pads, 0, key.length);
        }
        for (int i = 0; i < BLOCK_SIZE; i++) {
            pads[BLOCK_SIZE + i] = (byte) (pads[i] ^ 0x5c);
            pads[i] ^= 0x36;
        }
        return pads;
    }

    /** Absorbs {@code pads} into the inner and outer states, from which every later message starts. */
    void key(byte[] pads) {
        keyed = true;
        SM3.init(inner);
        SM3.init(outer);
        try {
            MemorySegment.copy(pads, 0, staging, JAVA_BYTE, 0, 2 * BLOCK_SIZE);
            SM3.update(inner, staging, BLOCK_SIZE);
            SM3.update(outer, staging.asSlice(BLOCK_SIZE, BLOCK_SIZE), BLOCK_SIZE);
        } finally {
            staging.asSlice(0, 2 * BLOCK_SIZE).fill((byte) 0);
        }
    }

    /** Whether {@link #key} has loaded a key's pads since the context was last scrubbed. */
    boolean keyed() {
        return keyed;
    }

    /** Starts a message: from a copy of the keyed inner state, or else from the inner pad of {@code pads}. */
    void start(byte[] pads) {
        open = true;
        if (keyed) {
            ctx = SM3.copy(inner, ctx);
        } else {
            startFromPad(pads, 0);
        }
    }

    /**
     * Starts a message with its first {@code length} bytes: without keyed states, the inner pad and bytes that
     * fit the staging buffer behind it go in one call.
     */
    void start(byte[] pads, byte[] message, int offset, int length) {
        if (keyed || BLOCK_SIZE + length > STAGING_SIZE) {
            start(pads);
            updateArray(message, offset, length);
            return;
        }
        open = true;
        MemorySegment.copy(message, offset, staging, JAVA_BYTE, BLOCK_SIZE, length);
        startFromPad(pads, length);
    }

    /** Init, then the inner pad and the {@code staged} bytes behind it in the staging buffer, in one update. */
    private void startFromPad(byte[] pads, int staged) {
        SM3.init(ctx);
        MemorySegment.copy(pads, 0, staging, JAVA_BYTE, 0, BLOCK_SIZE);
        update(staging, BLOCK_SIZE + staged);
    }

    /** Finishes the message into the first 32 bytes of the staging buffer: the outer hash of the inner digest. */
    void finish(byte[] pads) {
        open = false;
        if (keyed) {
            SM3.finalInto(ctx, staging, writtenLength);
            // On a copy of the keyed outer state that lives for this hash only (the inner one is done).
            MemorySegment o = SM3.copyForOneMessage(outer, ctx);
            try {
                SM3.update(o, staging, DIGEST_LENGTH);
                SM3.finalInto(o, staging, writtenLength);
            } finally {
                SM3.dropCopy(o, ctx);
            }
            return;
        }
        // The outer pad in front of the inner digest: one update of both.
        SM3.finalInto(ctx, innerDigest, writtenLength);
        SM3.init(ctx);
        MemorySegment.copy(pads, BLOCK_SIZE, staging, JAVA_BYTE, 0, BLOCK_SIZE);
        SM3.update(ctx, staging, BLOCK_SIZE + DIGEST_LENGTH);
        SM3.finalInto(ctx, staging, writtenLength);
    }

    @Override
    void copyTo(PooledContext into) {
        HmacContext n = (HmacContext) into;
        n.ctx = SM3.copy(ctx, n.ctx);
        if (keyed) {
            n.inner = SM3.copy(inner, n.inner);
            n.outer = SM3.copy(outer, n.outer);
        }
        n.keyed = keyed;
        n.open = open;
    }

    @Override
    void scrub() {
        // The provider's init zeroes the whole SM3 state before it sets the IV; so does EVP's, through it.
        if (keyed) {
            SM3.init(inner);
            SM3.init(outer);
            keyed = false;
        }
        if (open) {
            SM3.init(ctx);
            open = false;
        }
        staging.fill((byte) 0);
    }

    @Override
    void freeContexts() {
        for (MemorySegment c : Arrays.asList(ctx, inner, outer)) {
            if (c != null) {
                SM3.free(c);
            }
        }
    }
}
