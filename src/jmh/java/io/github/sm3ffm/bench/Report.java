package io.github.sm3ffm.bench;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.DoubleStream;
import java.util.stream.Stream;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * Turns what {@code bench/run} leaves in a directory into ratio tables (Markdown, also printed) and two
 * charts: JMH's JSON results ({@code -rf json}, a file {@code NAME-ROUND.json} per group of benchmarks and
 * round), the output of {@code openssl speed -mr} ({@value #OPENSSL}) and the machine's description
 * ({@value #MACHINE}). Usage: {@code Report RESULTS_DIR MARKDOWN_FILE [CHART_DIR]}.
 *
 * <p>A fork's figure is the mean of its measured iterations. The implementations take turns, one fork of each
 * point per round, so a ratio is taken within a round, between forks that met the same host.
 *
 * @param openssl ns per message of each {@code openssl speed} run, by message size
 * @param settings the first JMH entry, for the settings every entry shares
 */
public record Report(Map<String, Point> points, Map<Long, List<Double>> openssl, Map<String, String> machine,
                     JsonObject settings) {
    static final String OURS = Providers.SM3FFM;
    static final String BC = Providers.BC;
    static final String DIGEST = "DigestBenchmark.digest";
    static final String OPENSSL = "openssl-speed.txt";
    static final String MACHINE = "machine.txt";
    /** The most sm3-ffm's slowest fork at a point may take over its fastest. */
    static final double SPREAD = 1.10;
    private static final double NONE = Double.NaN;
    private static final String NEW_DIGEST = "CallPatternBenchmark.newDigest";
    private static final String CLONE = "PerMessageBenchmark.cloneThenFinish";
    private static final String HKDF = "HkdfBenchmark.extractThenExpand";

    /**
     * A headline point: its benchmark and size, the least speed-up over BouncyCastle its slowest round must reach
     * and the least fraction of {@code openssl speed} (NaN: none), and its name under a chart's bars.
     */
    record Row(String label, String benchmark, String size, double target, double ofOpenssl, String bar) {
        static Row digest(String size, String label, double target, double ofOpenssl) {
            return new Row("reused MessageDigest, " + label, DIGEST, size, target, ofOpenssl, label);
        }
    }

    static final List<Row> ROWS = List.of(
            Row.digest("16", "16 B", 1.25, NONE),
            Row.digest("64", "64 B", 1.4, NONE),
            Row.digest("256", "256 B", NONE, NONE),
            Row.digest("1024", "1 KiB", NONE, NONE),
            Row.digest("8192", "8 KiB", NONE, 0.97),
            Row.digest("65536", "64 KiB", 1.6, 0.97),
            Row.digest("1048576", "1 MiB", 1.6, 0.97),
            new Row("new MessageDigest per 16 B message", NEW_DIGEST, "16", 1.15, NONE, "new digest 16 B"),
            new Row("new MessageDigest per 64 B message", NEW_DIGEST, "64", 1.2, NONE, "new digest 64 B"),
            new Row("clone-then-finish, 64 B appended", CLONE + "64B", "", NONE, NONE, "clone 64 B"),
            new Row("clone-then-finish, 1061 B transcript", CLONE + "1061B", "", 1.05, NONE, "clone 1061 B"),
            new Row("update(byte) × 1 KiB", "UpdateBenchmark.updateByte1KiB", "", NONE, NONE, "update(byte)"),
            new Row("HmacSM3, reused Mac, 64 B", "CallPatternBenchmark.reusedMac", "64", 1.3, NONE, "reused Mac"),
            new Row("HmacSM3, new Mac per 64 B message", "CallPatternBenchmark.newMac", "64", 1.3, NONE, "new Mac"),
            new Row("HKDF-SM3 extract-then-expand to 32 B", HKDF, "32", 1.3, NONE, "HKDF 32 B"),
            new Row("HKDF-SM3 extract-then-expand to 64 B", HKDF, "64", 1.3, NONE, "HKDF 64 B"),
            new Row("PBKDF2WithHmacSM3, 10,000 iterations", "Pbkdf2Benchmark.derive", "", NONE, NONE,
                    "PBKDF2 10,000 it."));

    private static final Map<String, String> LABELS = Map.of(OURS, "sm3-ffm", BC, "BouncyCastle",
            Providers.KONA, "Kona, pure Java", Providers.KONA_NATIVE, "Kona, OpenSSL over JNI",
            Providers.NO_HASH, "the JDK alone (no hashing)", "", "—");

    /**
     * One implementation at one benchmark, size and thread count: each fork's mean time (ns/op) by the round it
     * ran in ({@code ROUND.FORK}, the round empty in a file that is not a round's: its forks pair in their
     * order), and the most allocation (B/op) any round's JMH entry recorded.
     */
    record Point(String benchmark, String size, String implementation, int threads, Map<String, Double> byRound,
                 double bytesPerOp) {
        Point plus(Point other) {
            Map<String, Double> forks = new TreeMap<>(byRound);
            forks.putAll(other.byRound());
            return new Point(benchmark, size, implementation, threads, forks, DoubleStream.of(bytesPerOp,
                    other.bytesPerOp()).filter(b -> !Double.isNaN(b)).max().orElse(NONE));
        }

        /** The forks' times, fastest first. */
        double[] forks() {
            return byRound.values().stream().mapToDouble(Double::doubleValue).sorted().toArray();
        }

        double median() {
            return Report.median(forks());
        }

        double slowest() {
            return forks()[byRound.size() - 1];
        }

        /** "fastest–slowest" fork, or the one fork's time. */
        String range() {
            return byRound.size() == 1 ? ns(slowest()) : ns(forks()[0]) + "–" + ns(slowest());
        }
    }

    public static void main(String[] args) throws IOException {
        Report report = read(Path.of(args[0]));
        String markdown = report.markdown(args.length > 2);
        Files.writeString(Path.of(args[1]), markdown);
        System.out.print(markdown);
        if (args.length > 2) {
            report.chart(Path.of(args[2], "speedup.png"), "SM3, reused MessageDigest, by message size", true);
            report.chart(Path.of(args[2], "patterns.png"), "Usage patterns", false);
        }
    }

    static Report read(Path dir) throws IOException {
        Map<String, Point> points = new LinkedHashMap<>();
        JsonObject settings = new JsonObject();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                String name = file.getFileName().toString();
                String round = name.matches(".*-\\d+\\.json") ? name.replaceAll(".*-(\\d+)\\.json", "$1") : "";
                for (JsonElement e : JsonParser.parseString(Files.readString(file)).getAsJsonArray()) {
                    settings = points.isEmpty() ? e.getAsJsonObject() : settings;
                    Point p = point(e.getAsJsonObject(), round);
                    points.merge(key(p.benchmark(), p.size(), p.implementation(), p.threads()), p, Point::plus);
                }
            }
        }
        Path speed = dir.resolve(OPENSSL);
        Path machine = dir.resolve(MACHINE);
        return new Report(points, Files.exists(speed) ? parseOpenssl(Files.readString(speed)) : Map.of(),
                Files.exists(machine) ? parseMachine(Files.readString(machine)) : Map.of(), settings);
    }

    /** One entry of JMH's JSON, whose {@code primaryMetric.rawData} holds each fork's iterations. */
    static Point point(JsonObject o, String round) {
        String name = o.get("benchmark").getAsString();
        JsonObject params = o.has("params") ? o.getAsJsonObject("params") : new JsonObject();
        JsonArray raw = o.getAsJsonObject("primaryMetric").getAsJsonArray("rawData");
        Map<String, Double> forks = new TreeMap<>();
        for (int i = 0; i < raw.size(); i++) {
            forks.put(round + "." + i, raw.get(i).getAsJsonArray().asList().stream()
                    .mapToDouble(JsonElement::getAsDouble).average().orElseThrow());
        }
        JsonObject secondary = o.has("secondaryMetrics") ? o.getAsJsonObject("secondaryMetrics") : new JsonObject();
        JsonElement alloc = secondary.has("gc.alloc.rate.norm")
                ? secondary.getAsJsonObject("gc.alloc.rate.norm").get("score") : null;
        return new Point(name.substring(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1),
                params.has("size") ? params.get("size").getAsString() : "",
                params.has("provider") ? params.get("provider").getAsString() : "",
                o.has("threads") ? o.get("threads").getAsInt() : 1, forks,
                alloc != null && alloc.getAsJsonPrimitive().isNumber() ? alloc.getAsDouble() : NONE);
    }

    /** The ns per message of each size of each run in {@code openssl speed -mr} output (+H sizes, +F rates). */
    static Map<Long, List<Double>> parseOpenssl(String output) {
        Map<Long, List<Double>> ns = new TreeMap<>();
        String[] sizes = {};
        for (String line : output.split("\\R")) {
            String[] f = line.split(":");
            if (line.startsWith("+H:")) {
                sizes = Arrays.copyOfRange(f, 1, f.length);
            } else if (line.startsWith("+F:") && f.length - 3 == sizes.length) {
                for (int i = 0; i < sizes.length; i++) {
                    long size = Long.parseLong(sizes[i]);
                    ns.computeIfAbsent(size, s -> new ArrayList<>()).add(size / Double.parseDouble(f[3 + i]) * 1e9);
                }
            }
        }
        return ns;
    }

    /** The {@code key=value} lines {@code bench/run} writes. */
    static Map<String, String> parseMachine(String text) {
        return text.lines().map(l -> l.split("=", 2)).filter(kv -> kv.length == 2 && !kv[0].isEmpty())
                .collect(Collectors.toMap(kv -> kv[0], kv -> kv[1].strip(), (a, b) -> b));
    }

    private static String key(String benchmark, String size, String implementation, int threads) {
        return benchmark + " " + size + " " + implementation + " " + threads;
    }

    /** The point at one thread. */
    Optional<Point> point(String benchmark, String size, String implementation) {
        return Optional.ofNullable(points.get(key(benchmark, size, implementation, 1)));
    }

    /** {@code a}'s fork over {@code b}'s in each round both ran: the lowest round's ratio, or the median. */
    Optional<Double> ratio(String benchmark, String size, String a, String b, boolean lowest) {
        Map<String, Double> over = point(benchmark, size, b).map(Point::byRound).orElse(Map.of());
        double[] r = point(benchmark, size, a).map(p -> p.byRound().entrySet().stream()
                .filter(e -> over.containsKey(e.getKey())).mapToDouble(e -> e.getValue() / over.get(e.getKey()))
                .sorted().toArray()).orElse(new double[0]);
        return r.length == 0 ? Optional.empty() : Optional.of(lowest ? r[0] : median(r));
    }

    /** The median of {@code openssl speed}'s runs at a size, ns per message. */
    private Optional<Double> openssl(String size) {
        return Optional.ofNullable(size.isEmpty() ? null : openssl.get(Long.valueOf(size)))
                .map(runs -> median(runs.stream().mapToDouble(Double::doubleValue).sorted().toArray()));
    }

    /** {@code openssl speed}'s time over sm3-ffm's reused digest's (slowest or median fork): the fraction reached. */
    Optional<Double> ofOpenssl(String size, boolean slowest) {
        return openssl(size).flatMap(o -> point(DIGEST, size, OURS).map(p -> o / (slowest ? p.slowest() : p.median())));
    }

    /** Implementations but sm3-ffm, BouncyCastle and the floors (bare downcalls, the JDK's share), in the order run. */
    List<String> competitors() {
        return points.values().stream().map(Point::implementation).distinct()
                .filter(i -> !List.of(OURS, BC, "", Providers.NO_HASH).contains(i)).toList();
    }

    /** The tables, and with {@code charts} the two charts written beside them. */
    String markdown(boolean charts) {
        StringBuilder m = new StringBuilder("# sm3-ffm benchmarks\n\n").append(header()).append("\n\n");
        m.append("""
                The implementations: sm3-ffm; BouncyCastle (`bcprov-jdk18on`), pure Java, the reference of every \
                ratio; Tencent Kona SM Suite (`kona-crypto`), Tencent's JCA provider of the SM algorithms, in its two \
                providers: *Kona, pure Java* (`KonaCrypto`) and *Kona, OpenSSL over JNI* (`KonaCrypto-Native`, with \
                a libcrypto of its own); and *openssl speed*, OpenSSL's own loop (`openssl speed -evp sm3`).

                ## Against BouncyCastle

                The implementations take turns, one fork of each point per round. Speed-up over BouncyCastle: \
                BouncyCastle's fork over sm3-ffm's fork of the same round (above 1, sm3-ffm is faster). *Slowest \
                round*: the lowest of these ratios, on which the target is judged; *median round*: their median. \
                *Spread*: sm3-ffm's slowest fork over its fastest (at most %.2f). *Of openssl speed*: `openssl \
                speed -evp sm3`'s time at that size (median of its runs) over sm3-ffm's, slowest fork / median fork.

                | Point | sm3-ffm forks, ns | BouncyCastle forks, ns | × BC, slowest round | × BC, median round \
                | target | spread | of openssl speed |
                |---|--:|--:|--:|--:|---|--:|--:|
                """.formatted(SPREAD));
        for (Row r : ROWS) {
            Optional<Point> ours = point(r.benchmark(), r.size(), OURS);
            Optional<Point> bc = point(r.benchmark(), r.size(), BC);
            if (ours.isPresent() || bc.isPresent()) {
                Optional<Double> worst = ratio(r.benchmark(), r.size(), BC, OURS, true);
                String spread = ours.map(p -> p.slowest() / p.forks()[0])
                        .map(s -> fmt(s > SPREAD ? "**%.2f**" : "%.2f", s)).orElse("—");
                String ceiling = !r.benchmark().equals(DIGEST) ? "" : or(ofOpenssl(r.size(), true), "%.2f") + " / "
                        + or(ofOpenssl(r.size(), false), "%.2f") + (Double.isNaN(r.ofOpenssl()) ? ""
                        : " (" + verdict(ofOpenssl(r.size(), true), r.ofOpenssl()) + ")");
                row(m, r.label(), ours.map(Point::range).orElse("—"), bc.map(Point::range).orElse("—"),
                        or(worst, "%.2f×"), or(ratio(r.benchmark(), r.size(), BC, OURS, false), "%.2f×"),
                        verdict(worst, r.target()), spread, ceiling);
            }
        }
        if (charts) {
            m.append("""

                    ![Speed-up over BouncyCastle against message size](speedup.png)

                    ![Usage patterns: speed-up over BouncyCastle](patterns.png)
                    """);
        }
        int threads = points.values().stream().mapToInt(Point::threads).max().orElse(1);
        if (threads > 1) {
            m.append("""

                    ## From 1 to %1$d threads

                    State per thread. JMH times each thread, so a point's scaling is %1$d × its 1-thread median fork \
                    over its %1$d-thread one: %1$d where the threads never slow each other down.

                    | Point | implementation | scaling |
                    |---|---|--:|
                    """.formatted(threads));
            points.values().stream().filter(p -> p.threads() == threads).forEach(many -> point(many.benchmark(),
                    many.size(), many.implementation()).ifPresent(one -> row(m, one.benchmark() + " " + one.size(),
                    label(one.implementation()), fmt("%.2f", threads * one.median() / many.median()))));
        }
        m.append("""

                ## Every point

                Time per operation of the median fork and the range of the forks; allocation per operation from \
                `-prof gc`, the most of any round (it counts JMH's own allocation too, which shows in operations of \
                a millisecond or more); *× BC*: BouncyCastle's fork over this implementation's of the same round, \
                the median of the rounds (above 1, faster than BouncyCastle; the only ratio for the others, with \
                no target).

                | Benchmark | size | threads | implementation | forks | median fork, ns | forks, ns | × BC | B/op |
                |---|--:|--:|---|--:|--:|--:|--:|--:|
                """);
        List<String> order = Stream.concat(Stream.of(OURS, BC), competitors().stream()).toList();
        points.values().stream().sorted(Comparator.comparing(Point::benchmark)
                .thenComparingLong(p -> p.size().isEmpty() ? 0 : Long.parseLong(p.size()))
                .thenComparingInt(Point::threads).thenComparingInt(p -> order.indexOf(p.implementation())))
                .forEach(p -> row(m, p.benchmark(), p.size(), p.threads(), label(p.implementation()),
                        p.byRound().size(), ns(p.median()), p.range(), p.threads() > 1 || !order.contains(
                        p.implementation()) ? "" : or(ratio(p.benchmark(), p.size(), BC, p.implementation(), false),
                        "%.2f×"), Double.isNaN(p.bytesPerOp()) ? "—" : fmt("%.0f", p.bytesPerOp())));
        if (!openssl.isEmpty()) {
            m.append("\n`openssl speed -evp sm3`, ns per message, median (range) of its runs: ")
                    .append(openssl.entrySet().stream().map(e -> e.getKey() + " B "
                            + ns(openssl(e.getKey().toString()).orElseThrow()) + " ("
                            + ns(Collections.min(e.getValue())) + "–" + ns(Collections.max(e.getValue())) + ")")
                    .collect(Collectors.joining("; "))).append(".\n");
        }
        return m.toString();
    }

    private static void row(StringBuilder m, Object... cells) {
        m.append(Arrays.stream(cells).map(String::valueOf).collect(Collectors.joining(" | ", "| ", " |\n")));
    }

    /** The most forks any point has: the rounds run. */
    private int forks() {
        return points.values().stream().mapToInt(p -> p.byRound().size()).max().orElse(0);
    }

    /** The command, the machine and JMH's settings, as the first paragraph. */
    String header() {
        String jdk = settings.has("vmName") ? text("vmName") + " " + text("vmVersion") : "unrecorded";
        String how = !settings.has("forks") ? "" : fmt(" Forks per point: %d, each of %s × %s "
                + "warmup and %s × %s measured, average time per operation, JMH %s; fork JVM options `%s`.",
                forks(), text("warmupIterations"), text("warmupTime"), text("measurementIterations"),
                text("measurementTime"), text("jmhVersion"), String.join(" ",
                        settings.getAsJsonArray("jvmArgs").asList().stream().map(JsonElement::getAsString).toList()));
        return fmt("`%s` on %s. CPU: %s. Kernel: %s. JDK: %s. %s.%s",
                machine.getOrDefault("command", "bench/run"), machine.getOrDefault("date", "an unrecorded date"),
                machine.getOrDefault("cpu", "unrecorded"), machine.getOrDefault("kernel", "unrecorded"), jdk,
                machine.getOrDefault("openssl", "OpenSSL unrecorded"), how);
    }

    private String text(String field) {
        return settings.has(field) ? settings.get(field).getAsString() : "?";
    }

    /**
     * Speed-ups over BouncyCastle, a group of bars per row measured (the digest sizes', or the others'): sm3-ffm's
     * median and slowest round, each other implementation's median round, {@code openssl speed}'s; no bar where none.
     */
    void chart(Path file, String title, boolean digests) throws IOException {
        List<Row> measured = ROWS.stream().filter(r -> r.benchmark().equals(DIGEST) == digests
                && ratio(r.benchmark(), r.size(), BC, OURS, false).isPresent()).toList();
        if (measured.isEmpty()) {
            return;
        }
        String version = Arrays.stream(machine.getOrDefault("openssl", "OpenSSL ?").split(" ")).limit(2)
                .collect(Collectors.joining(" "));
        CategoryChart chart = new CategoryChartBuilder().width(1100).height(640).yAxisTitle("× BouncyCastle")
                .title(title + ": speed-up over BouncyCastle (1 = as fast)").xAxisTitle(fmt("%s; %s; JDK %s; "
                        + "rounds: %d", machine.getOrDefault("cpu", "CPU ?"), version, text("jdkVersion"), forks()))
                .build();
        // The legend below the plot, where it hides no bar; slanted labels, which a dozen groups leave no room for.
        chart.getStyler().setYAxisMin(0.0).setXAxisLabelRotation(30).setChartBackgroundColor(Color.WHITE)
                .setLegendPosition(Styler.LegendPosition.OutsideS).setLegendLayout(Styler.LegendLayout.Horizontal);
        Map<String, Function<Row, Optional<Double>>> series = new LinkedHashMap<>();
        series.put(label(OURS) + ", median round", r -> ratio(r.benchmark(), r.size(), BC, OURS, false));
        series.put(label(OURS) + ", slowest round", r -> ratio(r.benchmark(), r.size(), BC, OURS, true));
        competitors().forEach(o -> series.put(label(o) + ", median round",
                r -> ratio(r.benchmark(), r.size(), BC, o, false)));
        series.put("openssl speed", r -> point(r.benchmark(), r.size(), BC).filter(p -> p.benchmark().equals(DIGEST))
                .flatMap(bc -> openssl(r.size()).map(o -> bc.median() / o)));
        series.forEach((name, values) -> {
            List<Double> bars = measured.stream().map(r -> values.apply(r).orElse(0.0)).toList();
            if (bars.stream().anyMatch(v -> v > 0)) {
                chart.addSeries(name, measured.stream().map(Row::bar).toList(), bars);
            }
        });
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    static String label(String implementation) {
        return LABELS.getOrDefault(implementation, implementation);
    }

    /** The median of values in ascending order. */
    static double median(double[] sorted) {
        return (sorted[(sorted.length - 1) / 2] + sorted[sorted.length / 2]) / 2;
    }

    /** "≥ 1.25: met", or not met, or not measured; nothing where no target is set. */
    private static String verdict(Optional<Double> ratio, double target) {
        return Double.isNaN(target) ? "" : fmt("≥ %.2f: %s", target,
                ratio.map(r -> r >= target ? "met" : "**not met**").orElse("not measured"));
    }

    /** The value in {@code format}, or a dash where there is none. */
    private static String or(Optional<Double> value, String format) {
        return value.map(v -> fmt(format, v)).orElse("—");
    }

    static String ns(double ns) {
        return fmt(ns >= 100 ? "%,.0f" : "%.1f", ns);
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
