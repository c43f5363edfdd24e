package io.github.sm3ffm.sm3sum;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs sm3sum in this JVM and the reference tools (cksum, openssl) as processes, with the same input. */
final class Runs {
    /** What a run printed and returned; standard error as text, with the program name made "sm3sum". */
    record Result(int exitCode, byte[] stdout, String stderr) {
        String out() {
            return new String(stdout, StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + out() + "--- stderr\n" + stderr;
        }
    }

    static final Charset NAMES = Output.platformNames();

    private Runs() {
    }

    static Result sm3sum(byte[] stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Sm3Sum tool = new Sm3Sum(Channels.newChannel(new ByteArrayInputStream(stdin)), out, err, NAMES, () -> false);
        int status = tool.run(args);
        return new Result(status, out.toByteArray(), err.toString(NAMES));
    }

    static Result sm3sum(String... args) {
        return sm3sum(new byte[0], args);
    }

    /** {@code cksum -a sm3 ARGS}, coreutils' own SM3, with its messages renamed to sm3sum's. */
    static Result cksum(byte[] stdin, String... args) {
        List<String> command = new ArrayList<>(List.of("cksum", "-a", "sm3"));
        command.addAll(List.of(args));
        Result r = exec(stdin, command);
        return new Result(r.exitCode, r.stdout, r.stderr.replaceAll("(?m)^cksum: ", Output.PROGRAM + ": ")
                .replace("'cksum --help'", "'" + Output.PROGRAM + " --help'"));
    }

    static Result cksum(String... args) {
        return cksum(new byte[0], args);
    }

    /** The SM3 of a file or standard input ("-") as {@code openssl dgst -sm3 -r} computes it, in hex. */
    static String openssl(byte[] stdin, String file) {
        Result r = exec(stdin, List.of("openssl", "dgst", "-sm3", "-r", file));
        if (r.exitCode != 0) {
            throw new AssertionError("openssl failed: " + r);
        }
        return r.out().substring(0, ChecksumLines.HEX_LENGTH);
    }

    static Result exec(byte[] stdin, List<String> command) {
        return exec(Map.of(), stdin, command);
    }

    /** Runs {@code command} with these variables added to this JVM's environment. */
    static Result exec(Map<String, String> env, byte[] stdin, List<String> command) {
        try {
            ProcessBuilder pb = new ProcessBuilder(command);
            pb.environment().putAll(env);
            Process p = pb.start();
            // Own threads, not the common pool: with one pool thread the writer would wait for the reader.
            CompletableFuture<byte[]> err = new CompletableFuture<>();
            Thread.ofPlatform().daemon().start(() -> err.complete(readAll(p.getErrorStream())));
            Thread.ofPlatform().daemon().start(() -> {
                try (var in = p.getOutputStream()) {
                    in.write(stdin);
                } catch (IOException e) {
                    // The tool may exit without reading its input.
                }
            });
            byte[] out = readAll(p.getInputStream());
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new AssertionError("timed out: " + command);
            }
            return new Result(p.exitValue(), out, new String(err.join(), NAMES));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static byte[] readAll(InputStream in) {
        try (in) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
