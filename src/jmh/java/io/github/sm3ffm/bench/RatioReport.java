package io.github.sm3ffm.bench;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.knowm.xchart.style.theme.XChartTheme;

/**
 * The headline of a run, as ratios (see {@link Ratios}): sm3-ffm's speed-up over each competitor and its
 * fraction of the native ceiling by message size, the usage patterns at 64 bytes, and two charts of them.
 * {@code RatioReport --compare DIR1 DIR2} checks that two runs agree on every headline ratio within 10%.
 */
final class RatioReport {
    static final String SPEEDUP_CHART = "speedup.png";
    static final String PATTERNS_CHART = "patterns.png";
    static final String DIGEST = "DigestBenchmark.digest";
    static final List<String> SIZES = List.of("16", "64", "256", "1024", "8192", "65536", "1048576");
    /** Competitors in the order the tables show them; extra jars' providers follow. */
    static final List<String> COMPETITORS = List.of(Providers.BC, Providers.KONA, Providers.KONA_NATIVE,
            Providers.GLASSLESS);

    /**
     * One usage pattern: a benchmark point measured for each implementation (or two methods, no provider).
     * {@code bar} names it under the chart's bars, short enough that ten of them fit side by side.
     */
    record Pattern(String label, String bar, String benchmark, String size, String competitorBenchmark) {
        /** Ours against {@code other}: the same method for both, or (HKDF) one method each. */
        Optional<Ratios.Spread> speedup(Ratios r, String implementation, String other) {
            if (competitorBenchmark == null) {
                return r.speedup(benchmark, size, implementation, other);
            }
            return other.equals(Providers.BC) && implementation.equals(Providers.SM3FFM)
                    ? r.speedup(benchmark, "", competitorBenchmark, "", size) : Optional.empty();
        }

        /** The share of {@code implementation}'s measured time that went to the GC at this pattern. */
        Optional<Double> gcShare(Ratios r, String implementation) {
            return competitorBenchmark == null ? r.gcShare(benchmark, implementation, size)
                    : r.gcShare(implementation.equals(Providers.SM3FFM) ? benchmark : competitorBenchmark, "", size);
        }

        /** How fast the heap {@code implementation} retains after each collection grew at this pattern. */
        Optional<Double> heapGrowth(Ratios r, String implementation) {
            return competitorBenchmark == null ? r.heapGrowth(benchmark, implementation, size)
                    : r.heapGrowth(implementation.equals(Providers.SM3FFM) ? benchmark : competitorBenchmark, "", size);
        }
    }

    static final List<Pattern> PATTERNS = List.of(
            new Pattern("reused MessageDigest, 64 B", "reused digest", "CallPatternBenchmark.reusedDigest", "64", null),
            new Pattern("new MessageDigest per 64 B message", "new digest", "CallPatternBenchmark.newDigest", "64", null),
            new Pattern("clone-then-finish, 64 B", "clone 64 B", "PerMessageBenchmark.cloneThenFinish64B", null, null),
            new Pattern("clone-then-finish, 1061 B transcript", "clone 1061 B", "PerMessageBenchmark.cloneThenFinish1061B", null, null),
            new Pattern("update(byte) × 1 KiB", "update(byte)", "UpdateBenchmark.updateByte1KiB", null, null),
            new Pattern("HmacSM3, reused Mac, 64 B", "reused Mac", "CallPatternBenchmark.reusedMac", "64", null),
            new Pattern("HmacSM3, new Mac + init per 64 B", "new Mac", "CallPatternBenchmark.newMac", "64", null),
            new Pattern("PBKDF2WithHmacSM3, 10,000 iterations", "PBKDF2", "Pbkdf2Benchmark.derive", null, null),
            new Pattern("HKDF-SM3 extract-then-expand, 32 B", "HKDF 32 B", "HkdfBenchmark.sm3ffm", "32", "HkdfBenchmark.bouncyCastle"),
            new Pattern("HKDF-SM3 extract-then-expand, 64 B", "HKDF 64 B", "HkdfBenchmark.sm3ffm", "64", "HkdfBenchmark.bouncyCastle"));

    private final Ratios ratios;
    private final List<String> competitors;

