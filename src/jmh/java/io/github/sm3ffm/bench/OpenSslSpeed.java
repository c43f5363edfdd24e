package io.github.sm3ffm.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * The native ceiling: OpenSSL's own {@code openssl speed -evp sm3} at one message size, in wall-clock time
 * ({@code -elapsed}) like JMH rather than its default CPU time, read from its machine-readable
 * ({@code -mr}) output.
 */
final class OpenSslSpeed {
    private final String executable;

    OpenSslSpeed(String executable) {
        this.executable = executable;
    }

    /** {@code openssl version}, or why it cannot be run. */
    String version() throws IOException, InterruptedException {
        Command r = Command.run(List.of(executable, "version"), 30);
        if (r.exitCode() != 0) {
            throw new IOException(executable + " version exited with " + r.exitCode() + ": " + r.output().strip());
        }
        return r.output().strip();
    }

    List<String> command(int size, int seconds) {
        return List.of(executable, "speed", "-elapsed", "-mr", "-seconds", Integer.toString(seconds),
                "-bytes", Integer.toString(size), "-evp", "sm3");
    }

    /** Bytes per second hashing {@code size}-byte messages for {@code seconds}. */
    double bytesPerSecond(int size, int seconds) throws IOException, InterruptedException {
        List<String> command = command(size, seconds);
        Command r = Command.run(command, seconds + 60);
        OptionalDouble parsed = parse(r.output());
        if (r.exitCode() != 0 || parsed.isEmpty()) {
            throw new IOException(String.join(" ", command) + " exited with " + r.exitCode() + ": " + r.output().strip());
        }
        return parsed.getAsDouble();
    }

    /** The bytes per second of the single size in a {@code -mr} report: its {@code +F:n:sm3:rate} line. */
    static OptionalDouble parse(String output) {
        List<String> rates = new ArrayList<>();
        for (String line : output.split("\\R")) {
            if (line.startsWith("+F:")) {
                String[] fields = line.split(":");
                rates.add(fields[fields.length - 1]);
            }
        }
        if (rates.size() != 1) {
            return OptionalDouble.empty();
        }
        try {
            return OptionalDouble.of(Double.parseDouble(rates.get(0)));
        } catch (NumberFormatException e) {
            return OptionalDouble.empty();
        }
    }
}
