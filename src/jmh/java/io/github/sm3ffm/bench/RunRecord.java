package io.github.sm3ffm.bench;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What a run of the suite records beside JMH's own JSON ({@value #FILE}): how it ran, which implementations
 * worked here and why not, and the native ceiling's samples.
 */
record RunRecord(String mode, String note, String started, long seconds, String command, Settings settings,
        String jdk, String cpu, int cores, String os, List<Settled> settled, List<String> steadyWarmup,
        Map<String, Implementation> implementations, Ceiling openssl, List<String> failures) {

    static final String FILE = "benchmarks-run.json";

    RunRecord {
        // Records written before settled points existed have none.
        settled = settled == null ? List.of() : settled;
        // ... nor implementations warmed until their speed steps down.
        steadyWarmup = steadyWarmup == null ? List.of() : steadyWarmup;
    }

    /**
     * {@code steadyWarmupMillis}: the least warmup of an implementation in {@link Suite#STEP_DOWN}, whose speed
     * steps down seconds into a JVM's life (0 in records written before it existed: none).
     */
    record Settings(int rounds, int warmupIterations, int warmupMillis, int iterations, int iterationMillis,
            int opensslSamples, int opensslSeconds, int steadyWarmupMillis) {

        /** Warmup iterations of a fork of {@code implementation} (null: none). */
        int warmupIterations(String implementation) {
            return implementation != null && Suite.STEP_DOWN.contains(implementation)
                    ? Math.max(warmupIterations, (steadyWarmupMillis + warmupMillis - 1) / warmupMillis)
                    : warmupIterations;
        }

        /** Seconds one fork takes with {@code warmups} warmup iterations and measured ones of {@code iterationMillis}. */
        double forkSeconds(int warmups, int iterationMillis) {
            return Suite.FORK_OVERHEAD_SECONDS + (warmups * warmupMillis + iterations * iterationMillis) / 1000.0;
        }

        /** Seconds the run should take, given its forks' seconds and the number of {@code openssl speed} calls. */
        long expectedSeconds(double forkSeconds, int opensslRuns) {
            return Math.round(forkSeconds + opensslRuns * (opensslSeconds + 0.05));
        }
    }

    /**
     * A point measured other than by the settings, through {@link Settle}: {@code benchmark} is
     * "Class.method", {@code size} null when it has none.
     */
    record Settled(String benchmark, String size, int forks, int iterationMillis) {
    }

    /** Forks per round at one point ("Class.method", size or null): 1 unless {@link #settled} says otherwise. */
    int forksPerRound(String benchmark, String size) {
        return settled.stream()
                .filter(t -> t.benchmark().equals(benchmark) && java.util.Objects.equals(t.size(), size))
                .mapToInt(Settled::forks).findFirst().orElse(1);
    }

    /** The probe's answer for one implementation (see {@link Providers#main}). */
    record Implementation(String status, String reason, String version, String info, String services,
            String source, String libraries) {

        boolean available() {
            return "available".equals(status);
        }

        boolean offers(String service) {
            return available() && services != null && List.of(services.split(",")).contains(service);
        }
    }

    /** {@code openssl speed} at each size, or why it could not run ({@code unavailable}). */
    record Ceiling(String version, String command, String unavailable, List<Sample> samples) {
    }

    record Sample(int round, int size, double bytesPerSecond) {
    }

    private static final Gson GSON = new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create();

    void write(Path dir) throws IOException {
        Files.writeString(dir.resolve(FILE), GSON.toJson(this) + "\n");
    }

    static RunRecord read(Path dir) throws IOException {
        return GSON.fromJson(Files.readString(dir.resolve(FILE)), RunRecord.class);
    }
}
