package io.github.sm3ffm.shardingsphere;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * {@link AssistedValueBenchmark} in rounds: in each round, one JMH fork of each algorithm for each kind of value,
 * the algorithms taking turns (their order rotates from round to round), so that a machine's slow minutes fall
 * on all of them alike. Prints, per kind of value, the plugin's time over this module's in each round: the
 * median and the range, with the CPU. {@code mvn test-compile exec:exec@speed -Dspeed.rounds=N}.
 */
public final class SpeedRounds {
    private static final List<String> ALGORITHMS = List.of("plugin", "SM3", "HMAC_SM3");
    private static final List<String> VALUES = List.of("id-number", "phone", "1KiB-text");

    private SpeedRounds() {
    }

    public static void main(String[] args) throws RunnerException, IOException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        // kind of value -> algorithm -> ns per value, one per round
        Map<String, Map<String, double[]>> nanos = new LinkedHashMap<>();
        for (String kind : VALUES) {
            Map<String, double[]> byAlgorithm = new LinkedHashMap<>();
            ALGORITHMS.forEach(a -> byAlgorithm.put(a, new double[rounds]));
            nanos.put(kind, byAlgorithm);
        }
        for (int round = 0; round < rounds; round++) {
            for (String kind : VALUES) {
                for (int turn = 0; turn < ALGORITHMS.size(); turn++) {
                    String algorithm = ALGORITHMS.get((round + turn) % ALGORITHMS.size());
                    nanos.get(kind).get(algorithm)[round] = run(algorithm, kind);
                }
            }
            System.out.printf("SpeedRounds: round %d of %d done%n", round + 1, rounds);
        }
        System.out.println(report(nanos, rounds));
    }

    private static double run(String algorithm, String kind) throws RunnerException {
        RunResult result = new Runner(new OptionsBuilder()
                .include(AssistedValueBenchmark.class.getName())
                .param("algorithm", algorithm)
                .param("values", kind)
                .forks(1)
                .build()).runSingle();
        return result.getPrimaryResult().getScore();
    }

    static String report(Map<String, Map<String, double[]>> nanos, int rounds) throws IOException {
        StringBuilder table = new StringBuilder();
        table.append("CPU: ").append(cpu()).append("; ").append(rounds)
                .append(" rounds, one fork per point per round\n\n");
        table.append("| values | plugin's SM3, ns (median) | SM3, ns | HMAC_SM3, ns | plugin / SM3: median (range) |"
                + " plugin / HMAC_SM3: median (range) |\n|---|---|---|---|---|---|\n");
        nanos.forEach((kind, byAlgorithm) -> {
            double[] plugin = byAlgorithm.get("plugin");
            table.append(String.format("| %s | %.0f | %.0f | %.0f | %s | %s |%n", kind, median(plugin),
                    median(byAlgorithm.get("SM3")), median(byAlgorithm.get("HMAC_SM3")),
                    ratios(plugin, byAlgorithm.get("SM3")), ratios(plugin, byAlgorithm.get("HMAC_SM3"))));
        });
        return table.toString();
    }

    /** The round-by-round ratios' median, and their lowest and highest. */
    private static String ratios(double[] numerator, double[] denominator) {
        double[] r = new double[numerator.length];
        for (int i = 0; i < r.length; i++) {
            r[i] = numerator[i] / denominator[i];
        }
        double[] sorted = r.clone();
        Arrays.sort(sorted);
        return String.format("%.2fx (%.2f-%.2f)", median(r), sorted[0], sorted[sorted.length - 1]);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** The CPU as /proc/cpuinfo names it: model name, family and model. */
    private static String cpu() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("/proc/cpuinfo"));
        List<String> parts = new ArrayList<>();
        for (String field : List.of("model name", "cpu family", "model")) {
            lines.stream().filter(l -> l.matches(field + "\\s*:.*")).findFirst()
                    .ifPresent(l -> parts.add(field + " " + l.substring(l.indexOf(':') + 1).trim()));
        }
        parts.add(Runtime.getRuntime().availableProcessors() + " processors");
        return String.join(", ", parts);
    }
}
