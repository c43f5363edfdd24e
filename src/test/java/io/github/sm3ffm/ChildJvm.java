package io.github.sm3ffm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a main class of this project in a fresh JVM (same JDK as the tests), for environments a test JVM cannot enter. */
public final class ChildJvm {
    public record Result(int exitCode, String output) {
    }

    private ChildJvm() {
    }

    public static Path javaExecutable() {
        return Path.of(ProcessHandle.current().info().command().orElseThrow());
    }

    /** This project's classes and test classes, plus BouncyCastle (a second SM3 provider for tests). */
    public static String classPath() {
        return String.join(java.io.File.pathSeparator, Path.of("target", "classes").toAbsolutePath().toString(),
                testClassPath());
    }

    /** Everything a child JVM needs besides the library itself. */
    public static String testClassPath() {
        return String.join(java.io.File.pathSeparator, Path.of("target", "test-classes").toAbsolutePath().toString(),
                jarOf(org.bouncycastle.jce.provider.BouncyCastleProvider.class));
    }

    /** The jar that {@code mvn package} built, for tests that run after it (Failsafe's *IT). */
    public static Path packagedJar() throws IOException {
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(Path.of("target"))) {
            return files.filter(p -> p.getFileName().toString().matches("sm3-ffm-[^-]+(-SNAPSHOT)?\\.jar"))
                    .findFirst().orElseThrow(() -> new AssertionError("no jar in target/; run mvn package"));
        }
    }

    private static String jarOf(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs {@code mainClass} on the class path with native access; stdout and stderr merged. */
    public static Result run(Map<String, String> env, List<String> jvmArgs, Class<?> mainClass, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add("--enable-native-access=ALL-UNNAMED");
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(classPath());
        command.add(mainClass.getName());
        command.addAll(List.of(args));
        return java(env, command);
    }

    /**
     * Runs the test JDK's java with these arguments, preceded by this JVM's choice of libcrypto
     * ({@code -Dsm3ffm.libcrypto.path}, as {@code mvn verify -Dsm3ffm.test.libcrypto=...} sets it) unless
     * the arguments name one themselves: the whole suite then runs against that library.
     */
    public static Result java(Map<String, String> env, List<String> arguments)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(launcher());
        command.add(javaExecutable().toString());
        if (arguments.stream().noneMatch(a -> a.startsWith("-D" + LIBCRYPTO_PROPERTY + "="))) {
            command.addAll(libCryptoChoice());
        }
        command.addAll(arguments);
        return exec(env, command, 300);
    }

    private static final String LIBCRYPTO_PROPERTY = "sm3ffm.libcrypto.path";

    /** The libcrypto this JVM was given, as the option that gives it to another JVM; none: the loader's choice. */
    public static List<String> libCryptoChoice() {
        String library = System.getProperty(LIBCRYPTO_PROPERTY, "");
        return library.isBlank() ? List.of() : List.of("-D" + LIBCRYPTO_PROPERTY + "=" + library);
    }

    /**
     * What starts the test JVM's own executable, from {@code -Dsm3ffm.test.launcher}: under an emulator
     * such as qemu-aarch64-static, a child JVM cannot be exec'd directly (the kernel may not know its
     * architecture), so the emulator comes first. Blank or unset: none.
     */
    private static List<String> launcher() {
        String launcher = System.getProperty("sm3ffm.test.launcher", "").trim();
        return launcher.isEmpty() ? List.of() : List.of(launcher.split("\\s+"));
    }

    public static Result exec(Map<String, String> env, List<String> command, int timeoutSeconds)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("child JVM timed out: " + command);
        }
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    /**
     * The test vectors and OpenSSL configurations copied into src/test/resources/vectors (provenance in SOURCES
     * there), as a directory: child JVMs are given these files by path, for example in {@code OPENSSL_CONF}.
     */
    public static Path vectors() {
        try {
            return Path.of(ChildJvm.class.getResource("/vectors/SOURCES").toURI()).getParent();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
