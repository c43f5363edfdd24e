package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.BLOCK_SIZE;
import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * HMAC-SM3 (RFC 2104), written once over the SM3 operations of the selected backend ({@link Backend}): the
 * provider's functions or {@code EVP_MD_CTX}s alike. Three SM3 contexts: the message's, and the inner and
 * outer states of a key, absorbed once for a context that serves many messages ({@link #key}) and copied per
 * message, as OpenSSL's own HMAC copies them. A context that serves one message (a new {@code Mac}, an HKDF
 * extract) starts from the pads themselves: the same compressions, without the two copies.
 *
 * <p>The pads (K0 XOR ipad, K0 XOR opad: 128 bytes, {@link #padsOf}) stay with the caller on the Java heap,
 * as the JDK's own HMAC keeps them, and the key itself is not kept. Everything an HMAC leaves in this context
 * derives from a key (the keyed states, a message's state, a finished MAC, which inside a KDF is a derived
 * key, and the staging bytes); the pool clears all of it ({@link #scrub}) before it lends the context again, as
 * it does every context.
 */
final class HmacContext extends PooledContext {
    MemorySegment inner;
    MemorySegment outer;
    /** Where the inner digest goes without keyed states: past the outer pad copied in front of it. */
    private final MemorySegment innerDigest;
    /** Whether {@code inner} and {@code outer} hold a key's pads. */
    private boolean keyed;

    private HmacContext(MemorySegment ctx, MemorySegment staging) {
        super(ctx, staging);
        innerDigest = staging.asSlice(BLOCK_SIZE, DIGEST_LENGTH);
    }

    static HmacContext allocate() {
        MemorySegment staging = allocateStaging();
        HmacContext c;
        try {
            c = new HmacContext(BACKEND.newContext(), staging);
        } catch (RuntimeException e) {
            freeStaging(staging);
            throw e;
        }
        try {
            c.inner = BACKEND.newContext();
            c.outer = BACKEND.newContext();
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
        if (key.length > BLOCK_SIZE) {
            byte[] pads = new byte[2 * BLOCK_SIZE];
            startMessage();
            // In place, not through the staging buffer, which would keep key bytes past the digest.
            updateInPlace(key, 0, key.length);
            BACKEND.finalInto(ctx, staging, writtenLength);
            output(pads, 0, DIGEST_LENGTH);
            staging.asSlice(0, DIGEST_LENGTH).fill((byte) 0);
            return xorPads(pads);
        }
        return padsOfBlock(key);
    }

    /** The pads of a key of at most a block. */
    private static byte[] padsOfBlock(byte[] key) {
        byte[] pads = new byte[2 * BLOCK_SIZE];
        System.arraycopy(key, 0, pads, 0, key.length);
        return xorPads(pads);
    }

    /** K0, at the start of {@code pads}, turned into K0 XOR ipad and K0 XOR opad in place. */
    private static byte[] xorPads(byte[] pads) {
        for (int i = 0; i < BLOCK_SIZE; i++) {
            pads[BLOCK_SIZE + i] = (byte) (pads[i] ^ 0x5c);
            pads[i] ^= 0x36;
        }
        return pads;
    }

    /**
     * The pads of {@code key} for a caller that holds no context: a key longer than a block is hashed on a context
     * borrowed for that, which goes back cleared.
     */
    static byte[] pads(byte[] key) {
        if (key.length <= BLOCK_SIZE) {
            return padsOfBlock(key);
        }
        HmacContext c = ContextPool.HMAC.borrow();
        boolean intact = false;
        try {
            byte[] pads = c.padsOf(key);
            intact = true;
            return pads;
        } finally {
            ContextPool.HMAC.giveBack(c, intact);
        }
    }

    /** Absorbs {@code pads} into the inner and outer states, from which every later message starts. */
    void key(byte[] pads) {
        keyed = true;
        BACKEND.init(inner);
        BACKEND.init(outer);
        try {
            MemorySegment.copy(pads, 0, staging, JAVA_BYTE, 0, 2 * BLOCK_SIZE);
            BACKEND.update(inner, staging, BLOCK_SIZE);
            BACKEND.update(outer, staging.asSlice(BLOCK_SIZE, BLOCK_SIZE), BLOCK_SIZE);
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
        if (keyed) {
            primed = false;
            ctx = BACKEND.copy(inner, ctx);
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
        MemorySegment.copy(message, offset, staging, JAVA_BYTE, BLOCK_SIZE, length);
        startFromPad(pads, length);
    }

    /** Init, then the inner pad and the {@code staged} bytes behind it in the staging buffer, in one update. */
    private void startFromPad(byte[] pads, int staged) {
        startMessage();
        MemorySegment.copy(pads, 0, staging, JAVA_BYTE, 0, BLOCK_SIZE);
        update(staging, BLOCK_SIZE + staged);
    }

    /** Finishes the message into the first 32 bytes of the staging buffer: the outer hash of the inner digest. */
    void finish(byte[] pads) {
        if (keyed) {
            BACKEND.finalInto(ctx, staging, writtenLength);
            // On a copy of the keyed outer state that lives for this hash only (the inner one is done).
            MemorySegment o = BACKEND.copyForOneMessage(outer, ctx);
            try {
                BACKEND.update(o, staging, DIGEST_LENGTH);
                BACKEND.finalInto(o, staging, writtenLength);
            } finally {
                BACKEND.dropCopy(o, ctx);
            }
            return;
        }
        // The outer pad in front of the inner digest: one update of both.
        BACKEND.finalInto(ctx, innerDigest, writtenLength);
        BACKEND.init(ctx);
        MemorySegment.copy(pads, BLOCK_SIZE, staging, JAVA_BYTE, 0, BLOCK_SIZE);
        BACKEND.update(ctx, staging, BLOCK_SIZE + DIGEST_LENGTH);
        BACKEND.finalInto(ctx, staging, writtenLength);
    }

    /** A keyed state may not wait on the heap. */
    @Override
    byte[] saveState() {
        return null;
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

    @Override
    void clearStates() {
        BACKEND.clear(ctx);
        if (keyed) {
            BACKEND.clear(inner);
            BACKEND.clear(outer);
            keyed = false;
        }
    }

    @Override
    void freeContexts() {
        for (MemorySegment c : Arrays.asList(ctx, inner, outer)) {
            if (c != null) {
                BACKEND.free(c);
            }
        }
    }
}
