package io.github.sm3ffm.bench;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.DoublePredicate;
import java.util.function.Function;
import org.apache.commons.math3.distribution.TDistribution;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Turns a run's JMH JSON and {@link RunRecord} into the Markdown table ({@value #TABLE}), the chart
 * ({@value #CHART}) and the verdict on each of the project's performance targets, which it also prints.
 * {@code Report DIR} redraws them from the files in DIR without measuring again.
 *
 * <p>Ratios are speed ratios, sm3-ffm's speed over the other's (time per operation of the other over
 * sm3-ffm's), so above 1 means sm3-ffm is faster. Errors are 99.9% confidence half-widths: JMH's over
 * every measured iteration of every fork, Student's t over the {@code openssl speed} samples, combined in
 * quadrature (relative) for ratios.
 */
public final class Report {
    static final String JMH_JSON = "benchmarks.json";
    static final String TABLE = "benchmarks.md";
    static final String CHART = "benchmarks.png";
    static final String SM3SUM = "sm3sum.md";
    static final String ALLOC = "gc.alloc.rate.norm";
    static final String OURS = Providers.SM3FFM;
    static final String CEILING = "openssl speed";
    /** What {@code digest()} may allocate: its result, a {@code byte[32]} of 16 header bytes + 32. */
    static final double DIGEST_RESULT_BYTES = 48;

    private static final Map<String, String> LABELS = Map.of(
            Providers.SM3FFM, "sm3-ffm",
            Providers.BC, "BouncyCastle",
            Providers.KONA, "Kona, pure Java",
            Providers.KONA_NATIVE, "Kona, OpenSSL over JNI",
            Providers.GLASSLESS, "GlaSSLess, OpenSSL over FFM",
            CEILING, "openssl speed (native ceiling)",
            "", "floor");
    private static final String README_BEGIN = "<!-- benchmarks:begin (written by bench/run) -->";
    private static final String README_END = "<!-- benchmarks:end -->";

    /** A measured value and its error (NaN when unknown). */
    record Measure(double value, double error) {
        /** This one's speed over {@code slower}'s, from times per operation. */
        Measure speedOver(Measure other) {
            double ratio = other.value / value;
            return new Measure(ratio, ratio * Math.hypot(error / value, other.error / other.value));
        }

        /** This time per operation as megabytes (10^6) per second for {@code bytes} per operation. */
        Measure megabytesPerSecond(long bytes) {
            double mbs = bytes / value * 1e3;
            return new Measure(mbs, mbs * error / value);
        }
    }

    /** One benchmark point: implementation at a size (or none), ns/op and allocated bytes per op. */
    record Point(String benchmark, String implementation, String size, Measure time, OptionalDouble alloc, int forks) {
    }

    /**
     * One row group of the table: a benchmark method, how to name its input, how many bytes it hashes, and
     * whether {@code openssl speed} at that many bytes is shown beside it.
     */
    record Question(String benchmark, String title, Function<String, String> input, Function<String, Long> bytes,
            boolean withCeiling) {
    }

    private static final List<Question> QUESTIONS = List.of(
            new Question("DigestBenchmark.digest", "Whole message, reused MessageDigest", Report::bytesLabel, Long::valueOf, true),
            new Question("UpdateBenchmark.updateByte1KiB", "1 KiB by update(byte)", s -> "1 KiB, update(byte)",
                    s -> (long) UpdateBenchmark.BYTES_1K, true),
            new Question("UpdateBenchmark.update32B4KiB", "4 KiB in 32-byte updates", s -> "4 KiB, 32 B updates",
                    s -> (long) UpdateBenchmark.BYTES_4K, true),
            new Question("UpdateBenchmark.directBuffer1MiB", "1 MiB direct ByteBuffer", s -> "1 MiB direct buffer",
                    s -> (long) UpdateBenchmark.BYTES_1M, true),
            new Question("UpdateBenchmark.heapBuffer1MiB", "1 MiB heap ByteBuffer", s -> "1 MiB heap buffer",
                    s -> (long) UpdateBenchmark.BYTES_1M, true),
            new Question("PerMessageBenchmark.cloneThenFinish64B", "Transcript: update 64 B, clone, finish the clone",
                    s -> "64 B + clone", s -> (long) PerMessageBenchmark.MESSAGE_SIZE, false),
            new Question("PerMessageBenchmark.cloneThenFinish1061B", "Transcript of 1061 B: clone, finish the clone",
                    s -> "1061 B + clone", s -> 0L, false),
            new Question("BareCloneBenchmark.copyThenFinal", "Transcript of 1061 B: the native calls of clone-then-finish alone (floor)",
                    s -> "1061 B + clone", s -> 0L, false),
            new Question("CallPatternBenchmark.reusedDigest", "Short message, reused MessageDigest",
                    Report::bytesLabel, Long::valueOf, false),
            new Question("BareCallsBenchmark.threeCalls", "Short message, the three EVP downcalls alone (floor)",
                    Report::bytesLabel, Long::valueOf, false),
            new Question("CallPatternBenchmark.newDigest", "Short message, new MessageDigest each",
                    Report::bytesLabel, Long::valueOf, false),
            new Question("JcaFloorBenchmark.reusedDigest", "Short message, reused MessageDigest on an engine that hashes nothing (JDK floor)",
                    Report::bytesLabel, Long::valueOf, false),
            new Question("JcaFloorBenchmark.newDigest", "Short message, new MessageDigest each on an engine that hashes nothing (JDK floor)",
                    Report::bytesLabel, Long::valueOf, false),
            new Question("CallPatternBenchmark.reusedMac", "Short message, HmacSM3 with a reused Mac",
                    Report::bytesLabel, Long::valueOf, false),
            new Question("CallPatternBenchmark.newMac", "Short message, new HmacSM3 Mac and init each",
                    Report::bytesLabel, Long::valueOf, false),
            new Question("HmacBenchmark.doFinal", "HmacSM3, reused Mac", Report::bytesLabel, Long::valueOf, false),
            new Question("Pbkdf2Benchmark.derive", "PBKDF2WithHmacSM3, " + String.format(Locale.ROOT, "%,d",
                    Pbkdf2Benchmark.ITERATIONS) + " iterations, 256-bit key", s -> "one key", s -> 0L, false));

    static final String BASELINE = "BaselineBenchmark.spin";
    /** The smallest object is 16 bytes: less than that per operation, net, means no allocation per operation. */
    static final double SMALLEST_OBJECT = 16;

    private final Path dir;
    private final RunRecord run;
    private final Ratios ratios;
    private final List<Point> points;
    /** The JVM options of the forks, as JMH recorded them. */
    private final List<String> jvmArgs;
    private final Map<Integer, Measure> ceiling;
    private final Optional<Point> baseline;

    Report(Path dir, RunRecord run, Ratios ratios, List<Point> points, List<String> jvmArgs) {
        this.dir = dir;
        this.run = run;
        this.ratios = ratios;
        this.points = points;
        this.jvmArgs = jvmArgs;
        this.ceiling = ceiling(run.openssl());
        this.baseline = points.stream().filter(p -> p.benchmark().equals(BASELINE)).findFirst();
    }

    /**
     * The bytes {@code p} itself allocates per operation: JMH's figure less the harness's share, which
     * {@link BaselineBenchmark} gives per its own operation and which grows with the time per operation.
     */
    OptionalDouble netAllocation(Point p) {
        if (p.alloc().isEmpty()) {
            return OptionalDouble.empty();
        }
        double harness = baseline.filter(b -> b.alloc().isPresent())
                .map(b -> b.alloc().getAsDouble() * p.time().value() / b.time().value()).orElse(0.0);
        return OptionalDouble.of(p.alloc().getAsDouble() - harness);
    }

    /** The harness's own allocation per measured iteration, from the baseline, when there is one. */
    OptionalDouble harnessBytesPerIteration() {
        return baseline.filter(b -> b.alloc().isPresent()).map(b -> OptionalDouble.of(
                b.alloc().getAsDouble() * run.settings().iterationMillis() * 1e6 / b.time().value()))
                .orElse(OptionalDouble.empty());
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "docs");
        Report report = read(dir);
        Files.writeString(dir.resolve(TABLE), report.markdown());
        report.chart(dir.resolve(CHART));
        String note = report.chartNote();
        report.ratioReport().speedupChart(dir.resolve(RatioReport.SPEEDUP_CHART), note);
        report.ratioReport().patternsChart(dir.resolve(RatioReport.PATTERNS_CHART), note);
        System.out.println();
        System.out.println(report.targetsText());
        System.out.println("wrote " + dir.resolve(TABLE) + " and " + dir.resolve(CHART));
        if (report.updateReadme(dir)) {
            System.out.println("updated the benchmark summary in README.md");
        }
    }

    /** The headline ratios of this run. */
    RatioReport ratioReport() {
        List<String> measured = run.implementations().entrySet().stream().filter(e -> e.getValue().available())
                .map(Map.Entry::getKey).toList();
        return new RatioReport(ratios, measured);
    }

    /** What was run, on what, and how, in one line under each chart. */
    String chartNote() {
        RunRecord.Settings s = run.settings();
        String openssl = run.openssl() == null || run.openssl().version() == null ? "OpenSSL"
                : String.join(" ", java.util.Arrays.copyOf(run.openssl().version().split(" "), 2));
        return String.format(Locale.ROOT, "%s, %d cores, %s; %d rounds, forks of %d×%d ms%s", run.cpu(),
                run.cores(), openssl, s.rounds(), s.iterations(), s.iterationMillis(),
                run.settled().isEmpty() ? "" : " (the noisiest points longer or in more forks)")
                + (run.steadyWarmup().isEmpty() ? "" : "; " + String.join(" and ", run.steadyWarmup()) + " warmed "
                        + java.math.BigDecimal.valueOf((long) s.warmupIterations(run.steadyWarmup().get(0)) * s.warmupMillis())
                                .movePointLeft(3).stripTrailingZeros().toPlainString() + " s");
    }

    /** The implementations warmed up longer, in one sentence, or nothing. */
    private String steadyWarmupText() {
        if (run.steadyWarmup().isEmpty()) {
            return "";
        }
        RunRecord.Settings s = run.settings();
        return " The forks of " + String.join(" and ", run.steadyWarmup().stream().map(Report::label).toList())
                + " warm up for " + s.warmupIterations(run.steadyWarmup().get(0)) + " × " + s.warmupMillis()
                + " ms: their speed steps down for good 1–3.5 s into a JVM, and this measures the speed after the step,"
                + " which a service sees.";
    }

    /** The points measured longer than the settings, in one sentence, or nothing. */
    private String settledText() {
        if (run.settled().isEmpty()) {
            return "";
        }
        Map<String, List<String>> how = new LinkedHashMap<>();
        for (RunRecord.Settled t : run.settled()) {
            List<String> what = new ArrayList<>();
            if (t.forks() > 1) {
                what.add(t.forks() + " forks per round");
            }
            if (t.iterationMillis() != run.settings().iterationMillis()) {
                what.add(run.settings().iterations() + " × " + t.iterationMillis() + " ms");
            }
            how.computeIfAbsent("`" + t.benchmark() + "` " + String.join(" of ", what), k -> new ArrayList<>())
                    .add(t.size() == null ? "" : bytesLabel(t.size()));
        }
        List<String> parts = new ArrayList<>();
        how.forEach((what, sizes) -> parts.add(what + (sizes.contains("") ? "" : " at " + String.join(", ", sizes))));
        return " The points whose forks vary most are measured longer, the same for every implementation: "
                + String.join("; ", parts) + ".";
    }

    static String label(String implementation) {
        return LABELS.getOrDefault(implementation, implementation);
    }

    static Report read(Path dir) throws IOException {
        List<Point> points = new ArrayList<>();
        List<String> jvmArgs = new ArrayList<>();
        for (JsonElement e : JsonParser.parseString(Files.readString(dir.resolve(JMH_JSON))).getAsJsonArray()) {
            JsonObject o = e.getAsJsonObject();
            String name = o.get("benchmark").getAsString();
            String benchmark = name.substring(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1);
            JsonObject params = o.has("params") ? o.getAsJsonObject("params") : new JsonObject();
            JsonObject primary = o.getAsJsonObject("primaryMetric");
            JsonObject alloc = o.getAsJsonObject("secondaryMetrics").getAsJsonObject(ALLOC);
            points.add(new Point(benchmark, params.has("provider") ? params.get("provider").getAsString() : "",
                    params.has("size") ? params.get("size").getAsString() : null,
                    new Measure(number(primary, "score"), number(primary, "scoreError")),
                    alloc == null ? OptionalDouble.empty() : OptionalDouble.of(number(alloc, "score")),
                    o.get("forks").getAsInt()));
            if (jvmArgs.isEmpty() && o.has("jvmArgs")) {
                o.getAsJsonArray("jvmArgs").forEach(a -> jvmArgs.add(a.getAsString()));
            }
        }
        RunRecord run = RunRecord.read(dir);
        return new Report(dir, run, Ratios.read(dir, run), points, List.copyOf(new LinkedHashSet<>(jvmArgs)));
    }

    /** JMH writes "NaN" as a string when it has no error (a single iteration). */
    private static double number(JsonObject o, String field) {
        JsonElement e = o.get(field);
        return e == null || (e.isJsonPrimitive() && e.getAsJsonPrimitive().isString()) ? Double.NaN : e.getAsDouble();
    }

    /** Mean and 99.9% interval of the {@code openssl speed} samples at each size, as ns per message. */
    static Map<Integer, Measure> ceiling(RunRecord.Ceiling openssl) {
        Map<Integer, List<Double>> bySize = new LinkedHashMap<>();
        if (openssl != null && openssl.samples() != null) {
            for (RunRecord.Sample s : openssl.samples()) {
                bySize.computeIfAbsent(s.size(), k -> new ArrayList<>()).add(s.size() / s.bytesPerSecond() * 1e9);
            }
        }
        Map<Integer, Measure> result = new LinkedHashMap<>();
        bySize.forEach((size, ns) -> result.put(size, meanWithError(ns)));
        return result;
    }

    static Measure meanWithError(List<Double> values) {
        int n = values.size();
        double mean = values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
        if (n < 2) {
            return new Measure(mean, Double.NaN);
        }
        double variance = values.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum() / (n - 1);
        double t = new TDistribution(n - 1).inverseCumulativeProbability(1 - 0.001 / 2);
        return new Measure(mean, t * Math.sqrt(variance / n));
    }

    Optional<Point> point(String benchmark, String implementation, String size) {
        return points.stream().filter(p -> p.benchmark().equals(benchmark) && p.implementation().equals(implementation)
                && Objects.equals(p.size(), size)).findFirst();
    }

    private List<String> implementationsIn(String benchmark) {
        List<String> order = new ArrayList<>(Providers.ALL);
        points.stream().map(Point::implementation).distinct().filter(i -> !order.contains(i)).forEach(order::add);
        return order.stream().filter(i -> points.stream().anyMatch(p -> p.benchmark().equals(benchmark)
                && p.implementation().equals(i))).toList();
    }

    private List<String> sizesIn(String benchmark) {
        return points.stream().filter(p -> p.benchmark().equals(benchmark)).map(Point::size).distinct()
                .sorted((a, b) -> a == null || b == null ? 0 : Long.compare(Long.parseLong(a), Long.parseLong(b)))
                .toList();
    }

    String markdown() {
        StringBuilder md = new StringBuilder("# Benchmarks\n\n");
        md.append(header()).append('\n');
        md.append("## Implementations\n\n");
        run.implementations().forEach((name, impl) -> md.append("- **").append(LABELS.getOrDefault(name, name))
                .append("** (`").append(name).append("`): ").append(describe(impl)).append('\n'));
        md.append("- **").append(LABELS.get(CEILING)).append("**: ").append(ceilingDescription()).append("\n\n");
        RatioReport ratio = ratioReport();
        md.append("## Ratios\n\nMedian of the per-round speed ratios (lowest–highest round).\n\n")
                .append(ratio.sizeTable()).append('\n').append(ratio.patternTable()).append('\n');
        try {
            md.append(sm3sum(dir));
        } catch (IOException e) {
            md.append("(").append(SM3SUM).append(" unreadable: ").append(e.getMessage()).append(")\n\n");
        }
        md.append("## Targets\n\n").append(targetsTable()).append('\n');
        md.append("![SM3 throughput against message size](").append(CHART).append(")\n\n");
        md.append("## Results\n\n");
        md.append("ns/op and MB/s (10^6 bytes per second) with 99.9% error. B/op is what the operation itself "
                + "allocates: JMH's `").append(ALLOC).append("` less the harness's own share");
        harnessBytesPerIteration().ifPresent(h -> md.append(String.format(Locale.ROOT,
                " (about %,.0f bytes per iteration, from `%s`, which allocates nothing)", h, BASELINE)));
        md.append(". The last column is sm3-ffm's speed over that row's (above 1: sm3-ffm is faster).\n");
        for (Question q : QUESTIONS) {
            if (points.stream().noneMatch(p -> p.benchmark().equals(q.benchmark()))) {
                continue;
            }
            md.append("\n### ").append(q.title()).append(" (`").append(q.benchmark()).append("`)\n\n");
            md.append("| Input | Implementation | ns/op | MB/s | B/op | sm3-ffm ÷ this |\n");
            md.append("|---|---|--:|--:|--:|--:|\n");
            for (String size : sizesIn(q.benchmark())) {
                long bytes = q.bytes().apply(size);
                Optional<Measure> ours = point(q.benchmark(), OURS, size).map(Point::time);
                for (String impl : implementationsIn(q.benchmark())) {
                    Optional<Point> p = point(q.benchmark(), impl, size);
                    if (p.isEmpty()) {
                        continue;
                    }
                    Measure t = p.get().time();
                    md.append(row(q.input().apply(size), LABELS.getOrDefault(impl, impl), t, bytes,
                            allocation(p.get()),
                            ours.map(o -> impl.equals(OURS) ? "1" : ratio(o.speedOver(t))).orElse("")));
                }
                Measure c = q.withCeiling() ? ceiling.get((int) bytes) : null;
                if (c != null) {
                    md.append(row(q.input().apply(size), LABELS.get(CEILING), c, bytes, "",
                            ours.map(o -> ratio(o.speedOver(c))).orElse("")));
                }
            }
        }
        if (!run.failures().isEmpty()) {
            md.append("\n## Failures\n\n");
            run.failures().forEach(f -> md.append("- ").append(f).append('\n'));
            if (run.failures().stream().anyMatch(f -> f.endsWith("exit code 3"))) {
                md.append("\nA fork that exits with code 3 ran out of its 1 GB heap: forks run with "
                        + "`-XX:+ExitOnOutOfMemoryError`.\n");
            }
        }
        return md.toString();
    }

    private String allocation(Point p) {
        OptionalDouble net = netAllocation(p);
        return net.isPresent() ? Long.toString(Math.round(net.getAsDouble())) : "";
    }

    private static String row(String input, String impl, Measure t, long bytes, String alloc, String ratio) {
        String mbs = bytes > 0 ? withError(t.megabytesPerSecond(bytes)) : "";
        return "| " + input + " | " + impl + " | " + withError(t) + " | " + mbs + " | " + alloc + " | " + ratio + " |\n";
    }

    private String header() {
        RunRecord.Settings s = run.settings();
        String kind = switch (run.mode()) {
            case "smoke" -> "> **Smoke run**: iterations far too short to mean anything; it only proves the suite runs.\n";
            case "reduced" -> "> **Reduced run** (fewer or shorter iterations than the default, or a subset): indicative only.\n";
            default -> "";
        };
        String note = run.note() == null || run.note().isBlank() ? "" : "> " + run.note() + "\n";
        return kind + note + (kind.isEmpty() && note.isEmpty() ? "" : "\n")
                + "`" + run.command() + "` on " + run.started().substring(0, 10) + ", " + Suite.minutes(run.seconds())
                + ": " + s.rounds() + " round(s), each one JMH fork per point unless said below (" + s.warmupIterations() + " × "
                + s.warmupMillis() + " ms warmup, " + s.iterations() + " × " + s.iterationMillis()
                + " ms measured, average time, `-prof gc`), the implementations taking turns; " + s.opensslSamples()
                + " × " + s.opensslSeconds() + " s of `openssl speed` per size and round, just before that size's forks."
                + settledText() + steadyWarmupText()
                + (jvmArgs.isEmpty() ? "" : " Fork JVM options: `" + String.join(" ", jvmArgs) + "`.") + "\n\n"
                + "Machine: " + run.cpu() + ", " + run.cores() + " cores, " + run.os() + "; " + run.jdk() + ".\n";
    }

    private static String describe(RunRecord.Implementation impl) {
        if (!impl.available()) {
            return "not measured: " + impl.reason();
        }
        String libs = impl.libraries() == null || impl.libraries().isEmpty() ? "" : "; native code: `" + impl.libraries() + "`";
        return impl.version() + " from `" + impl.source() + "`" + libs + "; offers " + impl.services();
    }

    private String ceilingDescription() {
        RunRecord.Ceiling c = run.openssl();
        if (c == null || c.unavailable() != null) {
            return "not measured: " + (c == null ? "no record" : c.unavailable());
        }
        return c.version() + ", `" + c.command() + "` (wall-clock time, like JMH; per message one `EVP_Digest`, which creates and frees a context, on an SM3 fetched once)";
    }

    /** One performance target: what it asks, what was measured, and whether it holds. */
    record Verdict(String target, String measured, String verdict) {
    }

    private static final String DIGEST = "DigestBenchmark.digest";
    private static final String REUSED = "CallPatternBenchmark.reusedDigest";
    private static final String NEW = "CallPatternBenchmark.newDigest";
    private static final String CLONE_1061 = "PerMessageBenchmark.cloneThenFinish1061B";
    private static final String BARE_CLONE = "BareCloneBenchmark.copyThenFinal";

    /**
     * Every target of the performance issues, each judged on the median of its per-round ratios (see
     * {@link Ratios}); "rounds on both sides" when the lowest and highest round fall on either side of it.
     */
    List<Verdict> targets() {
        List<Verdict> v = new ArrayList<>();
        // Whole messages with a reused digest.
        for (String size : List.of("8192", "65536", "1048576")) {
            v.add(atLeast("≥ 0.97 of openssl speed at " + bytesLabel(size), ratios.ofCeiling(DIGEST, size, OURS), 0.97));
            v.add(atLeast("≥ 1.75× BouncyCastle at " + bytesLabel(size), over(DIGEST, size, Providers.BC), 1.75));
            v.add(atLeast("≥ 1.75× Kona, pure Java at " + bytesLabel(size), over(DIGEST, size, Providers.KONA), 1.75));
        }
        v.add(atLeast("≥ 0.95 of openssl speed at 1 KiB", ratios.ofCeiling(DIGEST, "1024", OURS), 0.95));
        v.add(atLeast("≥ 1.5× BouncyCastle at 1 KiB", over(DIGEST, "1024", Providers.BC), 1.5));
        for (String size : List.of("16", "64")) {
            v.add(atLeast("≥ 0.9 of openssl speed at " + bytesLabel(size), ratios.ofCeiling(DIGEST, size, OURS), 0.9));
            v.add(above("> 1.0× BouncyCastle at " + bytesLabel(size), over(DIGEST, size, Providers.BC), 1.0));
            v.add(atLeast("≥ 2.0× Kona, OpenSSL over JNI at " + bytesLabel(size),
                    over(DIGEST, size, Providers.KONA_NATIVE), 2.0));
        }
        // The ways services call the JCA.
        for (String size : List.of("16", "64")) {
            v.add(atMost("reused digest ≤ 1.1× the three bare downcalls' time at " + bytesLabel(size),
                    ratios.speedup("BareCallsBenchmark.threeCalls", "", REUSED, OURS, size), 1.1));
        }
        v.add(atLeast("reused digest ≥ 0.9× BouncyCastle at 16 B", over(REUSED, "16", Providers.BC), 0.9));
        v.add(atLeast("reused digest ≥ 1.2× BouncyCastle at 64 B", over(REUSED, "64", Providers.BC), 1.2));
        v.add(atLeast("reused digest ≥ 0.85 of openssl speed at 64 B", ratios.ofCeiling(REUSED, "64", OURS), 0.85));
        v.add(atLeast("new digest per message ≥ 0.9× BouncyCastle at 16 B", over(NEW, "16", Providers.BC), 0.9));
        v.add(atLeast("new digest per message ≥ 1.1× BouncyCastle at 64 B", over(NEW, "64", Providers.BC), 1.1));
        for (String size : List.of("16", "64")) {
            v.add(atMost("new digest per message ≤ 1.3× the time of a reused one at " + bytesLabel(size),
                    ratios.speedup(REUSED, OURS, NEW, OURS, size), 1.3));
            v.add(new Verdict("(the JDK's share of that at " + bytesLabel(size) + ": getInstance on an engine that "
                    + "hashes nothing, over sm3-ffm's reused digest)", jdkShare(size).map(s -> "+" + s.text()).orElse("—"),
                    "floor"));
        }
        v.add(atLeast("clone-then-finish of 1061 B ≥ 1.0× BouncyCastle", over(CLONE_1061, null, Providers.BC), 1.0));
        v.add(new Verdict("(the most it could be: the native calls of a clone-then-finish alone, over BouncyCastle)",
                ratios.speedup(BARE_CLONE, "", CLONE_1061, Providers.BC, null).map(Ratios.Spread::text).orElse("—"),
                "floor"));
        v.add(atLeast("HmacSM3, reused Mac, 64 B ≥ 1.1× BouncyCastle",
                over("CallPatternBenchmark.reusedMac", "64", Providers.BC), 1.1));
        v.add(atLeast("HmacSM3, new Mac + init per 64 B ≥ 1.0× BouncyCastle",
                over("CallPatternBenchmark.newMac", "64", Providers.BC), 1.0));
        for (String size : List.of("65536", "1048576")) {
            v.add(atLeast("≥ 1.6× BouncyCastle at " + bytesLabel(size), over(DIGEST, size, Providers.BC), 1.6));
        }
        // Allocation (one figure per point: JMH's gc.alloc.rate.norm over all rounds).
        for (String method : Suite.benchmarkMethods(UpdateBenchmark.class)) {
            v.add(allocation("UpdateBenchmark." + method, 0, "0 B/op on the update path: " + method));
        }
        v.add(allocation(DIGEST, DIGEST_RESULT_BYTES, "digest() allocates only its 32-byte result (≤ 48 B/op), every size"));
        return v;
    }

    private Optional<Ratios.Spread> over(String benchmark, String size, String other) {
        return ratios.speedup(benchmark, size, OURS, other);
    }

    /** (new − reused) of the no-op engine over sm3-ffm's reused digest, round by round. */
    Optional<Ratios.Spread> jdkShare(String size) {
        return ratios.combine(t -> (t[1] - t[0]) / t[2], new String[] {"JcaFloorBenchmark.reusedDigest", "", size},
                new String[] {"JcaFloorBenchmark.newDigest", "", size}, new String[] {REUSED, OURS, size});
    }

    private static Verdict atLeast(String target, Optional<Ratios.Spread> ratio, double threshold) {
        return judge(target, ratio, threshold, s -> s >= threshold);
    }

    private static Verdict above(String target, Optional<Ratios.Spread> ratio, double threshold) {
        return judge(target, ratio, threshold, s -> s > threshold);
    }

    private static Verdict atMost(String target, Optional<Ratios.Spread> ratio, double threshold) {
        return judge(target, ratio, threshold, s -> s <= threshold);
    }

    private static Verdict judge(String target, Optional<Ratios.Spread> ratio, double threshold, DoublePredicate met) {
        if (ratio.isEmpty()) {
            return new Verdict(target, "—", "not measured");
        }
        Ratios.Spread s = ratio.get();
        boolean straddles = s.low() < threshold && s.high() > threshold;
        return new Verdict(target, s.text(), (met.test(s.median()) ? "met" : "**not met**")
                + (straddles ? " (rounds on both sides)" : ""));
    }

    /** Allocation of sm3-ffm at every size of {@code benchmark} (or its only point) against a ceiling in B/op. */
    private Verdict allocation(String benchmark, double atMost, String target) {
        List<Point> ours = points.stream().filter(p -> p.benchmark().equals(benchmark) && p.implementation().equals(OURS)
                && p.alloc().isPresent()).toList();
        if (ours.isEmpty()) {
            return new Verdict(target, "—", "not measured");
        }
        Point worst = ours.stream().max(Comparator.comparingDouble(p -> netAllocation(p).getAsDouble())).orElseThrow();
        double net = netAllocation(worst).getAsDouble();
        String where = ours.size() > 1 ? " (largest, at " + bytesLabel(worst.size()) + ")" : "";
        return new Verdict(target, String.format(Locale.ROOT, "%.1f B/op%s", net, where),
                net < atMost + SMALLEST_OBJECT ? "met" : "**not met**");
    }

    String targetsTable() {
        StringBuilder t = new StringBuilder("| Target (sm3-ffm) | Measured | Verdict |\n|---|--:|---|\n");
        targets().forEach(v -> t.append("| ").append(v.target()).append(" | ").append(v.measured()).append(" | ")
                .append(v.verdict()).append(" |\n"));
        return t.toString();
    }

    String targetsText() {
        StringBuilder t = new StringBuilder("Targets (" + run.mode() + " run):\n");
        targets().forEach(v -> t.append(String.format(Locale.ROOT, "  %-12s %-16s %s%n",
                v.verdict().replace("*", ""), v.measured(), v.target())));
        return t.toString();
    }

    /** Throughput against size: one line per implementation of {@code DigestBenchmark}, and the ceiling. */
    void chart(Path file) throws IOException {
        String title = "SM3, whole message with a reused MessageDigest"
                + (run.mode().equals("full") ? "" : " (" + run.mode() + " run)");
        XYChart chart = new XYChartBuilder().width(1000).height(620).title(title)
                .xAxisTitle("message size (bytes, log scale)").yAxisTitle("MB/s (10^6 bytes/s), 99.9% error bars").build();
        XYStyler styler = chart.getStyler();
        styler.setXAxisLogarithmic(true);
        styler.setXAxisDecimalPattern("#,###");
        styler.setYAxisMin(0.0);
        styler.setErrorBarsColorSeriesColor(true);
        styler.setLegendPosition(Styler.LegendPosition.InsideNW);
        styler.setChartBackgroundColor(Color.WHITE);
        String digest = "DigestBenchmark.digest";
        for (String impl : implementationsIn(digest)) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            List<Double> err = new ArrayList<>();
            for (String size : sizesIn(digest)) {
                point(digest, impl, size).ifPresent(p -> {
                    Measure mbs = p.time().megabytesPerSecond(Long.parseLong(size));
                    x.add(Double.valueOf(size));
                    y.add(mbs.value());
                    err.add(Double.isNaN(mbs.error()) ? 0 : mbs.error());
                });
            }
            addSeries(chart, LABELS.getOrDefault(impl, impl), x, y, err, impl.equals(OURS) ? 3f : 1.8f);
        }
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        List<Double> err = new ArrayList<>();
        ceiling.forEach((size, ns) -> {
            Measure mbs = ns.megabytesPerSecond(size);
            x.add(size.doubleValue());
            y.add(mbs.value());
            err.add(Double.isNaN(mbs.error()) ? 0 : mbs.error());
        });
        if (!x.isEmpty()) {
            XYSeries s = addSeries(chart, LABELS.get(CEILING), x, y, err, 1.8f);
            s.setLineColor(Color.BLACK);
            s.setMarkerColor(Color.BLACK);
            s.setLineStyle(new BasicStroke(1.8f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {6f, 4f}, 0f));
        }
        // Error bars from a couple of openssl samples can be far taller than every line: keep the lines readable.
        chart.getSeriesMap().values().stream().flatMapToDouble(series -> Arrays.stream(series.getYData())).max()
                .ifPresent(top -> styler.setYAxisMax(top * 1.25));
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static XYSeries addSeries(XYChart chart, String name, List<Double> x, List<Double> y, List<Double> err, float width) {
        XYSeries s = chart.addSeries(name, x, y, err);
        s.setMarker(SeriesMarkers.CIRCLE);
        s.setLineWidth(width);
        return s;
    }

    /**
     * Puts the targets and a link to the full table into README.md between its benchmark markers, when
     * {@code dir} is the repository's own {@code docs} directory (the committed results).
     */
    boolean updateReadme(Path dir) throws IOException {
        Path readme = Path.of("README.md").toAbsolutePath();
        if (!Files.isRegularFile(readme) || !dir.toAbsolutePath().normalize().equals(readme.getParent().resolve("docs"))) {
            return false;
        }
        String text = Files.readString(readme);
        int begin = text.indexOf(README_BEGIN);
        int end = text.indexOf(README_END);
        if (begin < 0 || end < begin) {
            return false;
        }
        RatioReport ratio = ratioReport();
        String block = README_BEGIN + "\n" + header() + "\n"
                + "sm3-ffm's speed over each implementation (× 1.5 = takes two thirds of the time), as the median of "
                + "the per-round ratios with the lowest and highest round in brackets; the last column is the fraction "
                + "of OpenSSL's own C loop (`openssl speed -evp sm3`) it reaches.\n\n"
                + "**Whole message, reused `MessageDigest`, by size**\n\n" + ratio.sizeTable() + "\n"
                + "![Speed-up over BouncyCastle against message size](docs/" + RatioReport.SPEEDUP_CHART + ")\n\n"
                + "*" + chartNote() + ". Each point is the median over the rounds of BouncyCastle's time divided by "
                + "that implementation's, from forks run one after another; bars reach the lowest and highest round. "
                + "The black line is `openssl speed` over BouncyCastle, the native ceiling.*\n\n"
                + "**Usage patterns** (64-byte messages unless named)\n\n" + ratio.patternTable() + "\n"
                + "![Usage patterns, speed-up over BouncyCastle](docs/" + RatioReport.PATTERNS_CHART + ")\n\n"
                + "*" + chartNote() + ". Bars: median over the rounds of BouncyCastle's time over each "
                + "implementation's, in the order of the table's rows, named short; missing bars are services that "
                + "implementation does not offer.*\n\n"
                + sm3sum(dir)
                + "Absolute figures (ns/op, MB/s, allocation) and the earlier targets: [docs/" + TABLE + "](docs/"
                + TABLE + ").\n";
        Files.writeString(readme, text.substring(0, begin) + block + text.substring(end));
        return true;
    }

    /** The command-line comparison ({@code bench/sm3sum-vs-openssl.sh}, written to {@value #SM3SUM}), if run. */
    static String sm3sum(Path dir) throws IOException {
        Path file = dir.resolve(SM3SUM);
        return Files.isRegularFile(file) ? "**sm3sum against the native command-line tools**\n\n"
                + Files.readString(file).strip() + "\n\n" : "";
    }

    /** MB/s by size, one column per implementation and the ceiling. */
    String summaryTable() {
        String digest = "DigestBenchmark.digest";
        List<String> impls = implementationsIn(digest);
        StringBuilder t = new StringBuilder("| MB/s |");
        impls.forEach(i -> t.append(' ').append(LABELS.getOrDefault(i, i)).append(" |"));
        t.append(' ').append(LABELS.get(CEILING)).append(" |\n|---|");
        t.append("--:|".repeat(impls.size() + 1)).append('\n');
        for (String size : sizesIn(digest)) {
            t.append("| ").append(bytesLabel(size)).append(" |");
            for (String impl : impls) {
                t.append(' ').append(point(digest, impl, size)
                        .map(p -> withError(p.time().megabytesPerSecond(Long.parseLong(size)))).orElse("")).append(" |");
            }
            Measure c = ceiling.get(Integer.valueOf(size));
            t.append(' ').append(c == null ? "" : withError(c.megabytesPerSecond(Long.parseLong(size)))).append(" |\n");
        }
        return t.toString();
    }

    static String bytesLabel(String size) {
        long n = Long.parseLong(size);
        if (n >= 1 << 20 && n % (1 << 20) == 0) {
            return n / (1 << 20) + " MiB";
        }
        if (n >= 1024 && n % 1024 == 0) {
            return n / 1024 + " KiB";
        }
        return n + " B";
    }

    /** "value ± error" with as many decimals as the error's size calls for. */
    static String withError(Measure m) {
        if (Double.isNaN(m.error())) {
            return String.format(Locale.ROOT, "%,." + decimals(m.value()) + "f", m.value());
        }
        int d = Math.max(decimals(m.error()), 0);
        return String.format(Locale.ROOT, "%,." + d + "f ± %,." + d + "f", m.value(), m.error());
    }

    static String ratio(Measure m) {
        return Double.isNaN(m.error()) ? String.format(Locale.ROOT, "%.2f", m.value())
                : String.format(Locale.ROOT, "%.2f ± %.2f", m.value(), m.error());
    }

    /** Decimals that keep two significant digits of {@code x}, none above 100, at most 2. */
    private static int decimals(double x) {
        if (!(x > 0) || x >= 100) {
            return 0;
        }
        return Math.min(2, (int) Math.ceil(-Math.log10(x)) + 1);
    }
}
