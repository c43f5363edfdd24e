package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.Random;
import javax.crypto.Mac;
import org.junit.jupiter.api.Test;

/**
 * Random keys (0 to 1000 bytes) and random sequences of updates through every input path, clones,
 * resets, intermediate tags and new keys, each checked against BouncyCastle's HMAC-SM3. Seeded: a failure
 * names the seed, and {@code -Dsm3ffm.test.seed=N} replays it.
 */
class HmacSM3RandomTest {
    private static final int CASES = 1500;
    private static final byte[] SOURCE = new byte[1 << 20];

    static {
        new Random(7).nextBytes(SOURCE);
    }

    @Test
    void randomSequencesAgreeWithBouncyCastle() {
        long[] totals = new long[3];
        long base = Seeds.run(CASES, seed -> {
            Case c = new Case(seed);
            c.run();
            totals[0]++;
            totals[1] += c.tags;
            totals[2] += c.bytes;
        });
        System.out.printf("HmacSM3RandomTest: %d cases, %d tags checked, %d KiB MACed, base seed %d%n",
                totals[0], totals[1], totals[2] >> 10, base);
    }

    private static final class Case {
        final Random rnd;
        final StringBuilder trace = new StringBuilder();
        Mac ours;
        byte[] key;
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        long bytes;
        int tags;

        Case(long seed) {
            rnd = new Random(seed);
        }

        void run() throws Exception {
            ours = HmacSM3Test.mac();
            newKey();
            int ops = 1 + rnd.nextInt(20);
            for (int op = 0; op < ops; op++) {
                int len = size();
                int off = rnd.nextInt(SOURCE.length - len + 1);
                int kind = rnd.nextInt(12);
                trace.append(kind).append(':').append(len).append(' ');
                switch (kind) {
                    case 0 -> {
                        len = Math.min(len, 300);
                        for (int k = 0; k < len; k++) {
                            ours.update(SOURCE[off + k]);
                        }
                    }
                    case 1, 2 -> ours.update(SOURCE, off, len);
                    case 3 -> ours.update(ByteBuffer.wrap(SOURCE, off, len));
                    case 4 -> ours.update(ByteBuffer.allocateDirect(len).put(SOURCE, off, len).flip());
                    case 5 -> ours.update(ByteBuffer.wrap(SOURCE, off, len).asReadOnlyBuffer());
                    case 6 -> ours.update(ByteBuffer.allocateDirect(len).put(SOURCE, off, len).flip()
                            .asReadOnlyBuffer());
                    case 7 -> {
                        // Clone, carry on with either copy, finish the other now.
                        Mac copy = (Mac) ours.clone();
                        if (rnd.nextBoolean()) {
                            Mac t = ours;
                            ours = copy;
                            copy = t;
                        }
                        check(copy.doFinal());
                        len = 0;
                    }
                    case 8 -> {
                        ours.reset();
                        message.reset();
                        len = 0;
                    }
                    case 9 -> {
                        check(ours.doFinal());
                        message.reset();
                        len = 0;
                    }
                    case 10 -> {
                        newKey();
                        len = 0;
                    }
                    default -> {
                        check(((Mac) ours.clone()).doFinal());
                        len = 0;
                    }
                }
                message.write(SOURCE, off, len);
                bytes += len;
            }
            check(ours.doFinal());
        }

        private void newKey() throws Exception {
            int r = rnd.nextInt(10);
            int length = r == 0 ? new int[] {0, 1, 63, 64, 65, 1000}[rnd.nextInt(6)] : rnd.nextInt(1001);
            key = new byte[length];
            rnd.nextBytes(key);
            ours.init(new RawKey(key));
            message.reset();
            trace.append("key:").append(length).append(' ');
        }

        private int size() {
            int r = rnd.nextInt(1000);
            if (r < 5) {
                return rnd.nextInt(SOURCE.length);
            }
            if (r < 80) {
                return rnd.nextInt(70_000);
            }
            if (r < 300) {
                return rnd.nextInt(1100);
            }
            return rnd.nextInt(200);
        }

        private void check(byte[] tag) {
            tags++;
            byte[] expected = HmacSM3Test.reference(key, message.toByteArray());
            assertEquals(HexFormat.of().formatHex(expected), HexFormat.of().formatHex(tag), "ops " + trace);
        }
    }
}
