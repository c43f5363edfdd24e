package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;

import java.util.Arrays;

/**
 * A KDF's output as numbered blocks of one SM3 digest each, cut to the length asked: HKDF's T(i), PBKDF2's T_i,
 * the X9.63 KDF's SM3(Z || i || SharedInfo). The block on the heap is zeroed when done, and so is the output when
 * a block fails.
 */
final class DerivedBlocks {
    /** Computes block {@code i} (from 1) into the {@value Sm3Sizes#DIGEST_LENGTH} bytes of {@code into}. */
    interface Block {
        void compute(int i, byte[] into);
    }

    private DerivedBlocks() {
    }

    /**
     * Fills {@code out} with blocks 1, 2, ... and returns it; zeroes it, and the block (held in {@code scratch}), when
     * a block fails.
     */
    static byte[] derive(byte[] out, Scratch scratch, Block block) {
        int length = out.length;
        byte[] b = scratch.held(new byte[DIGEST_LENGTH]);
        boolean done = false;
        try {
            for (int i = 1, at = 0; at < length; i++, at += DIGEST_LENGTH) {
                block.compute(i, b);
                System.arraycopy(b, 0, out, at, Math.min(DIGEST_LENGTH, length - at));
            }
            done = true;
            return out;
        } finally {
            Arrays.fill(b, (byte) 0);
            if (!done) {
                Arrays.fill(out, (byte) 0);
            }
        }
    }
}