    RatioReport(Ratios ratios, List<String> implementations) {
        this.ratios = ratios;
        List<String> c = new ArrayList<>(COMPETITORS);
        implementations.stream().filter(i -> !c.contains(i) && !i.equals(Providers.SM3FFM)).forEach(c::add);
        this.competitors = c.stream().filter(implementations::contains).toList();
    }

    /** Every ratio of the tables by name, for comparing two runs (where those with no steady state are no headline). */
    Map<String, Ratios.Spread> headlines() {
        Map<String, Ratios.Spread> h = new LinkedHashMap<>();
        for (String size : SIZES) {
            for (String other : competitors) {
                ratios.speedup(DIGEST, size, Providers.SM3FFM, other)
                        .ifPresent(s -> h.put("digest " + Report.bytesLabel(size) + " over " + label(other), s));
            }
            ratios.ofCeiling(DIGEST, size, Providers.SM3FFM)
                    .ifPresent(s -> h.put("digest " + Report.bytesLabel(size) + " of openssl speed", s));
        }
        for (Pattern p : PATTERNS) {
            for (String other : competitors) {
                p.speedup(ratios, Providers.SM3FFM, other).ifPresent(s -> h.put(p.label() + " over " + label(other), s));
            }
        }
        return h;
    }

    private static String label(String implementation) {
        return Report.label(implementation);
    }

    /** Speed-up by message size: one column per competitor, and the fraction of the ceiling. */
    String sizeTable() {
        StringBuilder t = new StringBuilder("| Message | ");
        competitors.forEach(c -> t.append("× ").append(label(c)).append(" | "));
        t.append("of `openssl speed` |\n|---|").append("--:|".repeat(competitors.size() + 1)).append('\n');
        List<String> unsteady = new ArrayList<>();
        for (String size : SIZES) {
            t.append("| ").append(Report.bytesLabel(size)).append(" | ");
            for (String other : competitors) {
                t.append(cell(ratios.speedup(DIGEST, size, Providers.SM3FFM, other), "digest "
                        + Report.bytesLabel(size), other, impl -> ratios.gcShare(DIGEST, impl, size),
                        impl -> ratios.heapGrowth(DIGEST, impl, size), unsteady)).append(" | ");
            }
            t.append(ratios.ofCeiling(DIGEST, size, Providers.SM3FFM).map(Ratios.Spread::text).orElse("—"))
                    .append(" |\n");
        }
        return t + unsteadyNote(unsteady);
    }

    /**
     * A table cell: the spread, or a dash. A ratio with no steady state keeps its figures, so nothing is
     * hidden, but is marked and explained under the table with the GC's share of each side's measured time
     * and, where it grew too fast, how fast each side's retained heap grew.
     */
    private static String cell(Optional<Ratios.Spread> ratio, String what, String other,
                               Function<String, Optional<Double>> gcShare,
                               Function<String, Optional<Double>> heapGrowth, List<String> unsteady) {
        if (ratio.isEmpty()) {
            return "—";
        }
        if (ratio.get().steady()) {
            return ratio.get().text();
        }
        String growth = !ratio.get().growing() ? "" : String.format(Locale.ROOT, "; the heap it retains after each "
                + "collection grew %s, sm3-ffm's %s", megabytes(heapGrowth.apply(other)),
                megabytes(heapGrowth.apply(Providers.SM3FFM)));
        unsteady.add(String.format(Locale.ROOT, "%s over %s: the GC took %s of its measured time, against %s of "
                + "sm3-ffm's%s", what, label(other), percent(gcShare.apply(other)),
                percent(gcShare.apply(Providers.SM3FFM)), growth));
        return ratio.get().text() + " †";
    }

    private static String percent(Optional<Double> share) {
        return share.map(s -> String.format(Locale.ROOT, "%.0f%%", 100 * s)).orElse("an unrecorded share");
    }

    private static String megabytes(Optional<Double> growth) {
        return growth.map(g -> String.format(Locale.ROOT, "%.1f MB/s", g)).orElse("unrecorded (too few collections)");
    }

