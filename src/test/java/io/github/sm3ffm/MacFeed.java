package io.github.sm3ffm;

import java.nio.ByteBuffer;
import java.util.Arrays;
import javax.crypto.Mac;

/** The ways a user can hand a message to an initialised Mac and get the tag back. */
public enum MacFeed {
    DO_FINAL_ARRAY,
    UPDATE_BYTES,
    /** Slices of a larger array at an odd offset, in sizes that cross the staged and in-place paths. */
    UPDATE_SLICES,
    HEAP_BUFFER_SLICE,
    DIRECT_BUFFER,
    READ_ONLY_HEAP_BUFFER,
    READ_ONLY_DIRECT_BUFFER,
    DO_FINAL_INTO_OFFSET,
    /** Half the message, a clone, the rest to both: clone and original must agree. */
    CLONE_HALFWAY;

    /** Feeds {@code m} this way and returns the tag; the Mac is left reset, with its key. */
    public byte[] mac(Mac mac, byte[] m) throws Exception {
        switch (this) {
            case DO_FINAL_ARRAY -> {
                return mac.doFinal(m);
            }
            case UPDATE_BYTES -> {
                for (byte b : m) {
                    mac.update(b);
                }
            }
            case UPDATE_SLICES -> {
                byte[] padded = new byte[m.length + 10];
                System.arraycopy(m, 0, padded, 3, m.length);
                int[] sizes = {1, 7, 64, 127, 128, 129, 511, 513, 70_000};
                for (int i = 0, p = 0; p < m.length; i++) {
                    int n = Math.min(sizes[i % sizes.length], m.length - p);
                    mac.update(padded, 3 + p, n);
                    p += n;
                }
            }
            case HEAP_BUFFER_SLICE -> {
                byte[] padded = new byte[m.length + 8];
                System.arraycopy(m, 0, padded, 5, m.length);
                consume(mac, ByteBuffer.wrap(padded, 2, m.length + 3).slice().position(3));
            }
            case DIRECT_BUFFER -> consume(mac, ByteBuffer.allocateDirect(m.length + 4).position(4).put(m).position(4));
            case READ_ONLY_HEAP_BUFFER -> consume(mac, ByteBuffer.wrap(m).asReadOnlyBuffer());
            case READ_ONLY_DIRECT_BUFFER ->
                    consume(mac, ByteBuffer.allocateDirect(m.length).put(m).flip().asReadOnlyBuffer());
            case DO_FINAL_INTO_OFFSET -> {
                mac.update(m);
                byte[] out = new byte[40];
                Arrays.fill(out, (byte) 0x5a);
                mac.doFinal(out, 5);
                if (out[4] != 0x5a || out[37] != 0x5a) {
                    throw new AssertionError("doFinal(byte[], int) wrote outside its 32 bytes");
                }
                return Arrays.copyOfRange(out, 5, 37);
            }
            case CLONE_HALFWAY -> {
                int half = m.length / 2;
                mac.update(m, 0, half);
                Mac copy = (Mac) mac.clone();
                mac.update(m, half, m.length - half);
                copy.update(m, half, m.length - half);
                byte[] a = mac.doFinal();
                if (!Arrays.equals(a, copy.doFinal())) {
                    throw new AssertionError("clone and original disagree");
                }
                return a;
            }
        }
        return mac.doFinal();
    }

    private static void consume(Mac mac, ByteBuffer b) {
        mac.update(b);
        if (b.hasRemaining()) {
            throw new AssertionError("update(ByteBuffer) must leave position at limit: " + b);
        }
    }
}
