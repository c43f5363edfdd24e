package io.github.sm3ffm.sm3sum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged jar and the bin/sm3sum launcher, run as a user runs them, after {@code mvn package}; with the
 * libcrypto the build was given ({@code -Dsm3ffm.test.libcrypto}), passed as a user passes it.
 */
class Sm3SumJarIT {
    @TempDir
    Path dir;

    private static Runs.Result javaDashJar(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(ChildJvm.javaExecutable().toString()));
        command.addAll(ChildJvm.libCryptoChoice());
        command.addAll(List.of("-jar", ChildJvm.packagedJar().toString()));
        command.addAll(List.of(args));
        return Runs.exec(new byte[0], command);
    }

    /** The launcher's environment: its JVM options carry the choice of libcrypto. */
    private static Map<String, String> launcherEnvironment() {
        return Map.of("SM3SUM_JAVA_OPTIONS", String.join(" ", ChildJvm.libCryptoChoice()));
    }

    private static Runs.Result launcher(byte[] stdin, String... args) {
        List<String> command = new ArrayList<>(List.of("bin/sm3sum"));
        command.addAll(List.of(args));
        return Runs.exec(launcherEnvironment(), stdin, command);
    }

    @Test
    void javaDashJarHashesAFileWithoutAnyWarning() throws Exception {
        Runs.Result r = javaDashJar("README.md", "pom.xml");
        assertEquals(Runs.cksum("--untagged", "README.md", "pom.xml").toString(), r.toString());
    }

    @Test
    void launcherRunsTheToolOnTheReadme() {
        Runs.Result r = launcher(new byte[0], "README.md");
        assertEquals(Runs.cksum("--untagged", "README.md").toString(), r.toString());
    }

    @Test
    void jarAndLauncherUseTheLibCryptoTheBuildChose() throws Exception {
        String chosen = System.getProperty("sm3ffm.libcrypto.path", "");
        String named = chosen.isBlank() ? "(/" : "(" + Path.of(chosen).toAbsolutePath() + ")";
        for (Runs.Result r : List.of(javaDashJar("--version"), launcher(new byte[0], "--version"))) {
            assertEquals(0, r.exitCode(), r.toString());
            assertTrue(r.out().contains(named), r.out());
        }
    }

    @Test
    void launcherMakesItsClassCacheAndIgnoresOneTheJvmCannotUse() throws Exception {
        Runs.Result first = launcher(new byte[0], "README.md");
        assertEquals(Runs.cksum("--untagged", "README.md").toString(), first.toString());
        List<Path> caches;
        try (var files = Files.list(Path.of("target"))) {
            caches = files.filter(f -> f.getFileName().toString().matches("sm3sum-jdk.*\\.(aot|jsa)")).toList();
        }
        assertFalse(caches.isEmpty(), "no class cache in target/ after a run");
        try {
            // Newer than the jar, so the launcher passes it on, and the JVM must refuse it without a word.
            for (Path cache : caches) {
                Files.writeString(cache, "not a class cache");
            }
            Runs.Result r = launcher(new byte[0], "README.md");
            assertEquals(Runs.cksum("--untagged", "README.md").toString(), r.toString());
        } finally {
            for (Path cache : caches) {
                Files.deleteIfExists(cache);
            }
        }
    }

    @Test
    void launcherPassesStandardInputStatusAndOptionsThrough() {
        byte[] input = "abc".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        Runs.Result r = launcher(input, "--tag");
        assertEquals("SM3 (-) = 66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0\n", r.out());
        Runs.Result missing = launcher(new byte[0], "no-such-file");
        assertEquals(Runs.cksum("no-such-file").toString(), missing.toString());
    }

    @Test
    void launcherLooksPastAJavaHomeThatIsNotAJdk22() throws Exception {
        Path notAJdk = Files.createDirectories(dir.resolve("jdk-17"));
        Files.writeString(notAJdk.resolve("release"), "JAVA_VERSION=\"17.0.9\"\n");
        ProcessBuilder pb = new ProcessBuilder("bin/sm3sum", "README.md");
        pb.environment().putAll(launcherEnvironment());
        pb.environment().put("JAVA_HOME", notAJdk.toString());
        Process p = pb.redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), Runs.NAMES);
        assertEquals(0, p.waitFor(), output);
        assertEquals(Runs.cksum("--untagged", "README.md").out(), output);
    }
}
