package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.BLOCK_SIZE;
import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;

import java.lang.foreign.MemorySegment;

/**
 * The regions of a context's off-heap staging buffer, declared once; every slice of it is made from here. Finals
 * write into {@link #OUTPUT}, and an HMAC's outer hash reads the outer pad with the inner digest behind it as one
 * block ({@link #OUTER_BLOCK}), so the regions overlap by design: a region holds what its step last wrote.
 */
enum Staging {
    /** Bytes copied in for one update: the whole buffer. */
    INPUT(0, Staging.SIZE),
    /** Where a final writes a digest or MAC, which a KDF or an HMAC's outer hash then reads. */
    OUTPUT(0, DIGEST_LENGTH),
    /** An HMAC key's two pads, while keyed states absorb them. */
    PADS(0, 2 * BLOCK_SIZE),
    /** The inner pad alone, or the outer pad in front of the inner digest. */
    FIRST_BLOCK(0, BLOCK_SIZE),
    /** The outer pad, the second half of {@link #PADS}. */
    SECOND_BLOCK(BLOCK_SIZE, BLOCK_SIZE),
    /** Where an HMAC without keyed states puts its inner digest: just past the outer pad. */
    INNER_DIGEST(BLOCK_SIZE, DIGEST_LENGTH),
    /** The outer pad and the inner digest behind it, hashed as one update. */
    OUTER_BLOCK(0, BLOCK_SIZE + DIGEST_LENGTH);

    /** Bytes of the staging buffer. */
    static final int SIZE = 512;

    final int offset;
    final int length;

    Staging(int offset, int length) {
        this.offset = offset;
        this.length = length;
    }

    /** This region of {@code buffer}, a staging buffer of {@link #SIZE} bytes. */
    MemorySegment of(MemorySegment buffer) {
        return buffer.asSlice(offset, length);
    }
}
