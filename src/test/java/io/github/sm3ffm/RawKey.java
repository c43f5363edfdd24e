package io.github.sm3ffm;

import javax.crypto.SecretKey;

/** A secret key of any length, empty included (SecretKeySpec refuses empty keys), or with no encoding. */
public record RawKey(byte[] bytes) implements SecretKey {
    @Override
    public String getAlgorithm() {
        return "HmacSM3";
    }

    @Override
    public String getFormat() {
        return bytes == null ? null : "RAW";
    }

    @Override
    public byte[] getEncoded() {
        return bytes == null ? null : bytes.clone();
    }
}
