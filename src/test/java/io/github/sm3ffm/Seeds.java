package io.github.sm3ffm;

import java.util.Random;

/**
 * Runs seeded random cases: seeds base, base + 1, ... from a fresh base each run. A failure names its
 * seed, and {@code -Dsm3ffm.test.seed=N} replays exactly that case. {@code -Dsm3ffm.test.cases=N} runs at
 * most N cases per test, for machines where the full count would take too long (an emulated CPU).
 */
final class Seeds {
    static final String PROPERTY = "sm3ffm.test.seed";
    private static final String CASES_PROPERTY = "sm3ffm.test.cases";

    interface Case {
        void run(long seed) throws Exception;
    }

    private Seeds() {
    }

    /** Runs {@code cases} cases (one when replaying) and returns the base seed. */
    static long run(int cases, Case c) {
        Long replay = Long.getLong(PROPERTY);
        long base = replay != null ? replay : new Random().nextLong();
        int count = replay != null ? 1 : Math.min(cases, Integer.getInteger(CASES_PROPERTY, cases));
        if (count < 1) {
            throw new IllegalArgumentException("-D" + CASES_PROPERTY + " must be at least 1");
        }
        for (int i = 0; i < count; i++) {
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
