package io.github.sm3ffm.bench;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleBinaryOperator;
import java.util.function.ToDoubleFunction;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Speed ratios measured round by round. Each round of a run is one JMH fork per point (a few for a
 * {@link Settle}d one), the implementations side by side, with {@code openssl speed} just before its size:
 * within a round they share the state the host is in, which on this 2-core machine flips between speeds
 * about 1.45x apart within seconds. So a ratio is taken within each round (round mean against round mean)
 * and the report gives the median of those ratios with their lowest and highest: the flips cancel out
 * instead of widening an interval of absolute speeds.
 */
final class Ratios {
    /** The median of the per-round ratios, the lowest and the highest, and how many rounds gave one. */
    record Spread(double median, double low, double high, int rounds, double heapGrowth) {
        static final double STEADY = 2.0;
        /** MB/s: a 1 GB heap's old generation would reach G1's marking threshold (45%) within four minutes. */
        static final double GROWING = 2.0;

        /** A spread whose points' heap growth was not recorded. */
        Spread(double median, double low, double high, int rounds) {
            this(median, low, high, rounds, Double.NaN);
        }

        static Optional<Spread> of(List<Double> ratios, double heapGrowth) {
            if (ratios.isEmpty()) {
                return Optional.empty();
            }
            List<Double> sorted = ratios.stream().sorted().toList();
            int n = sorted.size();
            double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
            return Optional.of(new Spread(median, sorted.get(0), sorted.get(n - 1), n, heapGrowth));
        }

        /**
         * Whether the rounds agree closely enough for their median to stand for them: the highest round at most
         * {@value #STEADY} times the lowest. The host's flips cancel within a round, so a steady point's rounds
         * stay far inside that; a point wider than it has no steady state at this length of fork (a competitor
         * whose garbage and the collections it forces grow through the fork), and no number of rounds would pin
         * its median down to 10%. Nor does a point where either side's retained heap grows faster than
         * {@value #GROWING} MB/s ({@link HeapGrowthProfiler}): its time depends on how long the fork has run.
         */
        boolean steady() {
            return high <= STEADY * low && !growing();
        }

        /** Whether the heap either side retains after each collection grew faster than {@value #GROWING} MB/s. */
        boolean growing() {
            return heapGrowth > GROWING;
        }

        /** "1.69× (1.62–1.75)", or the median alone from a single round. */
        String text() {
            return rounds == 1 ? String.format(Locale.ROOT, "%.2f×", median)
                    : String.format(Locale.ROOT, "%.2f× (%.2f–%.2f)", median, low, high);
        }
    }

    /** Mean ns/op of each round, in round order, by point ("Class.method provider size"). */
    private final Map<String, List<Double>> roundMeans;
    /** The share of measured time the GC took ({@code -prof gc}'s {@code gc.time}), over all rounds, by point. */
    private final Map<String, Double> gcShare;
    /** The median over all forks of {@link HeapGrowthProfiler#METRIC} (MB/s), by point, where recorded. */
    private final Map<String, Double> heapGrowth;
    /** {@code openssl speed}'s mean ns per message in each round, by size. */
    private final Map<Integer, Map<Integer, Double>> ceiling;

    private Ratios(Map<String, List<Double>> roundMeans, Map<String, Double> gcShare, Map<String, Double> heapGrowth,
                   Map<Integer, Map<Integer, Double>> ceiling) {
        this.roundMeans = roundMeans;
        this.gcShare = gcShare;
        this.heapGrowth = heapGrowth;
        this.ceiling = ceiling;
    }

