package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;

import java.util.Arrays;

/**
 * HKDF (RFC 5869) with HMAC-SM3, computed here over the library's own HMAC-SM3 ({@link NativeHmac}), not by
 * OpenSSL's {@code EVP_KDF} "HKDF", which fetches HMAC and SM3 by name for every HMAC it computes and so
 * costs more than the hashing. Extract is one HMAC keyed with the salt; expand keys the context with the
 * PRK once, then computes each block T(i) = HMAC(PRK, T(i-1) || info || i) from a copy of the keyed state.
 *
 * <p>A derivation borrows one pooled context for its whole length and never claims it, like a short
 * message at {@code doFinal()}: the stream and the context are the derivation's own, so no other thread
 * can reach them. Before the context goes back to the pool, its keyed states are cleared and its staging
 * buffer zeroed ({@link NativeHmac#scrub}); the stream's copy of the key, the PRK and every block on the
 * heap are zeroed too, so nothing of the secrets outlives the call but its result.
 */
public final class NativeHkdf {
    private static final NativeHkdf INSTANCE = new NativeHkdf();
    private static final int MAX_LENGTH = 255 * DIGEST_LENGTH;

    private NativeHkdf() {
    }

    /** HKDF with HMAC-SM3, or why libcrypto cannot give it. */
    public static NativeHkdf create() throws LibCryptoUnavailableException {
        NativeHmac.create();
        return INSTANCE;
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
        NativeHmac mac;
        try {
            mac = NativeHmac.create();
        } catch (LibCryptoUnavailableException e) {
            // Not reached: this object exists only when HMAC-SM3 is available.
            throw new IllegalStateException(e);
        }
        NativeHmac.Context c = mac.pool().acquire();
        boolean scrubbed = false;
        byte[] prk = null;
        try {
            if (mode == Mode.EXPAND) {
                prk = key.clone();
            } else {
                prk = new byte[DIGEST_LENGTH];
                // An empty key is padded with zeros as RFC 5869's default salt of 32 zero bytes is.
                mac.init(salt);
                mac.start(c, true);
                mac.feedArray(c, key, 0, key.length);
                mac.finalInto(c, prk, 0);
            }
            byte[] out = mode == Mode.EXTRACT ? prk.clone() : expand(mac, c, prk, info, length);
            mac.scrub(c);
            scrubbed = true;
            return out;
        } finally {
            mac.clearKey();
            if (prk != null) {
                Arrays.fill(prk, (byte) 0);
            }
            if (scrubbed) {
                mac.pool().release(c);
            } else {
                // A native call failed, or the context may still hold secrets: freeing clears it.
                c.free();
            }
        }
    }

    /** T(1) || T(2) || ... cut to {@code length} bytes, on {@code c} keyed once with {@code prk}. */
    private static byte[] expand(NativeHmac mac, NativeHmac.Context c, byte[] prk, byte[] info, int length) {
        byte[] okm = new byte[length];
        // T(i-1) || info || i: the first block has no T(0).
        byte[] message = new byte[DIGEST_LENGTH + info.length + 1];
        System.arraycopy(info, 0, message, DIGEST_LENGTH, info.length);
        boolean done = false;
        try {
            mac.init(prk);
            for (int i = 1, at = 0; at < length; i++, at += DIGEST_LENGTH) {
                message[message.length - 1] = (byte) i;
                mac.start(c, false);
                int from = i == 1 ? DIGEST_LENGTH : 0;
                mac.feedArray(c, message, from, message.length - from);
                mac.finalInto(c, message, 0);
                System.arraycopy(message, 0, okm, at, Math.min(DIGEST_LENGTH, length - at));
            }
            done = true;
            return okm;
        } finally {
            Arrays.fill(message, 0, DIGEST_LENGTH, (byte) 0);
            if (!done) {
                Arrays.fill(okm, (byte) 0);
            }
        }
    }
}
