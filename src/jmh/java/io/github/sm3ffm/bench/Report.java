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
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Turns what {@code bench/run} leaves in a directory into ratio tables (Markdown, also printed) and two
 * charts: JMH's JSON results ({@code -rf json}, one file per group of benchmarks), the output of
 * {@code openssl speed -mr} ({@value #OPENSSL}) and the machine's description ({@value #MACHINE}).
 * Usage: {@code Report RESULTS_DIR MARKDOWN_FILE [CHART_DIR]}.
 *
 * <p>A fork's figure is the mean of its measured iterations. The speed-up over BouncyCastle is BouncyCastle's
 * time over sm3-ffm's, so above 1 means sm3-ffm is faster, taken two ways: BouncyCastle's median fork over
 * sm3-ffm's slowest fork (what a service gets in its unluckiest JVM, and what a target is judged on), and
 * median fork over median fork.
 */
public final class Report {
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
     * A headline point: its benchmark and size, the least speed-up over BouncyCastle its slowest sm3-ffm fork
     * must reach and the least fraction of {@code openssl speed} (NaN: none), and its name under the patterns
     * chart's bars (null: a digest size, on the other chart).
     */
    record Row(String label, String benchmark, String size, double target, double ofOpenssl, String bar) {
        static Row digest(String size, String label, double target, double ofOpenssl) {
            return new Row("reused MessageDigest, " + label, DIGEST, size, target, ofOpenssl, null);
        }

        static Row pattern(String bar, String label, String benchmark, String size, double target) {
            return new Row(label, benchmark, size, target, NONE, bar);
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
            Row.pattern("new digest 16 B", "new MessageDigest per 16 B message", NEW_DIGEST, "16", 1.15),
            Row.pattern("new digest 64 B", "new MessageDigest per 64 B message", NEW_DIGEST, "64", 1.2),
            Row.pattern("clone 64 B", "clone-then-finish, 64 B appended", CLONE + "64B", "", NONE),
            Row.pattern("clone 1061 B", "clone-then-finish, 1061 B transcript", CLONE + "1061B", "", 1.05),
            Row.pattern("update(byte)", "update(byte) × 1 KiB", "UpdateBenchmark.updateByte1KiB", "", NONE),
            Row.pattern("reused Mac", "HmacSM3, reused Mac, 64 B", "CallPatternBenchmark.reusedMac", "64", 1.3),
            Row.pattern("new Mac", "HmacSM3, new Mac per 64 B message", "CallPatternBenchmark.newMac", "64", 1.3),
            Row.pattern("HKDF 32 B", "HKDF-SM3 extract-then-expand to 32 B", HKDF, "32", 1.3),
            Row.pattern("HKDF 64 B", "HKDF-SM3 extract-then-expand to 64 B", HKDF, "64", 1.3),
            Row.pattern("PBKDF2 10,000 it.", "PBKDF2WithHmacSM3, 10,000 iterations", "Pbkdf2Benchmark.derive", "", NONE));

    private static final Map<String, String> LABELS = Map.of(OURS, "sm3-ffm", BC, "BouncyCastle",
            Providers.KONA, "Kona, pure Java", Providers.KONA_NATIVE, "Kona, OpenSSL over JNI", "", "—");

    /** One implementation at one benchmark and size: each fork's mean time (ns/op), sorted, and the allocation. */
    record Point(String benchmark, String size, String implementation, double[] forks, double bytesPerOp) {
        Point {
            forks = forks.clone();
            Arrays.sort(forks);
        }

        double median() {
            return Report.median(forks);
        }

        double slowest() {
            return forks[forks.length - 1];
        }

        /** "fastest–slowest" fork, or the one fork's time. */
        String range() {
            return forks.length == 1 ? ns(forks[0]) : ns(forks[0]) + "–" + ns(slowest());
        }
    }

    private final Map<String, Point> points = new LinkedHashMap<>();
    /** ns per message of each {@code openssl speed} run, by message size. */
    private final Map<Long, List<Double>> openssl;
    private final Map<String, String> machine;
    /** The first JMH entry, for the settings every entry shares. */
    private final JsonObject settings;

    Report(List<Point> points, Map<Long, List<Double>> openssl, Map<String, String> machine, JsonObject settings) {
        points.forEach(p -> this.points.put(key(p.benchmark(), p.size(), p.implementation()), p));
        this.openssl = openssl;
        this.machine = machine;
        this.settings = settings;
    }

    public static void main(String[] args) throws IOException {
        Report report = read(Path.of(args[0]));
        String markdown = report.markdown(args.length > 2);
        Files.writeString(Path.of(args[1]), markdown);
        System.out.print(markdown);
        if (args.length > 2) {
            report.speedupChart(Path.of(args[2], "speedup.png"));
            report.patternsChart(Path.of(args[2], "patterns.png"));
        }
    }

    static Report read(Path dir) throws IOException {
        List<JsonObject> entries = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                JsonParser.parseString(Files.readString(file)).getAsJsonArray()
                        .forEach(e -> entries.add(e.getAsJsonObject()));
            }
        }
        Path speed = dir.resolve(OPENSSL);
        Path machine = dir.resolve(MACHINE);
        return new Report(entries.stream().map(Report::point).toList(),
                Files.exists(speed) ? parseOpenssl(Files.readString(speed)) : Map.of(),
                Files.exists(machine) ? parseMachine(Files.readString(machine)) : Map.of(),
                entries.isEmpty() ? new JsonObject() : entries.get(0));
    }

    /** One entry of JMH's JSON, whose {@code primaryMetric.rawData} holds each fork's iterations. */
    static Point point(JsonObject o) {
        String name = o.get("benchmark").getAsString();
        String benchmark = name.substring(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1);
        JsonObject params = o.has("params") ? o.getAsJsonObject("params") : new JsonObject();
        JsonArray raw = o.getAsJsonObject("primaryMetric").getAsJsonArray("rawData");
        double[] forks = raw.asList().stream().mapToDouble(fork -> fork.getAsJsonArray().asList().stream()
                .mapToDouble(JsonElement::getAsDouble).average().orElseThrow()).toArray();
        JsonObject secondary = o.has("secondaryMetrics") ? o.getAsJsonObject("secondaryMetrics") : new JsonObject();
        JsonElement alloc = secondary.has("gc.alloc.rate.norm")
                ? secondary.getAsJsonObject("gc.alloc.rate.norm").get("score") : null;
        return new Point(benchmark, params.has("size") ? params.get("size").getAsString() : "",
                params.has("provider") ? params.get("provider").getAsString() : "", forks,
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

    private static String key(String benchmark, String size, String implementation) {
        return benchmark + " " + size + " " + implementation;
    }

    Optional<Point> point(String benchmark, String size, String implementation) {
        return Optional.ofNullable(points.get(key(benchmark, size, implementation)));
    }

    /** sm3-ffm's speed-up over {@code other}: their median fork over our slowest fork, or over our median. */
    Optional<Double> speedup(String benchmark, String size, String other, boolean slowest) {
        return point(benchmark, size, other).flatMap(o -> point(benchmark, size, OURS)
                .map(p -> o.median() / (slowest ? p.slowest() : p.median())));
    }

    /** {@code openssl speed}'s median time over sm3-ffm's reused digest's: the fraction of its speed reached. */
    Optional<Double> ofOpenssl(String size, boolean slowest) {
        List<Double> runs = size.isEmpty() ? null : openssl.get(Long.valueOf(size));
        return runs == null ? Optional.empty() : point(DIGEST, size, OURS).map(p -> median(
                runs.stream().mapToDouble(Double::doubleValue).toArray()) / (slowest ? p.slowest() : p.median()));
    }

    /** The implementations measured other than sm3-ffm and BouncyCastle, in the order they ran. */
    List<String> competitors() {
        Set<String> all = new LinkedHashSet<>();
        points.values().forEach(p -> all.add(p.implementation()));
        all.removeAll(List.of(OURS, BC, ""));
        return List.copyOf(all);
    }

    String markdown() {
        return markdown(false);
    }

    /** The tables, and with {@code charts} the two charts written beside them. */
    String markdown(boolean charts) {
        StringBuilder m = new StringBuilder("# sm3-ffm benchmarks\n\n").append(header()).append("\n\n");
        m.append("""
                ## Against BouncyCastle

                Speed-up over BouncyCastle: BouncyCastle's time over sm3-ffm's (above 1, sm3-ffm is faster). \
                *Slowest fork* sets BouncyCastle's median fork against sm3-ffm's slowest fork, and the target is \
                judged on it; *median* sets median fork against median fork. *Spread*: sm3-ffm's slowest fork over \
                its fastest (at most %.2f). *Of openssl speed*: `openssl speed -evp sm3`'s time at that size \
                (median of its runs) over sm3-ffm's, slowest fork / median.

                | Point | sm3-ffm forks, ns | BouncyCastle forks, ns | × BC, slowest fork | × BC, median | target \
                | spread | of openssl speed |
                |---|--:|--:|--:|--:|---|--:|--:|
                """.formatted(SPREAD));
        for (Row r : ROWS) {
            Optional<Point> ours = point(r.benchmark(), r.size(), OURS);
            Optional<Point> bc = point(r.benchmark(), r.size(), BC);
            if (ours.isEmpty() && bc.isEmpty()) {
                continue;
            }
            Optional<Double> worst = speedup(r.benchmark(), r.size(), BC, true);
            String spread = ours.map(p -> p.slowest() / p.forks()[0])
                    .map(s -> String.format(Locale.ROOT, s > SPREAD ? "**%.2f**" : "%.2f", s)).orElse("—");
            String ceiling = !r.benchmark().equals(DIGEST) ? "" : or(ofOpenssl(r.size(), true), Report::fraction)
                    + " / " + or(ofOpenssl(r.size(), false), Report::fraction) + (Double.isNaN(r.ofOpenssl()) ? ""
                    : " (" + verdict(ofOpenssl(r.size(), true), r.ofOpenssl()) + ")");
            m.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s |%n", r.label(),
                    or(ours, Point::range), or(bc, Point::range), or(worst, Report::times),
                    or(speedup(r.benchmark(), r.size(), BC, false), Report::times),
                    Double.isNaN(r.target()) ? "" : verdict(worst, r.target()), spread, ceiling));
        }
        if (charts) {
            m.append("""

                    ![Speed-up over BouncyCastle against message size](speedup.png)

                    ![Usage patterns: speed-up over BouncyCastle](patterns.png)
                    """);
        }
        if (!competitors().isEmpty()) {
            m.append("""

                    ## Against the other implementations

                    The same ratios over each, with its own fork range; no target is set against them.

                    | Point | implementation | its forks, ns | × it, slowest sm3-ffm fork | × it, median |
                    |---|---|--:|--:|--:|
                    """);
            for (Row r : ROWS) {
                for (String other : competitors()) {
                    point(r.benchmark(), r.size(), other).ifPresent(o -> m.append(String.format(Locale.ROOT,
                            "| %s | %s | %s | %s | %s |%n", r.label(), label(other), o.range(),
                            or(speedup(r.benchmark(), r.size(), other, true), Report::times),
                            or(speedup(r.benchmark(), r.size(), other, false), Report::times))));
                }
            }
        }
        m.append("""

                ## Every point

                Time per operation of the median fork and the range of the forks; allocation per operation from \
                `-prof gc` (which counts JMH's own allocation too: it shows in operations of a millisecond or more).

                | Benchmark | size | implementation | forks | median fork, ns | forks, ns | B/op |
                |---|--:|---|--:|--:|--:|--:|
                """);
        List<String> order = new ArrayList<>(List.of(OURS, BC));
        order.addAll(competitors());
        for (Point p : points.values().stream().sorted(Comparator.comparing(Point::benchmark)
                .thenComparingLong(p -> p.size().isEmpty() ? 0 : Long.parseLong(p.size()))
                .thenComparingInt(p -> order.indexOf(p.implementation()))).toList()) {
            m.append(String.format(Locale.ROOT, "| %s | %s | %s | %d | %s | %s | %s |%n", p.benchmark(), p.size(),
                    label(p.implementation()), p.forks().length, ns(p.median()), p.range(),
                    Double.isNaN(p.bytesPerOp()) ? "—" : String.format(Locale.ROOT, "%.0f", p.bytesPerOp())));
        }
        if (!openssl.isEmpty()) {
            List<String> sizes = new ArrayList<>();
            openssl.forEach((size, runs) -> {
                double[] ns = runs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
                sizes.add(size + " B " + ns(median(ns)) + " (" + ns(ns[0]) + "–" + ns(ns[ns.length - 1]) + ")");
            });
            m.append("\n`openssl speed -evp sm3`, ns per message, median (range) of its runs: ")
                    .append(String.join("; ", sizes)).append(".\n");
        }
        return m.toString();
    }

    /** The command, the machine and JMH's settings, as the first paragraph. */
    String header() {
        String jdk = settings.has("vmName") ? text("vmName") + " " + text("vmVersion") : "unrecorded";
        String how = !settings.has("forks") ? "" : String.format(Locale.ROOT, " Forks per point: %s, each of %s × %s "
                + "warmup and %s × %s measured, average time per operation, JMH %s; fork JVM options `%s`.",
                text("forks"), text("warmupIterations"), text("warmupTime"), text("measurementIterations"),
                text("measurementTime"), text("jmhVersion"), String.join(" ",
                        settings.getAsJsonArray("jvmArgs").asList().stream().map(JsonElement::getAsString).toList()));
        return String.format(Locale.ROOT, "`%s` on %s. CPU: %s. Kernel: %s. JDK: %s. %s.%s",
                machine.getOrDefault("command", "bench/run"), machine.getOrDefault("date", "an unrecorded date"),
                machine.getOrDefault("cpu", "unrecorded"), machine.getOrDefault("kernel", "unrecorded"), jdk,
                machine.getOrDefault("openssl", "OpenSSL unrecorded"), how);
    }

    private String text(String field) {
        return settings.has(field) ? settings.get(field).getAsString() : "?";
    }

    /** One line naming the machine, under each chart. */
    private String chartNote() {
        String[] openssl = machine.getOrDefault("openssl", "OpenSSL ?").split(" ");
        return String.format(Locale.ROOT, "%s; %s; JDK %s; forks per point: %s", machine.getOrDefault("cpu", "CPU ?"),
                String.join(" ", Arrays.asList(openssl).subList(0, Math.min(2, openssl.length))), text("jdkVersion"),
                text("forks"));
    }

    /** Speed-up over BouncyCastle by message size: each implementation's median, sm3-ffm's slowest fork, openssl. */
    void speedupChart(Path file) throws IOException {
        XYChart chart = new XYChartBuilder().width(1100).height(640)
                .title("SM3, reused MessageDigest: speed-up over BouncyCastle (1 = as fast)")
                .xAxisTitle("message size, bytes (log scale). " + chartNote()).yAxisTitle("× BouncyCastle").build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setXAxisDecimalPattern("#,###");
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        List<String> sizes = points.values().stream().filter(p -> p.benchmark().equals(DIGEST)).map(Point::size)
                .distinct().sorted(Comparator.comparingLong(Long::parseLong)).toList();
        series(chart, label(OURS) + ", median fork", sizes, s -> speedup(DIGEST, s, BC, false), 3f);
        series(chart, label(OURS) + ", slowest fork", sizes, s -> speedup(DIGEST, s, BC, true), 1.5f);
        for (String other : competitors()) {
            series(chart, label(other) + ", median fork", sizes, s -> speedup(DIGEST, s, BC, false)
                    .flatMap(ours -> speedup(DIGEST, s, other, false).map(over -> ours / over)), 1.8f);
        }
        // BouncyCastle's time over openssl's: (BouncyCastle over ours) over (openssl over ours).
        XYSeries ceiling = series(chart, "openssl speed", sizes,
                s -> ofOpenssl(s, false).flatMap(f -> speedup(DIGEST, s, BC, false).map(x -> x / f)), 1.8f);
        if (ceiling != null) {
            ceiling.setLineColor(Color.BLACK);
            ceiling.setMarkerColor(Color.BLACK);
        }
        if (!chart.getSeriesMap().isEmpty()) {
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        }
    }

    private static XYSeries series(XYChart chart, String name, List<String> sizes,
                                   Function<String, Optional<Double>> values, float width) {
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        for (String size : sizes) {
            values.apply(size).ifPresent(v -> {
                x.add(Double.valueOf(size));
                y.add(v);
            });
        }
        if (x.isEmpty()) {
            return null;
        }
        XYSeries s = chart.addSeries(name, x, y);
        s.setMarker(SeriesMarkers.CIRCLE);
        s.setLineWidth(width);
        return s;
    }

    /** The usage patterns: a group of bars per pattern, a bar per implementation, over BouncyCastle. */
    void patternsChart(Path file) throws IOException {
        List<Row> rows = ROWS.stream().filter(r -> r.bar() != null && speedup(r.benchmark(), r.size(), BC, false)
                .isPresent()).toList();
        if (rows.isEmpty()) {
            return;
        }
        CategoryChart chart = new CategoryChartBuilder().width(1100).height(640)
                .title("Usage patterns: speed-up over BouncyCastle (1 = as fast)")
                .xAxisTitle(chartNote()).yAxisTitle("× BouncyCastle").build();
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        // Below the plot: inside it, the legend hid the tallest bars of the last groups.
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setYAxisMin(0.0);
        // Ten groups of up to four bars leave each label less room than its text: slanted, none overlaps.
        chart.getStyler().setXAxisLabelRotation(30);
        List<String> bars = rows.stream().map(Row::bar).toList();
        for (boolean slowest : new boolean[] {false, true}) {
            chart.addSeries(label(OURS) + (slowest ? ", slowest fork" : ", median fork"), bars, rows.stream()
                    .map(r -> speedup(r.benchmark(), r.size(), BC, slowest).orElseThrow()).toList());
        }
        for (String other : competitors()) {
            // (ours over BouncyCastle) over (ours over it); 0, no bar, where it was not measured.
            List<Double> values = rows.stream().map(r -> speedup(r.benchmark(), r.size(), other, false)
                    .map(over -> speedup(r.benchmark(), r.size(), BC, false).orElseThrow() / over).orElse(0.0))
                    .toList();
            if (values.stream().anyMatch(v -> v > 0)) {
                chart.addSeries(label(other) + ", median fork", bars, values);
            }
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    static String label(String implementation) {
        return LABELS.getOrDefault(implementation, implementation);
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** "≥ 1.25: met", or not met, or not measured. */
    private static String verdict(Optional<Double> ratio, double target) {
        return String.format(Locale.ROOT, "≥ %.2f: %s", target,
                ratio.map(r -> r >= target ? "met" : "**not met**").orElse("not measured"));
    }

    private static <T> String or(Optional<T> value, Function<T, String> format) {
        return value.map(format).orElse("—");
    }

    static String times(double ratio) {
        return String.format(Locale.ROOT, "%.2f×", ratio);
    }

    static String fraction(double ratio) {
        return String.format(Locale.ROOT, "%.2f", ratio);
    }

    static String ns(double ns) {
        return String.format(Locale.ROOT, ns >= 100 ? "%,.0f" : "%.1f", ns);
    }
}
