package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;

import java.util.Arrays;

/**
 * HKDF (RFC 5869) with HMAC-SM3, computed here on the library's own HMAC-SM3 contexts ({@link HmacContext}),
 * not by OpenSSL's {@code EVP_KDF} "HKDF", which fetches HMAC and SM3 by name for every HMAC it computes and
 * so costs more than the hashing. Extract is one HMAC with the salt as key, computed from the pads; expand
 * computes each block T(i) = HMAC(PRK, T(i-1) || info || i), from the pads for one block, else from copies of
 * the states keyed once with the PRK. From the pads, the inner pad and a short message go in one call.
 *
 * <p>A derivation borrows one pooled context for its whole length and never claims it: no other thread can
 * reach it. It goes back to the pool through {@link ContextPool#giveBack}, which clears its keyed states and
 * staging buffer; the pads, the PRK and every block on the heap are zeroed here, so nothing of the secrets
 * outlives the call but its result. Handed out by {@code Algorithm.hkdf()} once HKDF-SM3 has passed its
 * self-test.
 */
public final class Hkdf {
    static final Hkdf INSTANCE = new Hkdf(Scratch.NONE);
    private static final int MAX_LENGTH = 255 * DIGEST_LENGTH;

    private final Scratch scratch;

    Hkdf(Scratch scratch) {
        this.scratch = scratch;
    }

    /** The three HKDF computations (RFC 5869 section 2). */
    public enum Mode {
        /** PRK = HMAC(salt, IKM), 32 bytes. */
        EXTRACT,
        /** OKM from a PRK and info. */
        EXPAND,
        /** Extract, then expand its PRK. */
        EXTRACT_THEN_EXPAND
    }

    /**
     * HKDF: {@code key} is the IKM (extract, extract then expand) or the PRK (expand); {@code salt} may be
     * empty (RFC 5869: a string of zeros) and is not used to expand; {@code info} is not used to extract.
     * The caller has checked the arguments as the JDK's HKDF does; {@code length} is ignored by extract.
     */
    public byte[] derive(Mode mode, byte[] key, byte[] salt, byte[] info, int length) {
        if (mode != Mode.EXTRACT && (length < 0 || length > MAX_LENGTH)) {
            throw new IllegalArgumentException("HKDF-SM3 gives 0 to " + MAX_LENGTH + " bytes, not " + length);
        }
        HmacContext c = HmacContext.POOL.borrow();
        boolean intact = false;
        byte[] prk = null;
        try {
            // An empty salt is padded with zeros as RFC 5869's default salt of 32 zero bytes is.
            prk = scratch.held(mode == Mode.EXPAND ? key.clone() : mac(c, salt, key));
            byte[] out = mode == Mode.EXTRACT ? prk.clone() : expand(c, prk, info, length);
            intact = true;
            return out;
        } finally {
            if (prk != null) {
                Arrays.fill(prk, (byte) 0);
            }
            HmacContext.POOL.giveBack(c, intact);
        }
    }

    /** HMAC({@code key}, {@code message}) on {@code c}, computed from the pads: c serves this one message. */
    private byte[] mac(HmacContext c, byte[] key, byte[] message) {
        byte[] pads = scratch.held(c.padsOf(key));
        try {
            c.start(pads, message, 0, message.length);
            byte[] out = new byte[DIGEST_LENGTH];
            c.finish(pads, out, 0);
            return out;
        } finally {
            Arrays.fill(pads, (byte) 0);
        }
    }

    /** T(1) || T(2) || ... cut to {@code length} bytes, on {@code c} keyed once with {@code prk}. */
    private byte[] expand(HmacContext c, byte[] prk, byte[] info, int length) {
        // T(i-1) || info || i: the first block has no T(0).
        byte[] message = scratch.held(new byte[DIGEST_LENGTH + info.length + 1]);
        System.arraycopy(info, 0, message, DIGEST_LENGTH, info.length);
        byte[] pads = scratch.held(c.padsOf(prk));
        try {
            // Keyed states cost two compressions once and save one per block: worth it from two blocks on.
            if (length > DIGEST_LENGTH) {
                c.key(pads);
            }
            return DerivedBlocks.derive(new byte[length], scratch, (i, into) -> {
                message[message.length - 1] = (byte) i;
                int from = i == 1 ? DIGEST_LENGTH : 0;
                c.start(pads, message, from, message.length - from);
                c.finish(pads, into, 0);
                System.arraycopy(into, 0, message, 0, DIGEST_LENGTH);
            });
        } finally {
            Arrays.fill(pads, (byte) 0);
            // T(n-1), and with it what is not secret, so that a scratch array is zeros when done.
            Arrays.fill(message, (byte) 0);
        }
    }
}
