package io.github.sm3ffm.kafka;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * The speed figure of docs/kafka.md: {@link HashFieldBenchmark} in rounds, each round one JMH fork of each
 * implementation, taking turns (which one goes first alternates), so that a busy machine slows both alike. Prints
 * each round's ratio (BouncyCastle's time per record over the library's: above 1, the library is faster), their
 * median and range, and the CPU. {@code mvn test-compile exec:exec@speed -Dspeed.forks=N}.
 */
public final class SpeedMain {
    private SpeedMain() {
    }

    public static void main(String[] args) throws RunnerException, IOException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        List<Double> ratios = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            List<String> order = round % 2 == 0 ? List.of("SM3FFM", "BouncyCastle") : List.of("BouncyCastle", "SM3FFM");
            double ffm = 0;
            double bc = 0;
            for (String implementation : order) {
                double ns = nanosPerRecord(implementation);
                if (implementation.equals("SM3FFM")) {
                    ffm = ns;
                } else {
                    bc = ns;
                }
            }
            ratios.add(bc / ffm);
            System.out.printf(Locale.ROOT, "round %d: SM3FFM %.1f ns/record, BouncyCastle %.1f ns/record, ratio %.2f%n",
                    round + 1, ffm, bc, bc / ffm);
        }
        List<Double> sorted = new ArrayList<>(ratios);
        Collections.sort(sorted);
        double median = sorted.size() % 2 == 1 ? sorted.get(sorted.size() / 2)
                : (sorted.get(sorted.size() / 2 - 1) + sorted.get(sorted.size() / 2)) / 2;
        System.out.printf(Locale.ROOT, "HashField, SM3 of a million records: BouncyCastle/SM3FFM median %.2fx over %d"
                + " rounds, range %.2f-%.2fx; %s%n", median, rounds, sorted.getFirst(), sorted.getLast(), cpu());
    }

    private static double nanosPerRecord(String implementation) throws RunnerException {
        Options options = new OptionsBuilder()
                .include(HashFieldBenchmark.class.getName() + ".millionRecords")
                .param("implementation", implementation)
                .forks(1)
                .warmupIterations(3)
                .measurementIterations(5)
                .jvmArgsAppend("--enable-native-access=ALL-UNNAMED", "-Xmx1g")
                .build();
        RunResult result = new Runner(options).runSingle();
        return result.getPrimaryResult().getScore();
    }

    /** The CPU as /proc/cpuinfo names it: model name, family and model. */
    private static String cpu() throws IOException {
        List<String> info = Files.readAllLines(Path.of("/proc/cpuinfo"));
        return "CPU " + field(info, "model name") + " (family " + field(info, "cpu family") + " model "
                + field(info, "model") + ")";
    }

    private static String field(List<String> info, String name) {
        return info.stream().filter(l -> l.matches(name + "\\s*:.*")).findFirst()
                .map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("?");
    }
}