    private static String unsteadyNote(List<String> unsteady) {
        if (unsteady.isEmpty()) {
            return "";
        }
        StringBuilder n = new StringBuilder(String.format(Locale.ROOT, "\n† No steady state: the highest round is more "
                + "than %.0f times the lowest, or the heap one side retains after each collection grew faster than "
                + "%.0f MB/s through its forks (memory freed through the GC piling up, so its time depends on how "
                + "long the fork has run). No median stands for such rounds and this is not a headline ratio "
                + "(two runs are not compared on it).\n", Ratios.Spread.STEADY, Ratios.Spread.GROWING));
        unsteady.forEach(u -> n.append("- ").append(u).append('\n'));
        return n.toString();
    }

    /** Speed-up by usage pattern: one column per competitor; a dash where it does not offer the service. */
    String patternTable() {
        StringBuilder t = new StringBuilder("| Pattern | ");
        competitors.forEach(c -> t.append("× ").append(label(c)).append(" | "));
        t.append("\n|---|").append("--:|".repeat(competitors.size())).append('\n');
        List<String> unsteady = new ArrayList<>();
        for (Pattern p : PATTERNS) {
            t.append("| ").append(p.label()).append(" | ");
            for (String other : competitors) {
                t.append(cell(p.speedup(ratios, Providers.SM3FFM, other), p.label(), other,
                        impl -> p.gcShare(ratios, impl), impl -> p.heapGrowth(ratios, impl), unsteady)).append(" | ");
            }
            t.append('\n');
        }
        return t + unsteadyNote(unsteady);
    }

