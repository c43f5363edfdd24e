package io.github.sm3ffm.kafka;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/** A JVM that a test starts on this JVM's java, its output (both streams) in a file, stopped by {@link #close}. */
final class ChildJvm implements AutoCloseable {
    private static final Duration STOP = Duration.ofSeconds(30);

    private final String name;
    private final Process process;
    private final Path output;

    private ChildJvm(String name, Process process, Path output) {
        this.name = name;
        this.process = process;
        this.output = output;
    }

    /** This JVM's class path, less the entries {@code drop} names. */
    static String classPath(Predicate<String> drop) {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(drop.negate()).collect(Collectors.joining(File.pathSeparator));
    }

    static ChildJvm start(String name, Path output, List<String> options, String classPath, String mainClass,
                          String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(options);
        command.addAll(List.of("-cp", classPath, mainClass));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        return new ChildJvm(name, p, output);
    }

    /** Runs to its end, within {@code limit}; its exit code. */
    int waitFor(Duration limit) throws InterruptedException {
        if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            close();
            throw new AssertionError(name + " did not finish in " + limit + ":\n" + tail());
        }
        return process.exitValue();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    String output() {
        try {
            return Files.readString(output);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The last lines of its output, for a failure's message. */
    String tail() {
        List<String> lines = output().lines().toList();
        return name + ", last lines:\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    }

    /** Asks it to stop (SIGTERM: its shutdown hooks run), then kills it if it has not stopped in 30 s. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(STOP.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(STOP.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
