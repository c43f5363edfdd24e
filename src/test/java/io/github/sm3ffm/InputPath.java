package io.github.sm3ffm;

import java.nio.ByteBuffer;
import java.security.DigestException;
import java.security.MessageDigest;
import java.util.Arrays;

/** The ways a user can hand a message to a MessageDigest and get its digest back. */
public enum InputPath {
    DIGEST_ARRAY {
        @Override
        byte[] digest(MessageDigest md, byte[] m) {
            return md.digest(m);
        }
    },
    UPDATE_BYTE {
        @Override
        void feed(MessageDigest md, byte[] m) {
            for (byte b : m) {
                md.update(b);
            }
        }
    },
    UPDATE_ARRAY {
        @Override
        void feed(MessageDigest md, byte[] m) {
            md.update(m);
        }
    },
    /** Slices of a larger array at an odd offset, in varied sizes that cross both input paths. */
    UPDATE_SLICES {
        @Override
        void feed(MessageDigest md, byte[] m) {
            byte[] padded = new byte[m.length + 10];
            System.arraycopy(m, 0, padded, 3, m.length);
            int[] sizes = {1, 7, 64, 127, 128, 129, 511, 513, 70_000};
            int p = 0;
            for (int i = 0; p < m.length; i++) {
                int n = Math.min(sizes[i % sizes.length], m.length - p);
                md.update(padded, 3 + p, n);
                p += n;
            }
        }
    },
    HEAP_BUFFER {
        @Override
        void feed(MessageDigest md, byte[] m) {
            byte[] padded = new byte[m.length + 8];
            System.arraycopy(m, 0, padded, 5, m.length);
            // A slice has a non-zero arrayOffset: the engine must honour it.
            ByteBuffer b = ByteBuffer.wrap(padded, 2, m.length + 3).slice().position(3);
            md.update(b);
            check(b);
        }
    },
    DIRECT_BUFFER {
        @Override
        void feed(MessageDigest md, byte[] m) {
            ByteBuffer b = ByteBuffer.allocateDirect(m.length + 4).position(4);
            b.put(m).flip().position(4);
            md.update(b);
            check(b);
        }
    },
    READ_ONLY_HEAP_BUFFER {
        @Override
        void feed(MessageDigest md, byte[] m) {
            ByteBuffer b = ByteBuffer.wrap(m).asReadOnlyBuffer();
            md.update(b);
            check(b);
        }
    },
    READ_ONLY_DIRECT_BUFFER {
        @Override
        void feed(MessageDigest md, byte[] m) {
            ByteBuffer b = ByteBuffer.allocateDirect(m.length).put(m).flip().asReadOnlyBuffer();
            md.update(b);
            check(b);
        }
    },
    DIGEST_INTO_OFFSET {
        @Override
        byte[] digest(MessageDigest md, byte[] m) throws DigestException {
            md.update(m);
            byte[] out = new byte[40];
            Arrays.fill(out, (byte) 0x5a);
            int n = md.digest(out, 5, 35);
            if (n != 32 || out[4] != 0x5a || out[37] != 0x5a) {
                throw new AssertionError("digest(byte[], int, int) wrote outside its 32 bytes or returned " + n);
            }
            return Arrays.copyOfRange(out, 5, 37);
        }
    },
    /** Half the message, a clone, the rest to both: the clone and the original must agree. */
    CLONE_HALFWAY {
        @Override
        byte[] digest(MessageDigest md, byte[] m) throws Exception {
            int half = m.length / 2;
            md.update(m, 0, half);
            MessageDigest copy = (MessageDigest) md.clone();
            md.update(m, half, m.length - half);
            copy.update(m, half, m.length - half);
            byte[] a = md.digest();
            byte[] b = copy.digest();
            if (!Arrays.equals(a, b)) {
                throw new AssertionError("clone and original disagree");
            }
            return a;
        }
    };

    void feed(MessageDigest md, byte[] m) {
        throw new UnsupportedOperationException();
    }

    /** Feeds {@code m} this way and returns the digest; the digest object is left reset. */
    byte[] digest(MessageDigest md, byte[] m) throws Exception {
        feed(md, m);
        return md.digest();
    }

    private static void check(ByteBuffer b) {
        if (b.hasRemaining()) {
            throw new AssertionError("update(ByteBuffer) must leave position at limit: " + b);
        }
    }
}
