package io.github.sm3ffm;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.Arrays;
import javax.crypto.Mac;

/** The ways a user can hand a message to a MessageDigest or an initialised Mac and get the result back. */
public enum InputPath {
    FINISH_ARRAY,
    UPDATE_BYTES,
    /** Slices of a larger array at an odd offset, in sizes that cross the staged and in-place paths. */
    UPDATE_SLICES,
    /** A slice has a non-zero arrayOffset: the engine must honour it. */
    HEAP_BUFFER_SLICE,
    DIRECT_BUFFER,
    READ_ONLY_HEAP_BUFFER,
    READ_ONLY_DIRECT_BUFFER,
    FINISH_INTO_OFFSET,
    /** Half the message, a clone, the rest to both: clone and original must agree. */
    CLONE_HALFWAY;

    /** What the two JCA classes have in common, for one feeding routine. */
    private interface Engine {
        void update(byte b);

        void update(byte[] b, int offset, int len);

        void update(ByteBuffer b);

        byte[] finish(byte[] last) throws Exception;

        /** Writes the 32-byte result into {@code out} at {@code offset}. */
        void finishInto(byte[] out, int offset) throws Exception;

        Engine copy() throws CloneNotSupportedException;
    }

    /** Feeds {@code m} this way and returns the digest; the digest object is left reset. */
    public byte[] digest(MessageDigest md, byte[] m) throws Exception {
        return feed(of(md), m);
    }

    /** Feeds {@code m} this way and returns the tag; the Mac is left reset, with its key. */
    public byte[] mac(Mac mac, byte[] m) throws Exception {
        return feed(of(mac), m);
    }

    private byte[] feed(Engine e, byte[] m) throws Exception {
        switch (this) {
            case FINISH_ARRAY -> {
                return e.finish(m);
            }
            case UPDATE_BYTES -> {
                for (byte b : m) {
                    e.update(b);
                }
            }
            case UPDATE_SLICES -> {
                byte[] padded = new byte[m.length + 10];
                System.arraycopy(m, 0, padded, 3, m.length);
                int[] sizes = {1, 7, 64, 127, 128, 129, 511, 513, 70_000};
                for (int i = 0, p = 0; p < m.length; i++) {
                    int n = Math.min(sizes[i % sizes.length], m.length - p);
                    e.update(padded, 3 + p, n);
                    p += n;
                }
            }
            case HEAP_BUFFER_SLICE -> {
                byte[] padded = new byte[m.length + 8];
                System.arraycopy(m, 0, padded, 5, m.length);
                consume(e, ByteBuffer.wrap(padded, 2, m.length + 3).slice().position(3));
            }
            case DIRECT_BUFFER -> consume(e, ByteBuffer.allocateDirect(m.length + 4).position(4).put(m).position(4));
            case READ_ONLY_HEAP_BUFFER -> consume(e, ByteBuffer.wrap(m).asReadOnlyBuffer());
            case READ_ONLY_DIRECT_BUFFER ->
                    consume(e, ByteBuffer.allocateDirect(m.length).put(m).flip().asReadOnlyBuffer());
            case FINISH_INTO_OFFSET -> {
                e.update(m, 0, m.length);
                byte[] out = new byte[40];
                Arrays.fill(out, (byte) 0x5a);
                e.finishInto(out, 5);
                if (out[4] != 0x5a || out[37] != 0x5a) {
                    throw new AssertionError("the result was written outside its 32 bytes");
                }
                return Arrays.copyOfRange(out, 5, 37);
            }
            case CLONE_HALFWAY -> {
                int half = m.length / 2;
                e.update(m, 0, half);
                Engine copy = e.copy();
                e.update(m, half, m.length - half);
                copy.update(m, half, m.length - half);
                byte[] a = e.finish(new byte[0]);
                if (!Arrays.equals(a, copy.finish(new byte[0]))) {
                    throw new AssertionError("clone and original disagree");
                }
                return a;
            }
        }
        return e.finish(new byte[0]);
    }

    private static void consume(Engine e, ByteBuffer b) {
        e.update(b);
        if (b.hasRemaining()) {
            throw new AssertionError("update(ByteBuffer) must leave position at limit: " + b);
        }
    }

    private static Engine of(MessageDigest md) {
        return new Engine() {
            public void update(byte b) {
                md.update(b);
            }

            public void update(byte[] b, int offset, int len) {
                md.update(b, offset, len);
            }

            public void update(ByteBuffer b) {
                md.update(b);
            }

            public byte[] finish(byte[] last) {
                return md.digest(last);
            }

            public void finishInto(byte[] out, int offset) throws Exception {
                int n = md.digest(out, offset, out.length - offset);
                if (n != 32) {
                    throw new AssertionError("digest(byte[], int, int) returned " + n);
                }
            }

            public Engine copy() throws CloneNotSupportedException {
                return of((MessageDigest) md.clone());
            }
        };
    }

    private static Engine of(Mac mac) {
        return new Engine() {
            public void update(byte b) {
                mac.update(b);
            }

            public void update(byte[] b, int offset, int len) {
                mac.update(b, offset, len);
            }

            public void update(ByteBuffer b) {
                mac.update(b);
            }

            public byte[] finish(byte[] last) {
                return mac.doFinal(last);
            }

            public void finishInto(byte[] out, int offset) throws Exception {
                mac.doFinal(out, offset);
            }

            public Engine copy() throws CloneNotSupportedException {
                return of((Mac) mac.clone());
            }
        };
    }
}
