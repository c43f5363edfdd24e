package io.github.sm3ffm.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class SuiteArgumentsTest {
    @Test
    void defaultsAreTheFullRunIntoDocs() {
        Suite.Arguments a = Suite.Arguments.parse(new String[0]);
        assertEquals("full", a.mode);
        assertEquals(Path.of("docs"), a.out);
        assertEquals(Suite.Arguments.DEFAULTS, a.settings());
        assertEquals(Providers.ALL, a.implementations);
    }

    @Test
    void smokeIsShortAndStaysOutOfDocs() {
        Suite.Arguments a = Suite.Arguments.parse(new String[] {"--smoke"});
        assertEquals("smoke", a.mode);
        assertEquals(Path.of("target/bench"), a.out);
        assertEquals(Suite.Arguments.SMOKE, a.settings());
    }

    @Test
    void anythingLessThanTheWholeDefaultRunIsReduced() {
        assertEquals("reduced", Suite.Arguments.parse(new String[] {"--rounds", "1"}).mode);
        assertEquals("reduced", Suite.Arguments.parse(new String[] {"--only", "Digest"}).mode);
        assertEquals("reduced", Suite.Arguments.parse(new String[] {"--implementations", "SM3FFM,BC"}).mode);
        assertEquals("full", Suite.Arguments.parse(new String[] {"--note", "quiet machine", "--out", "x"}).mode);
    }

    @Test
    void commandLineIsRecordedQuotedWithoutTheNote() {
        Suite.Arguments a = Suite.Arguments.parse(new String[] {"--rounds", "2", "--note", "busy", "--only", "Digest|Update"});
        assertEquals("bench/run --rounds 2 --only 'Digest|Update'", a.commandLine(), "the note is shown on its own");
        assertEquals(List.of("SM3FFM", "BC"), Suite.Arguments.parse(new String[] {"--implementations", "SM3FFM,BC"}).implementations);
    }

    @Test
    void badOptionsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Suite.Arguments.parse(new String[] {"--rounds", "0"}));
        assertThrows(IllegalArgumentException.class, () -> Suite.Arguments.parse(new String[] {"--rounds"}));
        assertThrows(IllegalArgumentException.class, () -> Suite.Arguments.parse(new String[] {"--fast"}));
    }

    @Test
    void expectedTimeCountsForksAndOpensslRuns() {
        RunRecord.Settings s = new RunRecord.Settings(3, 2, 500, 4, 250, 2, 1, 3000);
        // per fork: overhead + 2 x 0.5 s + 4 x 0.25 s (or 4 x 0.75 s); per openssl run: 1 s + 0.05 s
        assertEquals(Suite.FORK_OVERHEAD_SECONDS + 2.0, s.forkSeconds(2, 250), 1e-9);
        assertEquals(Suite.FORK_OVERHEAD_SECONDS + 4.0, s.forkSeconds(2, 750), 1e-9);
        assertEquals(Suite.FORK_OVERHEAD_SECONDS + 4.0, s.forkSeconds(6, 250), 1e-9);
        assertEquals(Math.round(10 * (Suite.FORK_OVERHEAD_SECONDS + 2.0) + 4 * 1.05),
                s.expectedSeconds(10 * s.forkSeconds(2, 250), 4));
    }

    @Test
    void implementationsThatStepDownLateWarmUpForTheSteadyWarmupOnly() {
        RunRecord.Settings s = new RunRecord.Settings(3, 2, 500, 4, 250, 2, 1, 3200);
        assertEquals(7, s.warmupIterations(Providers.KONA_NATIVE), "3.2 s in 500 ms iterations, rounded up");
        assertEquals(7, s.warmupIterations(Providers.GLASSLESS));
        assertEquals(2, s.warmupIterations(Providers.SM3FFM));
        assertEquals(2, s.warmupIterations(Providers.KONA));
        assertEquals(2, s.warmupIterations(null), "a point without an implementation");
        RunRecord.Settings shortOne = new RunRecord.Settings(3, 2, 500, 4, 250, 2, 1, 100);
        assertEquals(2, shortOne.warmupIterations(Providers.KONA_NATIVE), "never less than everyone's warmup");
        assertEquals(5000, Suite.Arguments.parse(new String[0]).settings().steadyWarmupMillis());
        Suite.Arguments shorter = Suite.Arguments.parse(new String[] {"--steady-warmup-ms", "4000"});
        assertEquals(4000, shorter.settings().steadyWarmupMillis());
        assertEquals("reduced", shorter.mode);
    }

    @Test
    void settledPointsRunLongerOrInMoreForksAtTheirSizesOnly() {
        RunRecord.Settings s = Suite.Arguments.DEFAULTS;
        assertEquals(new RunRecord.Settled("DigestBenchmark.digest", "64", 1, 3 * s.iterationMillis()),
                new Suite.Point(DigestBenchmark.class, "digest", "64", "BC").settled(s));
        assertEquals(new RunRecord.Settled("DigestBenchmark.digest", "16", 3, 3 * s.iterationMillis()),
                new Suite.Point(DigestBenchmark.class, "digest", "16", "GlaSSLess").settled(s));
        assertEquals(new RunRecord.Settled("DigestBenchmark.digest", "1024", 1, s.iterationMillis()),
                new Suite.Point(DigestBenchmark.class, "digest", "1024", "BC").settled(s));
        assertEquals(new RunRecord.Settled("UpdateBenchmark.updateByte1KiB", null, 3, s.iterationMillis()),
                new Suite.Point(UpdateBenchmark.class, "updateByte1KiB", null, "SM3FFM").settled(s));
        assertEquals(new RunRecord.Settled("CallPatternBenchmark.reusedDigest", "16", 1, s.iterationMillis()),
                new Suite.Point(CallPatternBenchmark.class, "reusedDigest", "16", "SM3FFM").settled(s));
        assertEquals(new RunRecord.Settled("CallPatternBenchmark.newDigest", "64", 6, 3 * s.iterationMillis()),
                new Suite.Point(CallPatternBenchmark.class, "newDigest", "64", Providers.KONA_NATIVE).settled(s));
        assertEquals(new RunRecord.Settled("CallPatternBenchmark.newDigest", "16", 1, 3 * s.iterationMillis()),
                new Suite.Point(CallPatternBenchmark.class, "newDigest", "16", Providers.KONA_NATIVE).settled(s));
        assertEquals(new RunRecord.Settled("CallPatternBenchmark.reusedMac", "64", 3, s.iterationMillis()),
                new Suite.Point(CallPatternBenchmark.class, "reusedMac", "64", Providers.KONA_NATIVE).settled(s));
        assertEquals(new RunRecord.Settled("CallPatternBenchmark.reusedMac", "16", 1, s.iterationMillis()),
                new Suite.Point(CallPatternBenchmark.class, "reusedMac", "16", Providers.KONA_NATIVE).settled(s));
    }
}
