package io.github.sm3ffm.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTest {
    /** What OpenSSL 3.0's {@code openssl speed -elapsed -mr -seconds 1 -bytes 64 -evp sm3} prints. */
    private static final String SPEED_64 = """
            You have chosen to measure elapsed time instead of user CPU time.
            +DT:sm3:1:64
            +R:1528142:sm3:0.990000
            +H:64
            +F:25:sm3:128000000.00
            """;

    @TempDir
    Path dir;

    private final List<String> entries = new ArrayList<>();
    /** The thread count of the entries {@link #jmh} writes next. */
    private int threads = 1;

    /** One entry as JMH 1.37's JSON writer lays it out, with one array of iterations per fork. */
    private void jmh(String benchmark, String provider, String size, double alloc, double[]... forks) {
        List<String> params = new ArrayList<>();
        if (provider != null) {
            params.add("\"provider\": \"" + provider + "\"");
        }
        if (size != null) {
            params.add("\"size\": \"" + size + "\"");
        }
        String raw = Arrays.stream(forks).map(f -> Arrays.stream(f).mapToObj(Double::toString)
                .collect(Collectors.joining(", ", "[", "]"))).collect(Collectors.joining(", ", "[", "]"));
        entries.add("""
                {"jmhVersion": "1.37", "benchmark": "io.github.sm3ffm.bench.%s", "mode": "avgt", "threads": %d,
                 "forks": %d, "jvm": "/jdk/bin/java", "jvmArgs": ["-Xms1g", "-Xmx1g"], "jdkVersion": "25.0.3",
                 "vmName": "OpenJDK 64-Bit Server VM", "vmVersion": "25.0.3+9-LTS", "warmupIterations": 5,
                 "warmupTime": "300 ms", "warmupBatchSize": 1, "measurementIterations": %d,
                 "measurementTime": "300 ms", "measurementBatchSize": 1, %s
                 "primaryMetric": {"score": 1.0, "scoreError": "NaN", "scoreUnit": "ns/op", "rawData": %s},
                 "secondaryMetrics": {"gc.alloc.rate.norm": {"score": %s, "scoreError": "NaN", "scoreUnit": "B/op"}}}
                """.formatted(benchmark, threads, forks.length, forks[0].length,
                params.isEmpty() ? "" : "\"params\": {" + String.join(", ", params) + "},", raw,
                Double.isNaN(alloc) ? "\"NaN\"" : Double.toString(alloc)));
    }

    /** Writes the entries so far as one JMH run's results, in {@code file}. */
    private void flush(String file) throws Exception {
        Files.writeString(dir.resolve(file), "[" + String.join(",", entries) + "]");
        entries.clear();
    }

    /** The report over the entries so far (a run of several forks per point, not in rounds) and what came before. */
    private Report write(String speed) throws Exception {
        if (!entries.isEmpty()) {
            flush("digest.json");
        }
        Files.writeString(dir.resolve(Report.OPENSSL), speed);
        Files.writeString(dir.resolve(Report.MACHINE), """
                command=bench/run --quick
                date=2026-11-26 05:00 UTC
                cpu=AMD EPYC (family 25, model 1), 2 cores
                kernel=Linux 6.18 x86_64
                openssl=OpenSSL 3.0.22 25 Aug 2026 (Library: OpenSSL 3.0.22 25 Aug 2026)
                """);
        return Report.read(dir);
    }

    private static double[] fork(double... iterations) {
        return iterations;
    }

    /** The table row that starts with {@code label}. */
    private static String row(String markdown, String label) {
        return markdown.lines().filter(l -> l.startsWith("| " + label + " |")).findFirst().orElseThrow();
    }

    @Test
    void aForkIsTheMeanOfItsIterations() throws Exception {
        jmh("DigestBenchmark.digest", "SM3FFM", "16", 48, fork(90, 110), fork(105, 115), fork(120, 120));
        Report.Point p = write("").point("DigestBenchmark.digest", "16", "SM3FFM").orElseThrow();
        assertArrayEquals(new double[] {100, 110, 120}, p.forks(), 1e-9);
        assertEquals(110, p.median(), 1e-9);
        assertEquals(120, p.slowest(), 1e-9);
        assertEquals(100, p.forks()[0], 1e-9);
        assertEquals(48, p.bytesPerOp(), 1e-9);
        assertEquals("100–120", p.range());
    }

    @Test
    void speedUpIsTakenRoundByRound() throws Exception {
        // Round 2 ran in a slow minute for both; round 3's BouncyCastle fork was a fast one.
        double[][] rounds = {{100, 150}, {160, 240}, {104, 130}, {110, 165}};
        for (int r = 0; r < rounds.length; r++) {
            jmh("DigestBenchmark.digest", "SM3FFM", "16", 48, fork(rounds[r][0]));
            jmh("DigestBenchmark.digest", "BC", "16", 48, fork(rounds[r][1]));
            flush("digest-" + (r + 1) + ".json");
        }
        Report report = write("");
        // BouncyCastle over sm3-ffm by round: 1.5, 1.5, 1.25, 1.5.
        assertEquals(1.25, report.ratio("DigestBenchmark.digest", "16", "BC", "SM3FFM", true).orElseThrow(), 1e-9);
        assertEquals(1.5, report.ratio("DigestBenchmark.digest", "16", "BC", "SM3FFM", false).orElseThrow(), 1e-9);
        assertArrayEquals(new double[] {100, 104, 110, 160},
                report.point("DigestBenchmark.digest", "16", "SM3FFM").orElseThrow().forks(), 1e-9);
        String row = row(report.markdown(false), "reused MessageDigest, 16 B");
        assertEquals("| reused MessageDigest, 16 B | 100–160 | 130–240 | 1.25× | 1.50× | ≥ 1.25: met | **1.60** | — / — |",
                row, "the slow minute is on both sides of round 2; set against BouncyCastle's median fork (157.5), "
                        + "sm3-ffm's slowest fork would read 0.98×");
    }

    @Test
    void aRoundOnlyOneSideRanPairsNothing() throws Exception {
        jmh("CallPatternBenchmark.newMac", "SM3FFM", "64", 600, fork(400));
        jmh("CallPatternBenchmark.newMac", "BC", "64", 900, fork(600));
        flush("mac-1.json");
        jmh("CallPatternBenchmark.newMac", "SM3FFM", "64", 640, fork(1200));
        flush("mac-2.json");
        Report report = write("");
        assertEquals(1.5, report.ratio("CallPatternBenchmark.newMac", "64", "BC", "SM3FFM", true).orElseThrow(), 1e-9);
        Report.Point ours = report.point("CallPatternBenchmark.newMac", "64", "SM3FFM").orElseThrow();
        assertEquals(2, ours.byRound().size());
        assertEquals(640, ours.bytesPerOp(), 1e-9, "the most any round allocated");
        assertTrue(report.ratio("CallPatternBenchmark.newMac", "64", "BC", "KonaCrypto", false).isEmpty());
    }

    @Test
    void aTargetIsJudgedOnTheSlowestRound() throws Exception {
        // Forks pair in their order in a file that is not a round's: median round 1.5x, the slowest 1.2x, short of 1.4.
        jmh("DigestBenchmark.digest", "SM3FFM", "64", 48, fork(200), fork(200), fork(250));
        jmh("DigestBenchmark.digest", "BC", "64", 48, fork(300), fork(300), fork(300));
        String row = row(write("").markdown(false), "reused MessageDigest, 64 B");
        assertTrue(row.contains("| 1.20× | 1.50× | ≥ 1.40: **not met** | **1.25** |"), row);
    }

    @Test
    void opensslSpeedGivesNanosecondsPerMessage() {
        Map<Long, List<Double>> ns = Report.parseOpenssl(SPEED_64 + SPEED_64.replace("128000000.00", "64000000.00")
                + "speed: Unknown algorithm sm3\n");
        assertEquals(List.of(500.0, 1000.0), ns.get(64L), "64 bytes at 128 and 64 MB/s");
        assertEquals(1, ns.size());
        assertTrue(Report.parseOpenssl("+H:16:64\n+F:25:sm3:fast\n".replace("fast", "1:2:3")).isEmpty(),
                "a rate line whose fields do not match the sizes is skipped");
    }

    @Test
    void digestRowsSetOpensslSpeedAgainstOurSlowestAndMedianFork() throws Exception {
        jmh("DigestBenchmark.digest", "SM3FFM", "64", 48, fork(500), fork(520), fork(540));
        jmh("DigestBenchmark.digest", "BC", "64", 48, fork(800), fork(800), fork(800));
        Report report = write(SPEED_64 + SPEED_64 + SPEED_64.replace("128000000.00", "100000000.00"));
        // openssl's runs: 500, 500 and 640 ns; their median 500.
        assertEquals(500.0 / 540, report.ofOpenssl("64", true).orElseThrow(), 1e-9);
        assertEquals(500.0 / 520, report.ofOpenssl("64", false).orElseThrow(), 1e-9);
        String markdown = report.markdown(false);
        assertTrue(row(markdown, "reused MessageDigest, 64 B").endsWith("| 0.93 / 0.96 |"), markdown);
        assertTrue(markdown.contains("64 B 500 (500–640)"), markdown);
    }

    @Test
    void largeDigestsAreJudgedAgainstOpensslSpeedToo() throws Exception {
        String mib = "1048576";
        jmh("DigestBenchmark.digest", "SM3FFM", mib, 48, fork(2_000_000), fork(2_100_000));
        jmh("DigestBenchmark.digest", "BC", mib, 48, fork(4_000_000), fork(4_000_000));
        Report report = write("+H:1048576\n+F:25:sm3:524288000\n");
        String row = row(report.markdown(false), "reused MessageDigest, 1 MiB");
        assertTrue(row.endsWith("| 1.90× | 1.95× | ≥ 1.60: met | 1.05 | 0.95 / 0.98 (≥ 0.97: **not met**) |"), row);
    }

    @Test
    void patternsWithoutProviderParameterAndMissingSidesShowDashes() throws Exception {
        jmh("HkdfBenchmark.extractThenExpand", "SM3FFM", "32", 400, fork(2000), fork(2100));
        jmh("HkdfBenchmark.extractThenExpand", "BC", "32", 900, fork(3000), fork(3000));
        jmh("PerMessageBenchmark.cloneThenFinish1061B", "SM3FFM", null, 200, fork(250), fork(260));
        jmh("BareCallsBenchmark.copyThenFinal", null, null, Double.NaN, fork(90.5));
        String markdown = write("").markdown(false);
        assertEquals("| HKDF-SM3 extract-then-expand to 32 B | 2,000–2,100 | 3,000–3,000 | 1.43× | 1.46× | "
                + "≥ 1.30: met | 1.05 |  |", row(markdown, "HKDF-SM3 extract-then-expand to 32 B"));
        assertEquals("| clone-then-finish, 1061 B transcript | 250–260 | — | — | — | ≥ 1.05: not measured | 1.04 |  |",
                row(markdown, "clone-then-finish, 1061 B transcript"));
        assertFalse(markdown.contains("HKDF-SM3 extract-then-expand to 64 B"), "points not run are left out");
        assertTrue(markdown.contains("| BareCallsBenchmark.copyThenFinal |  | 1 | — | 1 | 90.5 | 90.5 |  | — |"), markdown);
        assertTrue(markdown.contains("| HkdfBenchmark.extractThenExpand | 32 | 1 | sm3-ffm | 2 | 2,050 | 2,000–2,100 | "
                + "1.46× | 400 |"), markdown);
    }

    @Test
    void otherImplementationsGetTheirRatioOverBouncyCastleAndNoVerdict() throws Exception {
        jmh("CallPatternBenchmark.newMac", "SM3FFM", "64", 600, fork(400), fork(440));
        jmh("CallPatternBenchmark.newMac", "BC", "64", 900, fork(600), fork(600));
        jmh("CallPatternBenchmark.newMac", "KonaCrypto-Native", "64", 2000, fork(1000), fork(3000));
        Report report = write("");
        String markdown = report.markdown(false);
        assertEquals(List.of("KonaCrypto-Native"), report.competitors());
        // BouncyCastle over Kona by round: 0.6 and 0.2.
        assertTrue(markdown.contains("| CallPatternBenchmark.newMac | 64 | 1 | Kona, OpenSSL over JNI | 2 | 2,000 | "
                + "1,000–3,000 | 0.40× | 2000 |"), markdown);
        // Introduced above it, but given no row or verdict in the section against BouncyCastle.
        assertFalse(markdown.substring(markdown.indexOf("## Against BouncyCastle"), markdown.indexOf("## Every point"))
                .contains("Kona"), markdown);
    }

    @Test
    void theJdksFloorIsListedButNeitherACompetitorNorSetAgainstBouncyCastle() throws Exception {
        jmh("CallPatternBenchmark.newDigest", "SM3FFM", "16", 100, fork(400));
        jmh("CallPatternBenchmark.newDigest", "BC", "16", 200, fork(500));
        jmh("CallPatternBenchmark.newDigest", Providers.NO_HASH, "16", 170, fork(50));
        Report report = write("");
        String markdown = report.markdown(false);
        assertEquals(List.of(), report.competitors());
        assertTrue(markdown.contains("| CallPatternBenchmark.newDigest | 16 | 1 | the JDK alone (no hashing) | 1 | 50.0 | "
                + "50.0 |  | 170 |"), markdown);
    }

    @Test
    void threadCountsTakingTurnsGiveTheScaling() throws Exception {
        for (int round = 1; round <= 2; round++) {
            jmh("CallPatternBenchmark.reusedDigest", "SM3FFM", "64", 48, fork(200 + round));
            flush("t1-" + round + ".json");
            threads = 2;
            jmh("CallPatternBenchmark.reusedDigest", "SM3FFM", "64", 48, fork(250 + round));
            flush("t2-" + round + ".json");
            threads = 1;
        }
        String markdown = write("").markdown(false);
        // 2 x 201.5 / 251.5.
        assertTrue(markdown.contains("| CallPatternBenchmark.reusedDigest 64 | sm3-ffm | 1.60 |"), markdown);
        assertTrue(markdown.contains("| CallPatternBenchmark.reusedDigest | 64 | 2 | sm3-ffm | 2 | 252 | 251–252 "
                + "|  | 48 |"), markdown);
    }

    @Test
    void headerNamesTheMachineTheJdkAndJmhSettings() throws Exception {
        jmh("DigestBenchmark.digest", "SM3FFM", "16", 48, fork(100, 100, 100, 100));
        String header = write("").header();
        assertEquals("`bench/run --quick` on 2026-11-26 05:00 UTC. CPU: AMD EPYC (family 25, model 1), 2 cores. "
                + "Kernel: Linux 6.18 x86_64. JDK: OpenJDK 64-Bit Server VM 25.0.3+9-LTS. OpenSSL 3.0.22 25 Aug 2026 "
                + "(Library: OpenSSL 3.0.22 25 Aug 2026). Forks per point: 1, each of 5 × 300 ms warmup and 4 × "
                + "300 ms measured, average time per operation, JMH 1.37; fork JVM options `-Xms1g -Xmx1g`.", header);
    }

    @Test
    void mainWritesTheTablesAndBothCharts() throws Exception {
        for (String size : List.of("16", "64", "1024")) {
            jmh("DigestBenchmark.digest", "SM3FFM", size, 48, fork(100), fork(110));
            jmh("DigestBenchmark.digest", "BC", size, 48, fork(150), fork(160));
        }
        jmh("CallPatternBenchmark.reusedMac", "SM3FFM", "64", 48, fork(300), fork(310));
        jmh("CallPatternBenchmark.reusedMac", "BC", "64", 48, fork(450), fork(460));
        write(SPEED_64);
        Path out = Files.createDirectory(dir.resolve("out"));
        Report.main(new String[] {dir.toString(), out.resolve("benchmarks.md").toString(), out.toString()});
        String markdown = Files.readString(out.resolve("benchmarks.md"));
        assertTrue(markdown.startsWith("# sm3-ffm benchmarks"));
        for (String chart : List.of("speedup.png", "patterns.png")) {
            assertTrue(markdown.contains("](" + chart + ")"), chart + " is linked");
            byte[] png = Files.readAllBytes(out.resolve(chart));
            assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, Arrays.copyOf(png, 4), chart);
        }
    }
}
