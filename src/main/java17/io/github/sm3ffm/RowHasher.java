package io.github.sm3ffm;

/**
 * Row hashing as JDK 17 to 21 load it from the jar's base: every call throws
 * {@link UnsupportedOperationException} saying that JDK 22 or later is needed. The real class is in
 * META-INF/versions/22; this one has its public API.
 */
public final class RowHasher {
    /** The length of an SM3 digest and of an HMAC-SM3 tag: 32 bytes. */
    public static final int DIGEST_LENGTH = 32;
    /** The real class's refusal of an empty key, which {@link #checkKeyLength} gives here too. */
    public static final String EMPTY_KEY = "the key is empty. RFC 2104 defines HMAC for an empty key, but it is"
            + " refused, as SecretKeySpec and Trino's hmac_sha256 refuse one: an empty key is almost always a missing"
            + " one";

    private static final RowHasher SHARED = new RowHasher();

    private RowHasher() {
    }

    /**
     * The JVM's row hasher, whose every method throws here.
     *
     * @return the shared instance
     */
    public static RowHasher of() {
        return SHARED;
    }

    /**
     * Refuses an empty key, as on JDK 22 and later: it reads no native code, so it works here.
     *
     * @param keyLength a key's length in bytes
     * @throws IllegalArgumentException with the message {@link #EMPTY_KEY} if {@code keyLength} is 0
     */
    public static void checkKeyLength(int keyLength) {
        if (keyLength == 0) {
            throw new IllegalArgumentException(EMPTY_KEY);
        }
    }

    /**
     * Throws.
     *
     * @param data   the bytes to hash
     * @param offset where they start in {@code data}
     * @param length how many there are
     * @return never
     * @throws UnsupportedOperationException always
     */
    public byte[] sm3(byte[] data, int offset, int length) {
        throw unsupported();
    }

    /**
     * Throws.
     *
     * @param data      the bytes to hash
     * @param offset    where they start in {@code data}
     * @param length    how many there are
     * @param out       where the digest would go
     * @param outOffset where in {@code out}
     * @throws UnsupportedOperationException always
     */
    public void sm3(byte[] data, int offset, int length, byte[] out, int outOffset) {
        throw unsupported();
    }

    /**
     * Throws.
     *
     * @param key       the key's bytes
     * @param keyOffset where the key starts in {@code key}
     * @param keyLength its length
     * @param data      the bytes to authenticate
     * @param offset    where they start in {@code data}
     * @param length    how many there are
     * @return never
     * @throws UnsupportedOperationException always
     */
    public byte[] hmacSm3(byte[] key, int keyOffset, int keyLength, byte[] data, int offset, int length) {
        throw unsupported();
    }

    /**
     * Throws.
     *
     * @param key       the key's bytes
     * @param keyOffset where the key starts in {@code key}
     * @param keyLength its length
     * @param data      the bytes to authenticate
     * @param offset    where they start in {@code data}
     * @param length    how many there are
     * @param out       where the tag would go
     * @param outOffset where in {@code out}
     * @throws UnsupportedOperationException always
     */
    public void hmacSm3(byte[] key, int keyOffset, int keyLength, byte[] data, int offset, int length,
                        byte[] out, int outOffset) {
        throw unsupported();
    }

    private static UnsupportedOperationException unsupported() {
        return new UnsupportedOperationException(SM3Provider.reason());
    }
}
