package io.github.sm3ffm;

import java.util.Random;

/**
 * Runs seeded random cases: seeds base, base + 1, ... from a fresh base each run. A failure names its
 * seed, and {@code -Dsm3ffm.test.seed=N} replays exactly that case.
 */
final class Seeds {
    static final String PROPERTY = "sm3ffm.test.seed";

    interface Case {
        void run(long seed) throws Exception;
    }

    private Seeds() {
    }

    /** Runs {@code cases} cases (one when replaying) and returns the base seed. */
    static long run(int cases, Case c) {
        Long replay = Long.getLong(PROPERTY);
        long base = replay != null ? replay : new Random().nextLong();
        for (int i = 0; i < (replay != null ? 1 : cases); i++) {
            long seed = base + i;
            try {
                c.run(seed);
            } catch (AssertionError | Exception e) {
                throw new AssertionError("failed with -D" + PROPERTY + "=" + seed + ": " + e.getMessage(), e);
            }
        }
        return base;
    }
}
