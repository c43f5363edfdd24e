package io.github.sm3ffm.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a command to its end: its exit code and its output (standard output and error merged). */
record Command(int exitCode, String output) {
    static Command run(List<String> command, int timeoutSeconds) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("timed out: " + command);
        }
        return new Command(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    /** The java executable of this JVM. */
    static Path java() {
        return Path.of(ProcessHandle.current().info().command().orElseThrow());
    }
}
