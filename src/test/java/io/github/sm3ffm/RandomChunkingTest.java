package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.junit.jupiter.api.Test;

/**
 * Random sequences of updates through every input path, resets, clones, intermediate digests and digests that
 * end one message of a reused engine, each checked against BouncyCastle's SM3. Seeded: a failure names the seed, and
 * {@code -Dsm3ffm.test.seed=N} replays it.
 */
class RandomChunkingTest {
    private static final int CASES = 3000;
    private static final byte[] SOURCE = new byte[4 << 20];

    static {
        new Random(42).nextBytes(SOURCE);
    }

    @Test
    void randomSequencesAgreeWithBouncyCastle() {
        long[] totalBytes = new long[1];
        long base = Seeds.run(CASES, seed -> totalBytes[0] += runCase(seed));
        System.out.printf("RandomChunkingTest: %d MiB hashed, base seed %d%n", totalBytes[0] >> 20, base);
    }

    private static long runCase(long seed) throws Exception {
        Random rnd = new Random(seed);
        MessageDigest ours = MessageDigest.getInstance("SM3", new SM3Provider());
        SM3Digest reference = new SM3Digest();
        long bytes = 0;
        int ops = 1 + rnd.nextInt(20);
        StringBuilder trace = new StringBuilder();
        for (int op = 0; op < ops; op++) {
            int len = size(rnd);
            int off = rnd.nextInt(SOURCE.length - len + 1);
            int kind = rnd.nextInt(11);
            trace.append(kind).append(':').append(len).append(' ');
            switch (kind) {
                case 0 -> {
                    for (int k = 0; k < Math.min(len, 300); k++) {
                        ours.update(SOURCE[off + k]);
                    }
                    len = Math.min(len, 300);
                }
                case 1, 2 -> ours.update(SOURCE, off, len);
                case 3 -> ours.update(ByteBuffer.wrap(SOURCE, off, len));
                case 4 -> ours.update(ByteBuffer.allocateDirect(len).put(SOURCE, off, len).flip());
                case 5 -> ours.update(ByteBuffer.wrap(SOURCE, off, len).asReadOnlyBuffer());
                case 6 -> ours.update(ByteBuffer.allocateDirect(len).put(SOURCE, off, len).flip().asReadOnlyBuffer());
                case 7 -> {
                    // Clone and carry on with either copy; the other is finished and must match too.
                    MessageDigest copy = (MessageDigest) ours.clone();
                    if (rnd.nextBoolean()) {
                        MessageDigest t = ours;
                        ours = copy;
                        copy = t;
                    }
                    check(new SM3Digest(reference), copy, trace);
                    len = 0;
                }
                case 8 -> {
                    if (rnd.nextInt(4) == 0) {
                        ours.reset();
                        reference.reset();
                    }
                    len = 0;
                }
                case 9 -> {
                    // Finish this message and go on with the next: a reused engine keeps its native context.
                    check(reference, ours, trace);
                    reference.reset();
                    len = 0;
                }
                default -> {
                    MessageDigest copy = (MessageDigest) ours.clone();
                    check(new SM3Digest(reference), copy, trace);
                    len = 0;
                }
            }
            reference.update(SOURCE, off, len);
            bytes += len;
        }
        check(reference, ours, trace);
        return bytes;
    }

    private static int size(Random rnd) {
        int r = rnd.nextInt(1000);
        if (r < 5) {
            return rnd.nextInt(3 << 20);
        }
        if (r < 100) {
            return rnd.nextInt(70_000);
        }
        if (r < 300) {
            return rnd.nextInt(1100);
        }
        return rnd.nextInt(200);
    }

    private static void check(SM3Digest reference, MessageDigest ours, StringBuilder trace) {
        byte[] expected = new byte[32];
        reference.doFinal(expected, 0);
        assertEquals(HexFormat.of().formatHex(expected), HexFormat.of().formatHex(ours.digest()),
                "ops " + trace);
    }
}