    static Ratios read(Path dir, RunRecord run) throws IOException {
        Map<String, List<Double>> roundMeans = new LinkedHashMap<>();
        Map<String, Double> gcShare = new LinkedHashMap<>();
        Map<String, Double> heapGrowth = new LinkedHashMap<>();
        for (JsonElement e : JsonParser.parseString(Files.readString(dir.resolve(Report.JMH_JSON))).getAsJsonArray()) {
            JsonObject o = e.getAsJsonObject();
            String name = o.get("benchmark").getAsString();
            String benchmark = name.substring(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1);
            JsonObject params = o.has("params") ? o.getAsJsonObject("params") : new JsonObject();
            List<Double> means = new ArrayList<>();
            JsonObject primary = o.getAsJsonObject("primaryMetric");
            if (!primary.has("rawData")) {
                // Only a score (a hand-written file): one round.
                means.add(primary.get("score").getAsDouble());
            }
            String size = params.has("size") ? params.get("size").getAsString() : null;
            // A settled point's round is several forks in a row: its time is their mean, over all their iterations.
            int perRound = run.forksPerRound(benchmark, size);
            JsonArray raw = primary.has("rawData") ? primary.getAsJsonArray("rawData") : new JsonArray();
            for (int first = 0; first + perRound <= raw.size(); first += perRound) {
                double sum = 0;
                int n = 0;
                for (int f = first; f < first + perRound; f++) {
                    for (JsonElement iteration : raw.get(f).getAsJsonArray()) {
                        sum += iteration.getAsDouble();
                        n++;
                    }
                }
                means.add(sum / n);
            }
            String key = key(benchmark, params.has("provider") ? params.get("provider").getAsString() : "", size);
            roundMeans.put(key, means);
            gcShare(o, raw).ifPresent(share -> gcShare.put(key, share));
            heapGrowth(o).ifPresent(growth -> heapGrowth.put(key, growth));
        }
        Map<Integer, Map<Integer, List<Double>>> samples = new LinkedHashMap<>();
        if (run.openssl() != null && run.openssl().samples() != null) {
            for (RunRecord.Sample s : run.openssl().samples()) {
                samples.computeIfAbsent(s.size(), k -> new LinkedHashMap<>())
                        .computeIfAbsent(s.round(), k -> new ArrayList<>()).add(s.size() / s.bytesPerSecond() * 1e9);
            }
        }
        Map<Integer, Map<Integer, Double>> ceiling = new LinkedHashMap<>();
        samples.forEach((size, rounds) -> rounds.forEach((round, ns) -> ceiling.computeIfAbsent(size,
                k -> new LinkedHashMap<>()).put(round, ns.stream().mapToDouble(Double::doubleValue).average().orElseThrow())));
        return new Ratios(roundMeans, gcShare, heapGrowth, ceiling);
    }

    /** {@code gc.time} (ms, summed over every iteration that collected) over the measured milliseconds. */
    private static Optional<Double> gcShare(JsonObject o, JsonArray raw) {
        JsonObject secondary = o.getAsJsonObject("secondaryMetrics");
        if (secondary == null || !secondary.has("gc.time") || !o.has("measurementTime") || raw.isEmpty()) {
            return Optional.empty();
        }
        double gcMillis = 0;
        JsonObject gc = secondary.getAsJsonObject("gc.time");
        for (JsonElement fork : gc.has("rawData") ? gc.getAsJsonArray("rawData") : new JsonArray()) {
            for (JsonElement iteration : fork.getAsJsonArray()) {
                gcMillis += iteration.getAsDouble();
            }
        }
        int iterations = 0;
        for (JsonElement fork : raw) {
            iterations += fork.getAsJsonArray().size();
        }
        // JMH writes the iteration time as its TimeValue ("200 ms"); microseconds keep sub-millisecond ones.
        double measured = iterations * TimeValue.fromString(o.get("measurementTime").getAsString())
                .convertTo(TimeUnit.MICROSECONDS) / 1000.0;
        return measured > 0 ? Optional.of(gcMillis / measured) : Optional.empty();
    }

    /** The median of the forks' {@link HeapGrowthProfiler#METRIC}, one value per fork that had one. */
    private static Optional<Double> heapGrowth(JsonObject o) {
        JsonObject secondary = o.getAsJsonObject("secondaryMetrics");
        if (secondary == null || !secondary.has(HeapGrowthProfiler.METRIC)) {
            return Optional.empty();
        }
        List<Double> forks = new ArrayList<>();
        JsonObject growth = secondary.getAsJsonObject(HeapGrowthProfiler.METRIC);
        for (JsonElement fork : growth.has("rawData") ? growth.getAsJsonArray("rawData") : new JsonArray()) {
            fork.getAsJsonArray().forEach(v -> forks.add(v.getAsDouble()));
        }
        return Spread.of(forks, Double.NaN).map(Spread::median);
    }

