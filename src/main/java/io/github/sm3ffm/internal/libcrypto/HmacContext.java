package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.BLOCK_SIZE;
import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.MemorySegment;
import java.util.List;

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
 */
final class HmacContext extends PooledContext {
    private MemorySegment inner;
    private MemorySegment outer;
    /** Whether {@code inner} and {@code outer} hold a key's pads. */
    private boolean keyed;

    private HmacContext(MemorySegment ctx, MemorySegment inner, MemorySegment outer, MemorySegment staging) {
        super(ctx, staging);
        this.inner = inner;
        this.outer = outer;
    }

    /** How a pool makes these contexts: a staging buffer and the SM3 states. */
    static final ContextPool.Kind<HmacContext> KIND = new ContextPool.Kind<>() {
        @Override
        public PooledContext make() {
            // Each allocation that fails frees the ones before it. Written here, one frame above the backend.
            MemorySegment staging = BACKEND.allocate(STAGING_SIZE);
            MemorySegment[] states = new MemorySegment[3];
            int made = 0;
            try {
                for (; made < states.length; made++) {
                    states[made] = BACKEND.newContext();
                }
                return new HmacContext(states[0], states[1], states[2], staging);
            } catch (RuntimeException e) {
                for (int i = 0; i < made; i++) {
                    BACKEND.free(states[i]);
                }
                BACKEND.release(staging);
                throw e;
            }
        }

        @Override
        public Class<HmacContext> type() {
            return HmacContext.class;
        }
    };

    /** The pool of these contexts, for Macs, PBKDF2 and HKDF. */
    static final ContextPool<HmacContext> POOL = new ContextPool<>(KIND);


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
        if (!takePrimed()) {
            BACKEND.init(ctx());
        }
        // In place, not through the staging buffer, which would keep key bytes past the digest.
        updateInPlace(key, 0, key.length);
        finishToOutput();
        MemorySegment.copy(output(), JAVA_BYTE, 0, k, 0, DIGEST_LENGTH);
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
    void key(byte[] pads) {
        keyed = true;
        BACKEND.init(inner);
        BACKEND.init(outer);
        try {
            stage(pads, 0, 0, PADS_LENGTH);
            BACKEND.update(inner, region(Staging.FIRST_BLOCK), BLOCK_SIZE);
            BACKEND.update(outer, region(Staging.SECOND_BLOCK), BLOCK_SIZE);
        } finally {
            wipe();
        }
    }

    /** Starts a message: from a copy of the keyed inner state, or else from the inner pad of {@code pads}. */
    void begin(byte[] pads) {
        if (keyed) {
            unprime();
            ctx(BACKEND.copy(inner, ctx()));
            return;
        }
        if (!takePrimed()) {
            BACKEND.init(ctx());
        }
        stage(pads, 0, 0, BLOCK_SIZE);
        BACKEND.update(ctx(), region(Staging.FIRST_BLOCK), BLOCK_SIZE);
    }

    /**
     * Starts a message with its first {@code length} bytes: without keyed states, the inner pad and bytes that
     * fit the staging buffer behind it go in one call.
     */
    void start(byte[] pads, byte[] message, int offset, int length) {
        if (keyed || BLOCK_SIZE + length > STAGING_SIZE) {
            begin(pads);
            updateArray(message, offset, length);
            return;
        }
        if (!takePrimed()) {
            BACKEND.init(ctx());
        }
        stage(pads, 0, 0, BLOCK_SIZE);
        stage(message, offset, BLOCK_SIZE, length);
        updateStaged(BLOCK_SIZE + length);
    }

    /** Feeds the output region, where the last final wrote: PBKDF2's U_{j-1} for U_j. */
    void updateWithOutput() {
        BACKEND.update(ctx(), output(), DIGEST_LENGTH);
    }

    /**
     * Finishes the message: the outer hash of the inner digest, into the output region, then copied to {@code out}
     * at {@code offset} when there is one (PBKDF2's chain reads it where it is).
     */
    void finish(byte[] pads, byte[] out, int offset) {
        MemorySegment o = output();
        if (keyed) {
            mark(DIGEST_LENGTH);
            BACKEND.finalInto(ctx(), o, writtenLength());
            // On a copy of the keyed outer state that lives for this hash only (the inner one is done).
            MemorySegment c = BACKEND.copyForOneMessage(outer, ctx());
            try {
                BACKEND.update(c, o, DIGEST_LENGTH);
                BACKEND.finalInto(c, o, writtenLength());
            } finally {
                BACKEND.dropCopy(c, ctx());
            }
        } else {
            // The outer pad in front of the inner digest: one update of both.
            mark(BLOCK_SIZE + DIGEST_LENGTH);
            BACKEND.finalInto(ctx(), region(Staging.INNER_DIGEST), writtenLength());
            BACKEND.init(ctx());
            stage(pads, BLOCK_SIZE, 0, BLOCK_SIZE);
            BACKEND.update(ctx(), region(Staging.OUTER_BLOCK), BLOCK_SIZE + DIGEST_LENGTH);
            BACKEND.finalInto(ctx(), o, writtenLength());
        }
        if (out != null) {
            MemorySegment.copy(o, JAVA_BYTE, 0, out, offset, DIGEST_LENGTH);
        }
    }

    /** Puts a copy of this context's states (the message's, and a key's) in {@code into}. */
    void copyTo(HmacContext into) {
        into.unprime();
        into.ctx(BACKEND.copy(ctx(), into.ctx()));
        if (keyed) {
            into.inner = BACKEND.copy(inner, into.inner);
            into.outer = BACKEND.copy(outer, into.outer);
        }
        into.keyed = keyed;
    }

    /** Whether this context holds a key's states, for tests. */
    boolean keyed() {
        return keyed;
    }

    @Override
    boolean clear() {
        try {
            BACKEND.clear(ctx());
            if (keyed) {
                keyed = false;
                BACKEND.clear(inner);
                BACKEND.clear(outer);
            }
        } catch (RuntimeException e) {
            return false;
        }
        return cleared();
    }

    @Override
    void freeKeys() {
        BACKEND.free(inner);
        BACKEND.free(outer);
    }

    @Override
    List<MemorySegment> states() {
        return List.of(ctx(), inner, outer);
    }
}
