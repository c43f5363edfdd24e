package io.github.sm3ffm.bench;

import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.DoubleStream;
import java.util.stream.Stream;

/**
 * The table of {@code bench/run --threads}: each point at 1 and at N threads, from JMH's JSON files named
 * {@code t<threads>-<round>.json}, forks of all rounds together. JMH's average time at N threads is each
 * thread's time per operation, so N threads give N / time operations per unit, and the scaling of a point is
 * N x its 1-thread time / its N-thread time: N where the threads never slow each other down.
 */
public final class ThreadsReport {
    private ThreadsReport() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        // threads -> "benchmark provider" -> forks
        Map<Integer, Map<String, List<Double>>> forks = new TreeMap<>();
        Map<Integer, Map<String, List<Double>>> alloc = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.getFileName().toString().matches("t\\d+-\\d+\\.json")).toList()) {
                int threads = Integer.parseInt(file.getFileName().toString().replaceAll("t(\\d+)-.*", "$1"));
                JsonParser.parseString(Files.readString(file)).getAsJsonArray().forEach(e -> {
                    Report.Point p = Report.point(e.getAsJsonObject());
                    String key = p.benchmark() + " " + p.implementation();
                    DoubleStream.of(p.forks()).forEach(f -> forks.computeIfAbsent(threads, t -> new TreeMap<>())
                            .computeIfAbsent(key, k -> new ArrayList<>()).add(f));
                    alloc.computeIfAbsent(threads, t -> new TreeMap<>()).computeIfAbsent(key, k -> new ArrayList<>())
                            .add(p.bytesPerOp());
                });
            }
        }
        if (!forks.containsKey(1) || forks.size() < 2) {
            throw new IllegalArgumentException("no t1-*.json and t<N>-*.json results in " + dir);
        }
        StringBuilder out = new StringBuilder();
        for (int n : forks.keySet()) {
            if (n == 1) {
                continue;
            }
            out.append(String.format(Locale.ROOT, "| point | 1 thread: ns/op, forks (median) | %d threads: ns/op per "
                    + "thread, forks (median) | scaling of medians | B/op at 1 / %d |%n|---|--:|--:|--:|--:|%n", n, n));
            for (var entry : forks.get(1).entrySet()) {
                List<Double> many = forks.get(n).get(entry.getKey());
                if (many == null) {
                    continue;
                }
                double[] one = sorted(entry.getValue());
                double[] more = sorted(many);
                out.append(String.format(Locale.ROOT, "| %s | %s | %s | %.2fx | %.0f / %.0f |%n", entry.getKey(),
                        range(one), range(more), n * Report.median(one) / Report.median(more),
                        Report.median(sorted(alloc.get(1).get(entry.getKey()))),
                        Report.median(sorted(alloc.get(n).get(entry.getKey())))));
            }
        }
        Files.writeString(dir.resolve("threads.md"), out);
        System.out.print(out);
    }

    private static double[] sorted(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    }

    private static String range(double[] forks) {
        return String.format(Locale.ROOT, "%.0f-%.0f (%.0f)", forks[0], forks[forks.length - 1], Report.median(forks));
    }
}
