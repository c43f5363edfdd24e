package io.github.sm3ffm.internal.libcrypto;

/** SM3's sizes (GB/T 32905-2016), which HMAC-SM3 and the KDFs share; the bottom of the facade. */
public final class Sm3Sizes {
    /** Bytes in an SM3 digest, and so in an HMAC-SM3. */
    public static final int DIGEST_LENGTH = 32;
    /** Bytes in an SM3 block, and so in HMAC's pads. */
    public static final int BLOCK_SIZE = 64;

    private Sm3Sizes() {
    }
}
