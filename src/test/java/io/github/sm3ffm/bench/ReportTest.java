package io.github.sm3ffm.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTest {
    @TempDir
    Path dir;

    private final List<String> entries = new ArrayList<>();

    /** One entry as JMH's JSON writer lays it out (only the fields the report reads). */
    private void jmh(String benchmark, String provider, String size, double ns, double error, double alloc) {
        String params = provider == null ? "" : "\"params\": {\"provider\": \"" + provider + "\""
                + (size == null ? "" : ", \"size\": \"" + size + "\"") + "},";
        entries.add("""
                {"benchmark": "io.github.sm3ffm.bench.%s", "mode": "avgt", "forks": 3, %s
                 "primaryMetric": {"score": %s, "scoreError": %s, "scoreUnit": "ns/op"},
                 "secondaryMetrics": {"gc.alloc.rate.norm": {"score": %s, "scoreError": "NaN", "scoreUnit": "B/op"}}}
                """.formatted(benchmark, params, ns, error, alloc));
    }

    private Report write(List<RunRecord.Sample> samples) throws Exception {
        return write(samples, List.of());
    }

    private Report write(List<RunRecord.Sample> samples, List<RunRecord.Settled> settled) throws Exception {
        return write(samples, settled, List.of());
    }

    private Report write(List<RunRecord.Sample> samples, List<RunRecord.Settled> settled, List<String> steadyWarmup)
            throws Exception {
        return write(samples, settled, steadyWarmup, List.of());
    }

    private Report write(List<RunRecord.Sample> samples, List<RunRecord.Settled> settled, List<String> steadyWarmup,
            List<String> failures) throws Exception {
        Files.writeString(dir.resolve(Report.JMH_JSON), "[" + String.join(",", entries) + "]");
        RunRecord.Implementation available = new RunRecord.Implementation("available", null, "1", "info",
                Providers.DIGEST, "x.jar", "");
        new RunRecord("reduced", "test", "2025-01-01T00:00:00Z", 60, "bench/run --rounds 1", Suite.Arguments.DEFAULTS,
                "JDK", "CPU", 2, "Linux", settled, steadyWarmup, Map.of(Providers.SM3FFM, available, Providers.BC, available),
                new RunRecord.Ceiling("OpenSSL 3", "openssl speed", null, samples), failures).write(dir);
        return Report.read(dir);
    }

    private static RunRecord.Sample ceilingAt(int size, double nsPerMessage) {
        return new RunRecord.Sample(1, size, size / nsPerMessage * 1e9);
    }

    private static Report.Verdict verdict(Report report, String target) {
        return report.targets().stream().filter(v -> v.target().equals(target)).findFirst().orElseThrow();
    }

    @Test
    void speedRatiosAreTheirTimeOverOurs() throws Exception {
        jmh("DigestBenchmark.digest", "SM3FFM", "8192", 100, 10, 48);
        jmh("DigestBenchmark.digest", "BC", "8192", 250, 0, 48);
        jmh("DigestBenchmark.digest", "SM3FFM", "1024", 100, 0, 48);
        jmh("DigestBenchmark.digest", "BC", "1024", 140, 0, 48);
        Report report = write(List.of(ceilingAt(8192, 103), ceilingAt(1024, 200)));

        assertEquals(new Report.Verdict("≥ 1.75× BouncyCastle at 8 KiB", "2.50×", "met"),
                verdict(report, "≥ 1.75× BouncyCastle at 8 KiB"));
        assertEquals(new Report.Verdict("≥ 0.97 of openssl speed at 8 KiB", "1.03×", "met"),
                verdict(report, "≥ 0.97 of openssl speed at 8 KiB"));
        assertEquals(new Report.Verdict("≥ 1.5× BouncyCastle at 1 KiB", "1.40×", "**not met**"),
                verdict(report, "≥ 1.5× BouncyCastle at 1 KiB"));
        assertEquals("not measured", verdict(report, "≥ 1.75× Kona, pure Java at 8 KiB").verdict());
    }

    /** JMH's layout of several forks: one array of iteration scores per fork, here one round each. */
    private void forks(String benchmark, String provider, String size, double... roundMeans) {
        String params = provider.isEmpty() ? "" : "\"provider\": \"" + provider + "\", ";
        StringBuilder raw = new StringBuilder();
        for (double m : roundMeans) {
            raw.append(raw.isEmpty() ? "" : ",").append("[").append(m).append(",").append(m).append("]");
        }
        entries.add("""
                {"benchmark": "io.github.sm3ffm.bench.%s", "mode": "avgt", "forks": %d,
                 "params": {%s"size": "%s"},
                 "primaryMetric": {"score": 1, "scoreError": 0, "scoreUnit": "ns/op", "rawData": [%s]},
                 "secondaryMetrics": {}}
                """.formatted(benchmark, roundMeans.length, params, size, raw));
    }

    @Test
    void targetsAreJudgedOnTheMedianRoundAndSayWhenRoundsDisagree() throws Exception {
        // Rounds of 300/200, 330/300, 260/200 ns: new over reused 1.5, 1.1, 1.3; median 1.3, at most 1.3: met.
        forks("CallPatternBenchmark.reusedDigest", "SM3FFM", "16", 200, 300, 200);
        forks("CallPatternBenchmark.newDigest", "SM3FFM", "16", 300, 330, 260);
        forks("JcaFloorBenchmark.reusedDigest", "", "16", 10, 12, 10);
        forks("JcaFloorBenchmark.newDigest", "", "16", 60, 72, 50);
        forks("CallPatternBenchmark.reusedDigest", "BC", "16", 150, 330, 190);
        Report report = write(List.of());

        assertEquals(new Report.Verdict("new digest per message ≤ 1.3× the time of a reused one at 16 B",
                "1.30× (1.10–1.50)", "met (rounds on both sides)"),
                verdict(report, "new digest per message ≤ 1.3× the time of a reused one at 16 B"));
        // (60 − 10) / 200, (72 − 12) / 300, (50 − 10) / 200
        assertEquals("+0.20× (0.20–0.25)", verdict(report, "(the JDK's share of that at 16 B: getInstance on an "
                + "engine that hashes nothing, over sm3-ffm's reused digest)").measured());
        // BouncyCastle's time over ours: 0.75, 1.1, 0.95
        assertEquals(new Report.Verdict("reused digest ≥ 0.9× BouncyCastle at 16 B", "0.95× (0.75–1.10)",
                "met (rounds on both sides)"), verdict(report, "reused digest ≥ 0.9× BouncyCastle at 16 B"));
        assertEquals("not measured", verdict(report, "new digest per message ≤ 1.3× the time of a reused one at 64 B")
                .verdict());
    }

    @Test
    void ceilingIsTheMeanOfItsSamplesWithStudentsInterval() {
        Report.Measure m = Report.meanWithError(List.of(10.0, 12.0, 14.0));
        assertEquals(12.0, m.value(), 1e-9);
        // t(0.9995, 2) = 31.5991, standard error 2 / sqrt(3) * sqrt(3) / sqrt(3) = 1.1547
        assertEquals(31.5991 * 2 / Math.sqrt(3), m.error(), 1e-3);
        assertTrue(Double.isNaN(Report.meanWithError(List.of(5.0)).error()));
    }

    @Test
    void allocationIsNetOfTheHarnessShare() throws Exception {
        jmh("BaselineBenchmark.spin", null, null, 1_000_000, 0, 10);
        jmh("DigestBenchmark.digest", "SM3FFM", "16", 100, 0, 47.5);
        jmh("DigestBenchmark.digest", "SM3FFM", "1048576", 4_000_000, 0, 88);
        jmh("UpdateBenchmark.directBuffer1MiB", "SM3FFM", null, 4_000_000, 0, 40);
        jmh("UpdateBenchmark.heapBuffer1MiB", "SM3FFM", null, 4_000_000, 0, 120);
        Report report = write(List.of());

        Report.Verdict digest = verdict(report, "digest() allocates only its 32-byte result (≤ 48 B/op), every size");
        assertEquals("met", digest.verdict());
        assertEquals("48.0 B/op (largest, at 1 MiB)", digest.measured());
        assertEquals(new Report.Verdict("0 B/op on the update path: directBuffer1MiB", "0.0 B/op", "met"),
                verdict(report, "0 B/op on the update path: directBuffer1MiB"));
        assertEquals(new Report.Verdict("0 B/op on the update path: heapBuffer1MiB", "80.0 B/op", "**not met**"),
                verdict(report, "0 B/op on the update path: heapBuffer1MiB"));
        // 10 B per 1 ms operation, over one measured iteration.
        assertEquals(10.0 * Suite.Arguments.DEFAULTS.iterationMillis(), report.harnessBytesPerIteration().getAsDouble(), 1e-6);
    }

    @Test
    void tableAndChartAreWritten() throws Exception {
        jmh("DigestBenchmark.digest", "SM3FFM", "16", 100, 1, 48);
        jmh("DigestBenchmark.digest", "BC", "16", 150, 1, 48);
        jmh("DigestBenchmark.digest", "SM3FFM", "1048576", 4_000_000, 1000, 48);
        jmh("DigestBenchmark.digest", "BC", "1048576", 8_000_000, 1000, 48);
        Report report = write(List.of(ceilingAt(16, 110), ceilingAt(16, 90), ceilingAt(1048576, 3_900_000)));
        Report.main(new String[] {dir.toString()});

        String md = Files.readString(dir.resolve(Report.TABLE));
        assertTrue(md.contains("> **Reduced run**"), md);
        assertTrue(md.contains("| 16 B | BouncyCastle | 150.0 ± 1.0 | 106.67 ± 0.71 | 48 | 1.50 ± 0.02 |"), md);
        assertTrue(md.contains("| 1 MiB | openssl speed (native ceiling) | 3,900,000 | 269 |  | 0.98 |"), md);
        assertTrue(report.summaryTable().contains("| 1 MiB | 262.14 ± 0.07 | 131.07 ± 0.02 | 269 |"), report.summaryTable());
        byte[] png = Files.readAllBytes(dir.resolve(Report.CHART));
        assertTrue(png.length > 1000 && png[1] == 'P' && png[2] == 'N' && png[3] == 'G');
        assertFalse(report.updateReadme(dir), "README.md is only rewritten for the repository's docs/");
    }

    @Test
    void aChartIsWideEnoughForItsNoteOnOneLine() {
        String note = "AMD EPYC, 2 cores, OpenSSL 3.0.19; 6 rounds, forks of 4×200 ms (the noisiest points longer or"
                + " in more forks); KonaCrypto-Native and GlaSSLess warmed 5 s";
        int wide = RatioReport.widthFor("message size (bytes, log scale); " + note, 1000);
        assertTrue(wide > 1000, "a full run's note does not fit 1000 px: " + wide);
        assertTrue(RatioReport.widthFor(note + note, 1000) > wide, "a longer note, a wider chart");
        assertEquals(1000, RatioReport.widthFor("reduced", 1000), "never narrower than asked");
    }

    @Test
    void valuesKeepTwoSignificantDigitsOfTheirError() {
        assertEquals("612 ± 12", Report.withError(new Report.Measure(612.34, 12.3)));
        assertEquals("3.14 ± 0.05", Report.withError(new Report.Measure(3.14159, 0.05)));
        assertEquals("1,048,576", Report.withError(new Report.Measure(1048576, Double.NaN)));
        assertEquals("64 KiB", Report.bytesLabel("65536"));
        assertEquals("1 MiB", Report.bytesLabel("1048576"));
        assertEquals("100 B", Report.bytesLabel("100"));
    }

    /** One entry with per-fork iteration scores, one fork per round. */
    private void rounds(String benchmark, String provider, String size, double[]... forks) {
        StringBuilder raw = new StringBuilder("[");
        for (double[] fork : forks) {
            raw.append(raw.length() > 1 ? "," : "").append(java.util.Arrays.toString(fork));
        }
        entries.add("""
                {"benchmark": "io.github.sm3ffm.bench.%s", "mode": "avgt", "forks": %d,
                 "params": {"provider": "%s", "size": "%s"},
                 "primaryMetric": {"score": 1, "scoreError": 0, "scoreUnit": "ns/op", "rawData": %s]},
                 "secondaryMetrics": {}}
                """.formatted(benchmark, forks.length, provider, size, raw));
    }

    /** One fork per round of two 200 ms iterations at {@code roundMeans}, the GC taking {@code gcMillis} of each. */
    private void withGc(String benchmark, String provider, String size, double gcMillis, double... roundMeans) {
        withSecondary(benchmark, provider, size, "gc.time", "ms", gcMillis, roundMeans);
    }

    /** The same, each fork's retained heap growing {@code mbPerSecond} ({@link HeapGrowthProfiler}). */
    private void withGrowth(String benchmark, String provider, String size, double mbPerSecond, double... roundMeans) {
        withSecondary(benchmark, provider, size, HeapGrowthProfiler.METRIC, "MB/s", mbPerSecond, roundMeans);
    }

    /** One fork per round of two 200 ms iterations at {@code roundMeans}, with one value of {@code metric} a fork. */
    private void withSecondary(String benchmark, String provider, String size, String metric, String unit,
                               double perFork, double... roundMeans) {
        StringBuilder raw = new StringBuilder();
        StringBuilder secondary = new StringBuilder();
        for (double m : roundMeans) {
            raw.append(raw.isEmpty() ? "" : ",").append("[").append(m).append(",").append(m).append("]");
            secondary.append(secondary.isEmpty() ? "" : ",").append("[").append(perFork).append("]");
        }
        entries.add("""
                {"benchmark": "io.github.sm3ffm.bench.%s", "mode": "avgt", "forks": %d, "measurementTime": "200 ms",
                 "params": {"provider": "%s", "size": "%s"},
                 "primaryMetric": {"score": 1, "scoreError": 0, "scoreUnit": "ns/op", "rawData": [%s]},
                 "secondaryMetrics": {"%s": {"score": 1, "scoreUnit": "%s", "rawData": [%s]}}}
                """.formatted(benchmark, roundMeans.length, provider, size, raw, metric, unit, secondary));
    }

    @Test
    void aRatioWhoseRoundsSpreadOverTwiceIsMarkedWithEachSidesGcShare() throws Exception {
        // 10×, 40× and 15× in three rounds: no median stands for those.
        withGc("DigestBenchmark.digest", "SM3FFM", "64", 12, 100, 100, 100);
        withGc("DigestBenchmark.digest", "BC", "64", 240, 1000, 4000, 1500);
        // 1.5×, 2.8× and 2.0×: wide, but within twice.
        withGc("DigestBenchmark.digest", "SM3FFM", "16", 0, 100, 100, 100);
        withGc("DigestBenchmark.digest", "BC", "16", 0, 150, 280, 200);
        Report report = write(List.of());
        String table = report.ratioReport().sizeTable();

        assertTrue(table.contains("| 64 B | 15.00× (10.00–40.00) † |"), table);
        assertTrue(table.contains("| 16 B | 2.00× (1.50–2.80) |"), table);
        // 240 ms of GC in each 400 ms fork is 60%; 12 ms is 3%.
        assertTrue(table.contains("† No steady state: the highest round is more than 2 times the lowest"), table);
        assertTrue(table.contains("\n- digest 64 B over BouncyCastle: the GC took 60% of its measured time, against 3% "
                + "of sm3-ffm's\n"), table);
        assertFalse(table.contains("digest 16 B over"), table);
        assertFalse(report.ratioReport().patternTable().contains("†"), report.ratioReport().patternTable());
    }

    @Test
    void ratiosAreTakenWithinEachRoundThenTheMedian() throws Exception {
        // The host is twice as slow in round 2, for both alike: the ratio does not move.
        rounds("DigestBenchmark.digest", "SM3FFM", "64", new double[] {100, 100}, new double[] {200, 200},
                new double[] {100, 120});
        rounds("DigestBenchmark.digest", "BC", "64", new double[] {150, 150}, new double[] {300, 300},
                new double[] {140, 160});
        Report report = write(List.of(new RunRecord.Sample(1, 64, 64 / 90e-9), new RunRecord.Sample(2, 64, 64 / 180e-9),
                new RunRecord.Sample(3, 64, 64 / 110e-9)));
        Ratios.Spread bc = report.ratioReport().headlines().get("digest 64 B over BouncyCastle");
        assertEquals(1.5, bc.median(), 1e-9);
        assertEquals(150.0 / 110, bc.low(), 1e-9);
        assertEquals(1.5, bc.high(), 1e-9);
        assertEquals(3, bc.rounds());
        assertEquals("1.50× (1.36–1.50)", bc.text());
        Ratios.Spread ceiling = report.ratioReport().headlines().get("digest 64 B of openssl speed");
        assertEquals(0.9, ceiling.median(), 1e-9);
        assertTrue(report.ratioReport().sizeTable().contains("| 64 B | 1.50× (1.36–1.50) | 0.90× (0.90–1.00) |"),
                report.ratioReport().sizeTable());
    }

    @Test
    void aSettledPointsRoundIsTheMeanOfItsForks() throws Exception {
        // Three forks a round at 64 B: rounds of (100, 120, 110) and (200, 220, 240) ns, 110 and 220 on average.
        rounds("DigestBenchmark.digest", "SM3FFM", "64", new double[] {100, 100}, new double[] {120, 120},
                new double[] {100, 120}, new double[] {200, 200}, new double[] {220, 220}, new double[] {230, 250});
        rounds("DigestBenchmark.digest", "BC", "64", new double[] {165, 165}, new double[] {165, 165},
                new double[] {165, 165}, new double[] {440, 440}, new double[] {440, 440}, new double[] {440, 440});
        // 16 B is not settled: each fork is a round of its own.
        rounds("DigestBenchmark.digest", "SM3FFM", "16", new double[] {50, 50}, new double[] {40, 40});
        rounds("DigestBenchmark.digest", "BC", "16", new double[] {100, 100}, new double[] {100, 100});
        Report report = write(List.of(), List.of(new RunRecord.Settled("DigestBenchmark.digest", "64", 3, 600)));

        Ratios.Spread at64 = report.ratioReport().headlines().get("digest 64 B over BouncyCastle");
        assertEquals(2, at64.rounds());
        assertEquals(1.5, at64.low(), 1e-9);
        assertEquals(2.0, at64.high(), 1e-9);
        Ratios.Spread at16 = report.ratioReport().headlines().get("digest 16 B over BouncyCastle");
        assertEquals(2, at16.rounds());
        assertEquals(2.25, at16.median(), 1e-9);
        assertTrue(report.markdown().contains(
                "measured longer, the same for every implementation: `DigestBenchmark.digest` 3 forks per round of "
                        + "4 × 600 ms at 64 B."), "the table's header names the settled point");
    }

    @Test
    void theImplementationsWarmedUntilTheirStepAreNamedWithTheirWarmup() throws Exception {
        jmh("DigestBenchmark.digest", "SM3FFM", "1024", 100, 0, 48);
        jmh("DigestBenchmark.digest", "BC", "1024", 140, 0, 48);
        Report plain = write(List.of());
        assertFalse(plain.markdown().contains("warm up for"), plain.markdown());
        assertFalse(plain.chartNote().contains("warmed"), plain.chartNote());

        Report warmed = write(List.of(), List.of(), List.of(Providers.KONA_NATIVE, Providers.GLASSLESS));
        // DEFAULTS: 5000 ms in 200 ms iterations.
        assertTrue(warmed.markdown().contains("The forks of Kona, OpenSSL over JNI and GlaSSLess, OpenSSL over FFM warm "
                + "up for 25 × 200 ms"), warmed.markdown());
        assertTrue(warmed.chartNote().endsWith("; KonaCrypto-Native and GlaSSLess warmed 5 s"), warmed.chartNote());
    }

    @Test
    void failuresAreListedAndAForkThatRanOutOfHeapIsSaidSo() throws Exception {
        jmh("DigestBenchmark.digest", "SM3FFM", "1024", 100, 0, 48);
        String other = "[1/6] DigestBenchmark.digest size=1024 BC: failed: java.lang.IllegalStateException: boom";
        String md = write(List.of(), List.of(), List.of(), List.of(other)).markdown();
        assertTrue(md.contains("## Failures\n\n- " + other + "\n"), md);
        assertFalse(md.contains("ran out of"), md);

        String oom = "[1/6] UpdateBenchmark.updateByte1KiB GlaSSLess: failed: java.lang.IllegalStateException: Forked VM "
                + "failed with exit code 3";
        md = write(List.of(), List.of(), List.of(), List.of(oom)).markdown();
        assertTrue(md.contains("- " + oom + "\n\nA fork that exits with code 3 ran out of its 1 GB heap"), md);
    }

    @Test
    void twoRunsAgreeWhenEveryHeadlineIsWithinTenPercent() {
        var first = Map.of("a", new Ratios.Spread(1.5, 1.4, 1.6, 5), "b", new Ratios.Spread(2.0, 1.9, 2.1, 5));
        var close = Map.of("a", new Ratios.Spread(1.6, 1.5, 1.7, 5), "b", new Ratios.Spread(1.85, 1.8, 1.9, 5));
        assertTrue(RatioReport.compare(first, close).contains("Every headline ratio agrees within ±10%"));
        var far = Map.of("a", new Ratios.Spread(1.7, 1.5, 1.7, 5), "b", new Ratios.Spread(2.0, 1.9, 2.1, 5));
        String text = RatioReport.compare(first, far);
        assertTrue(text.contains("1 headline ratio(s) differ by more than 10%"), text);
        assertTrue(text.contains("| a | 1.50× (1.40–1.60) | 1.70× (1.50–1.70) | 1.133 **outside ±10%** |"), text);
    }

    @Test
    void aRatioOverAnImplementationWhoseRetainedHeapGrowsHasNoSteadyStateHoweverCloseItsRounds() throws Exception {
        // 3.0× in every round at both sizes; BouncyCastle's retained heap grows 38 MB/s at 64 B, 0.4 MB/s at 16 B.
        withGrowth("DigestBenchmark.digest", "SM3FFM", "64", 0.0, 100, 100, 100);
        withGrowth("DigestBenchmark.digest", "BC", "64", 38.0, 300, 300, 300);
        withGrowth("DigestBenchmark.digest", "SM3FFM", "16", 0.1, 100, 100, 100);
        withGrowth("DigestBenchmark.digest", "BC", "16", 0.4, 300, 300, 300);
        Report report = write(List.of());
        String table = report.ratioReport().sizeTable();

        assertTrue(table.contains("| 64 B | 3.00× (3.00–3.00) † |"), table);
        assertTrue(table.contains("| 16 B | 3.00× (3.00–3.00) |"), table);
        assertTrue(table.contains("or the heap one side retains after each collection grew faster than 2 MB/s"), table);
        assertTrue(table.contains("\n- digest 64 B over BouncyCastle: the GC took an unrecorded share of its measured "
                + "time, against an unrecorded share of sm3-ffm's; the heap it retains after each collection grew "
                + "38.0 MB/s, sm3-ffm's 0.0 MB/s\n"), table);
        Ratios.Spread at64 = report.ratioReport().headlines().get("digest 64 B over BouncyCastle");
        assertEquals(38.0, at64.heapGrowth());
        assertFalse(at64.steady());
        assertTrue(report.ratioReport().headlines().get("digest 16 B over BouncyCastle").steady());
        // Our own growth counts the same way.
        assertFalse(new Ratios.Spread(1.5, 1.4, 1.6, 5, 2.5).steady());
        assertTrue(new Ratios.Spread(1.5, 1.4, 1.6, 5, Double.NaN).steady());
    }

    @Test
    void theHeapGrowthIsTheSlopeAfterTheFirstCollectionOverAtLeastASecond() {
        // The first collection carries the JVM's start; the rest grow 40 MB a second.
        List<double[]> leaking = List.of(new double[] {0.8, 18}, new double[] {1.6, 38}, new double[] {2.3, 66},
                new double[] {3.1, 98});
        assertEquals(40.0, HeapGrowthProfiler.slope(leaking), 1e-9);
        List<double[]> flat = List.of(new double[] {0.9, 58}, new double[] {1.1, 10}, new double[] {2.6, 10},
                new double[] {3.6, 10});
        assertEquals(0.0, HeapGrowthProfiler.slope(flat), 1e-9);
        // Two collections after the first, but less than a second apart: no figure.
        assertTrue(Double.isNaN(HeapGrowthProfiler.slope(List.of(new double[] {0.8, 18}, new double[] {1.6, 38},
                new double[] {2.2, 62}))));
        assertTrue(Double.isNaN(HeapGrowthProfiler.slope(List.of(new double[] {0.8, 18}, new double[] {2.6, 38}))));
        assertTrue(Double.isNaN(HeapGrowthProfiler.slope(List.of())));
    }

    @Test
    void aRatioWithNoSteadyStateInEitherRunIsShownButNotJudged() {
        var steady = new Ratios.Spread(1.5, 1.4, 1.6, 5);
        var first = Map.of("a", steady, "b", new Ratios.Spread(14.4, 8.1, 47.0, 6));
        var second = Map.of("a", steady, "b", new Ratios.Spread(30.0, 25.0, 33.0, 6));
        String text = RatioReport.compare(first, second);
        assertTrue(text.contains("| b | 14.40× (8.10–47.00) | 30.00× (25.00–33.00) | 2.083, no steady state |"), text);
        assertTrue(text.contains("Every headline ratio agrees within ±10%. 1 ratio(s) with no steady state in a run "
                + "(highest round more than 2 times the lowest, or a retained heap growing faster than 2 MB/s) are not "
                + "headline ratios."), text);
        // The same move between two steady runs is a disagreement.
        String moved = RatioReport.compare(second, Map.of("a", steady, "b", new Ratios.Spread(20.0, 19.0, 21.0, 6)));
        assertTrue(moved.contains("1 headline ratio(s) differ by more than 10%."), moved);
        assertFalse(moved.contains("steady"), moved);
    }

    @Test
    void aHeadlineOfOneRunOnlyDoesNotAgree() {
        var first = Map.of("a", new Ratios.Spread(1.5, 1.4, 1.6, 5), "b", new Ratios.Spread(2.0, 1.9, 2.1, 5));
        var failedB = Map.of("a", new Ratios.Spread(1.5, 1.4, 1.6, 5));
        String text = RatioReport.compare(first, failedB);
        assertFalse(text.contains("Every headline ratio agrees"), text);
        assertTrue(text.contains("| b | 2.00× (1.90–2.10) | — | **in one run only** |"), text);
        assertTrue(text.strip().endsWith("\n1 headline ratio(s) measured in one run only."), text);
        String reversed = RatioReport.compare(failedB, first);
        assertTrue(reversed.contains("| b | — | 2.00× (1.90–2.10) | **in one run only** |"), reversed);
    }
}
