package io.github.sm3ffm;

import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.SecretKey;

/**
 * A key over an array the caller owns: unlike {@code SecretKeySpec}, which keeps a copy that nothing zeroes, it
 * hands out copies only, and the provider's {@code Mac} zeroes the copy it takes.
 */
final class RowKey implements SecretKey {
    private static final long serialVersionUID = 1L;
    final transient byte[] bytes;

    RowKey(byte[] bytes) {
        this.bytes = bytes;
    }

    /**
     * Zeroes the pads a {@code Mac} keeps (a new key of one byte replaces them, with no native call) before it is
     * dropped; its native context goes back to the provider's pool, which clears it, when the GC finds it.
     */
    static void forget(Mac mac) {
        try {
            mac.init(new RowKey(new byte[1]));
        } catch (GeneralSecurityException | RuntimeException e) {
            // Dropped all the same.
        }
    }

    @Override
    public String getAlgorithm() {
        return "HmacSM3";
    }

    @Override
    public String getFormat() {
        return "RAW";
    }

    @Override
    public byte[] getEncoded() {
        return bytes.clone();
    }
}