    /** How fast the heap one point retains after each collection grew (MB/s), if it was recorded. */
    Optional<Double> heapGrowth(String benchmark, String implementation, String size) {
        return Optional.ofNullable(heapGrowth.get(key(benchmark, implementation, size)));
    }

    /** The share of the measured time that went to the GC at one point, if JMH's gc profiler recorded it. */
    Optional<Double> gcShare(String benchmark, String implementation, String size) {
        return Optional.ofNullable(gcShare.get(key(benchmark, implementation, size)));
    }

    private static String key(String benchmark, String implementation, String size) {
        return benchmark + " " + implementation + " " + Objects.toString(size, "");
    }

    /**
     * How many times faster {@code implementation} is than {@code other} at one point of {@code benchmark}
     * (a size, or null), round by round.
     */
    Optional<Spread> speedup(String benchmark, String size, String implementation, String other) {
        return speedup(benchmark, implementation, benchmark, other, size);
    }

    /** The same for two benchmark methods that measure two implementations without a provider parameter. */
    Optional<Spread> speedup(String benchmark, String implementation, String otherBenchmark, String other,
                             String size) {
        return combine(t -> t[1] / t[0], new String[] {benchmark, implementation, size},
                new String[] {otherBenchmark, other, size});
    }

    /**
     * {@code f} of several points' times in every round that has them all; each point is {benchmark,
     * implementation ("" for none), size (or null)}, and {@code f} gets their ns/op in that order.
     */
    Optional<Spread> combine(ToDoubleFunction<double[]> f, String[]... points) {
        List<List<Double>> series = new ArrayList<>();
        double growth = Double.NaN;
        for (String[] p : points) {
            List<Double> times = roundMeans.get(key(p[0], p[1], p[2]));
            if (times == null) {
                return Optional.empty();
            }
            series.add(times);
            growth = fastest(growth, heapGrowth.get(key(p[0], p[1], p[2])));
        }
        int rounds = series.stream().mapToInt(List::size).min().orElse(0);
        List<Double> values = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            double[] t = new double[series.size()];
            for (int i = 0; i < t.length; i++) {
                t[i] = series.get(i).get(round);
            }
            values.add(f.applyAsDouble(t));
        }
        return Spread.of(values, growth);
    }

    /** The larger of two growths, either of which may be unrecorded (NaN or null). */
    private static double fastest(double growth, Double other) {
        return other == null || other.isNaN() ? growth : Double.isNaN(growth) ? other : Math.max(growth, other);
    }

    /** {@code implementation}'s speed as a fraction of {@code openssl speed}'s at {@code size}, round by round. */
    Optional<Spread> ofCeiling(String benchmark, String size, String implementation) {
        return withCeiling(benchmark, size, implementation, (ceilingNs, ns) -> ceilingNs / ns);
    }

    /** {@code openssl speed}'s speed over {@code other}'s at {@code size}: the ceiling as a speed-up. */
    Optional<Spread> ceilingOver(String benchmark, String size, String other) {
        return withCeiling(benchmark, size, other, (ceilingNs, ns) -> ns / ceilingNs);
    }

    /** {@code ratio(ceiling ns, implementation ns)} in every round that has both. */
    private Optional<Spread> withCeiling(String benchmark, String size, String implementation,
                                         DoubleBinaryOperator ratio) {
        List<Double> times = roundMeans.get(key(benchmark, implementation, size));
        Map<Integer, Double> c = ceiling.get(Integer.valueOf(size));
        if (times == null || c == null) {
            return Optional.empty();
        }
        List<Double> ratios = new ArrayList<>();
        for (int round = 0; round < times.size(); round++) {
            Double ns = c.get(round + 1);
            if (ns != null) {
                ratios.add(ratio.applyAsDouble(ns, times.get(round)));
            }
        }
        return Spread.of(ratios, fastest(Double.NaN, heapGrowth.get(key(benchmark, implementation, size))));
    }
}
