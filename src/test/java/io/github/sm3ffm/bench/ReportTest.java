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
                {"jmhVersion": "1.37", "benchmark": "io.github.sm3ffm.bench.%s", "mode": "avgt", "threads": 1,
                 "forks": %d, "jvm": "/jdk/bin/java", "jvmArgs": ["-Xms1g", "-Xmx1g"], "jdkVersion": "25.0.3",
                 "vmName": "OpenJDK 64-Bit Server VM", "vmVersion": "25.0.3+9-LTS", "warmupIterations": 5,
                 "warmupTime": "300 ms", "warmupBatchSize": 1, "measurementIterations": %d,
                 "measurementTime": "300 ms", "measurementBatchSize": 1, %s
                 "primaryMetric": {"score": 1.0, "scoreError": "NaN", "scoreUnit": "ns/op", "rawData": %s},
                 "secondaryMetrics": {"gc.alloc.rate.norm": {"score": %s, "scoreError": "NaN", "scoreUnit": "B/op"}}}
                """.formatted(benchmark, forks.length, forks[0].length,
                params.isEmpty() ? "" : "\"params\": {" + String.join(", ", params) + "},", raw,
                Double.isNaN(alloc) ? "\"NaN\"" : Double.toString(alloc)));
    }

    private Report write(String speed) throws Exception {
        Files.writeString(dir.resolve("digest.json"), "[" + String.join(",", entries) + "]");
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
    void speedUpIsBouncyCastlesMedianForkOverOurSlowestOrMedian() throws Exception {
        jmh("DigestBenchmark.digest", "SM3FFM", "16", 48, fork(100), fork(110), fork(120), fork(104));
        jmh("DigestBenchmark.digest", "BC", "16", 48, fork(150), fork(170), fork(160));
        Report report = write("");
        // Our median of an even number of forks is the mean of the middle two: (104 + 110) / 2 = 107.
        assertEquals(160.0 / 120, report.speedup("DigestBenchmark.digest", "16", "BC", true).orElseThrow(), 1e-9);
        assertEquals(160.0 / 107, report.speedup("DigestBenchmark.digest", "16", "BC", false).orElseThrow(), 1e-9);
        String row = row(report.markdown(), "reused MessageDigest, 16 B");
        assertEquals("| reused MessageDigest, 16 B | 100–120 | 150–170 | 1.33× | 1.50× | ≥ 1.25: met | **1.20** | — / — |",
                row, "the slowest fork meets 1.25; the spread 120/100 is over 1.10");
    }

    @Test
    void aTargetIsJudgedOnTheSlowestFork() throws Exception {
        // Median 1.5x, but the slowest fork only 1.2x: short of 1.4.
        jmh("DigestBenchmark.digest", "SM3FFM", "64", 48, fork(200), fork(200), fork(250));
        jmh("DigestBenchmark.digest", "BC", "64", 48, fork(300), fork(300), fork(300));
        String row = row(write("").markdown(), "reused MessageDigest, 64 B");
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
        String markdown = report.markdown();
        assertTrue(row(markdown, "reused MessageDigest, 64 B").endsWith("| 0.93 / 0.96 |"), markdown);
        assertTrue(markdown.contains("64 B 500 (500–640)"), markdown);
    }

    @Test
    void largeDigestsAreJudgedAgainstOpensslSpeedToo() throws Exception {
        String mib = "1048576";
        jmh("DigestBenchmark.digest", "SM3FFM", mib, 48, fork(2_000_000), fork(2_100_000));
        jmh("DigestBenchmark.digest", "BC", mib, 48, fork(4_000_000), fork(4_000_000));
        Report report = write("+H:1048576\n+F:25:sm3:524288000\n");
        String row = row(report.markdown(), "reused MessageDigest, 1 MiB");
        assertTrue(row.endsWith("| 1.90× | 1.95× | ≥ 1.60: met | 1.05 | 0.95 / 0.98 (≥ 0.97: **not met**) |"), row);
    }

    @Test
    void patternsWithoutProviderParameterAndMissingSidesShowDashes() throws Exception {
        jmh("HkdfBenchmark.extractThenExpand", "SM3FFM", "32", 400, fork(2000), fork(2100));
        jmh("HkdfBenchmark.extractThenExpand", "BC", "32", 900, fork(3000), fork(3000));
        jmh("PerMessageBenchmark.cloneThenFinish1061B", "SM3FFM", null, 200, fork(250), fork(260));
        jmh("BareCallsBenchmark.copyThenFinal", null, null, Double.NaN, fork(90.5));
        String markdown = write("").markdown();
        assertEquals("| HKDF-SM3 extract-then-expand to 32 B | 2,000–2,100 | 3,000–3,000 | 1.43× | 1.46× | "
                + "≥ 1.30: met | 1.05 |  |", row(markdown, "HKDF-SM3 extract-then-expand to 32 B"));
        assertEquals("| clone-then-finish, 1061 B transcript | 250–260 | — | — | — | ≥ 1.05: not measured | 1.04 |  |",
                row(markdown, "clone-then-finish, 1061 B transcript"));
        assertFalse(markdown.contains("HKDF-SM3 extract-then-expand to 64 B"), "points not run are left out");
        assertTrue(markdown.contains("| BareCallsBenchmark.copyThenFinal |  | — | 1 | 90.5 | 90.5 | — |"), markdown);
        assertFalse(markdown.contains("Against the other implementations"), "only sm3-ffm and BouncyCastle ran");
    }

    @Test
    void otherImplementationsGetTheirForkRangeAndNoVerdict() throws Exception {
        jmh("CallPatternBenchmark.newMac", "SM3FFM", "64", 600, fork(400), fork(440));
        jmh("CallPatternBenchmark.newMac", "BC", "64", 900, fork(600), fork(600));
        jmh("CallPatternBenchmark.newMac", "KonaCrypto-Native", "64", 2000, fork(1000), fork(3000));
        String markdown = write("").markdown();
        assertEquals(List.of("KonaCrypto-Native"), Report.read(dir).competitors());
        String kona = markdown.substring(markdown.indexOf("## Against the other implementations"));
        assertTrue(kona.contains("| HmacSM3, new Mac per 64 B message | Kona, OpenSSL over JNI | 1,000–3,000 | 4.55× | 4.76× |"),
                kona);
        assertFalse(kona.substring(0, kona.indexOf("## Every point")).contains("met"), kona);
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