    /** Speed-up over BouncyCastle against message size: every implementation, and the ceiling as a line. */
    void speedupChart(Path file, String note) throws IOException {
        String axis = "message size (bytes, log scale); " + note;
        XYChart chart = new XYChartBuilder().width(widthFor(axis, 1000)).height(620)
                .title("SM3, whole message with a reused MessageDigest: speed-up over BouncyCastle")
                .xAxisTitle(axis)
                .yAxisTitle("× BouncyCastle (median of rounds, bars: lowest to highest)").build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setXAxisDecimalPattern("#,###");
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setErrorBarsColorSeriesColor(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        List<String> lines = new ArrayList<>(List.of(Providers.SM3FFM));
        competitors.stream().filter(c -> !c.equals(Providers.BC)).forEach(lines::add);
        for (String impl : lines) {
            series(chart, label(impl), size -> ratios.speedup(DIGEST, size, impl, Providers.BC),
                    impl.equals(Providers.SM3FFM) ? 3f : 1.8f);
        }
        XYSeries ceiling = series(chart, Report.label(Report.CEILING),
                size -> ratios.ceilingOver(DIGEST, size, Providers.BC), 1.8f);
        if (ceiling != null) {
            ceiling.setLineColor(Color.BLACK);
            ceiling.setMarkerColor(Color.BLACK);
        }
        if (chart.getSeriesMap().isEmpty()) {
            return;
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /**
     * A chart's width, at least {@code least} and enough for its x-axis title on one line: XChart neither wraps
     * nor shrinks an axis title, it cuts off both ends, and that title is the chart's note on how it was run. The
     * margin covers the y axis, as the title is centred on the plot. Both charts keep XChart's default theme.
     */
    static int widthFor(String axisTitle, int least) {
        Font font = new XChartTheme().getAxisTitleFont();
        Graphics2D g = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB).createGraphics();
        try {
            return Math.max(least, g.getFontMetrics(font).stringWidth(axisTitle) + 120);
        } finally {
            g.dispose();
        }
    }

    private interface BySize {
        Optional<Ratios.Spread> at(String size);
    }

    private static XYSeries series(XYChart chart, String name, BySize values, float width) {
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        List<Double> err = new ArrayList<>();
        for (String size : SIZES) {
            values.at(size).ifPresent(s -> {
                x.add(Double.valueOf(size));
                y.add(s.median());
                // Symmetric bars: the larger distance from the median to the lowest or highest round.
                err.add(Math.max(s.median() - s.low(), s.high() - s.median()));
            });
        }
        if (x.isEmpty()) {
            return null;
        }
        XYSeries s = chart.addSeries(name, x, y, err);
        s.setMarker(SeriesMarkers.CIRCLE);
        s.setLineWidth(width);
        return s;
    }

    /** The usage patterns: one group of bars per pattern, one bar per implementation, over BouncyCastle. */
    void patternsChart(Path file, String note) throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(widthFor(note, 1100)).height(640)
                .title("Usage patterns: speed-up over BouncyCastle (1 = as fast)")
                .xAxisTitle(note).yAxisTitle("× BouncyCastle (median of rounds)").build();
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        chart.getStyler().setYAxisMin(0.0);
        List<String> labels = PATTERNS.stream().map(Pattern::bar).toList();
        List<String> bars = new ArrayList<>(List.of(Providers.SM3FFM));
        competitors.stream().filter(c -> !c.equals(Providers.BC)).forEach(bars::add);
        for (String impl : bars) {
            List<Double> values = new ArrayList<>();
            boolean any = false;
            for (Pattern p : PATTERNS) {
                Optional<Ratios.Spread> s = p.speedup(ratios, impl, Providers.BC);
                values.add(s.map(Ratios.Spread::median).orElse(0.0));
                any |= s.isPresent();
            }
            if (any) {
                chart.addSeries(label(impl), labels, values);
            }
        }
        if (chart.getSeriesMap().isEmpty()) {
            return;
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /**
     * Each ratio of two runs side by side, and whether they agree within 10%. A ratio with no steady state in
     * either run ({@link Ratios.Spread#steady}) is shown but is no headline: its median moves with whichever
     * rounds it happened to get.
     */
    static String compare(Map<String, Ratios.Spread> first, Map<String, Ratios.Spread> second) {
        StringBuilder t = new StringBuilder("| Ratio | First run | Second run | Second ÷ first |\n|---|--:|--:|--:|\n");
        int disagree = 0;
        int alone = 0;
        int unsteady = 0;
        Set<String> names = new LinkedHashSet<>(first.keySet());
        names.addAll(second.keySet());
        for (String name : names) {
            Ratios.Spread one = first.get(name);
            Ratios.Spread other = second.get(name);
            if (one == null || other == null) {
                // A point that failed or was not run in one of them: it cannot be said to agree.
                alone++;
                t.append(String.format(Locale.ROOT, "| %s | %s | %s | **in one run only** |%n", name,
                        one == null ? "—" : one.text(), other == null ? "—" : other.text()));
                continue;
            }
            double change = other.median() / one.median();
            if (!one.steady() || !other.steady()) {
                unsteady++;
                t.append(String.format(Locale.ROOT, "| %s | %s | %s | %.3f, no steady state |%n", name, one.text(),
                        other.text(), change));
                continue;
            }
            boolean within = Math.abs(change - 1) <= 0.10;
            disagree += within ? 0 : 1;
            t.append(String.format(Locale.ROOT, "| %s | %s | %s | %.3f%s |%n", name, one.text(), other.text(), change,
                    within ? "" : " **outside ±10%**"));
        }
        List<String> verdict = new ArrayList<>();
        if (disagree == 0 && alone == 0) {
            verdict.add("Every headline ratio agrees within ±10%.");
        }
        if (disagree > 0) {
            verdict.add(disagree + " headline ratio(s) differ by more than 10%.");
        }
        if (alone > 0) {
            verdict.add(alone + " headline ratio(s) measured in one run only.");
        }
        if (unsteady > 0) {
            verdict.add(String.format(Locale.ROOT, "%d ratio(s) with no steady state in a run (highest round more "
                    + "than %.0f times the lowest, or a retained heap growing faster than %.0f MB/s) are not headline "
                    + "ratios.", unsteady, Ratios.Spread.STEADY, Ratios.Spread.GROWING));
        }
        return t + "\n" + String.join(" ", verdict) + "\n";
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 3 || !args[0].equals("--compare")) {
            throw new IllegalArgumentException("usage: RatioReport --compare DIR1 DIR2");
        }
        System.out.print(compare(Report.read(Path.of(args[1])).ratioReport().headlines(),
                Report.read(Path.of(args[2])).ratioReport().headlines()));
    }
}
