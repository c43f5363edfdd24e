package io.github.sm3ffm.sm3sum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.github.sm3ffm.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The packaged jar and the bin/sm3sum launcher, run as a user runs them, after {@code mvn package}. */
class Sm3SumJarIT {
    @TempDir
    Path dir;

    @Test
    void javaDashJarHashesAFileWithoutAnyWarning() throws Exception {
        Runs.Result r = Runs.exec(new byte[0],
                List.of(ChildJvm.javaExecutable().toString(), "-jar", ChildJvm.packagedJar().toString(), "README.md", "pom.xml"));
        assertEquals(Runs.cksum("--untagged", "README.md", "pom.xml").toString(), r.toString());
    }

    @Test
    void launcherRunsTheToolOnTheReadme() {
        Runs.Result r = Runs.exec(new byte[0], List.of("bin/sm3sum", "README.md"));
        assertEquals(Runs.cksum("--untagged", "README.md").toString(), r.toString());
    }

    @Test
    void launcherMakesItsClassCacheAndIgnoresOneTheJvmCannotUse() throws Exception {
        Runs.Result first = Runs.exec(new byte[0], List.of("bin/sm3sum", "README.md"));
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
            Runs.Result r = Runs.exec(new byte[0], List.of("bin/sm3sum", "README.md"));
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
        Runs.Result r = Runs.exec(input, List.of("bin/sm3sum", "--tag"));
        assertEquals("SM3 (-) = 66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0\n", r.out());
        Runs.Result missing = Runs.exec(new byte[0], List.of("bin/sm3sum", "no-such-file"));
        assertEquals(Runs.cksum("no-such-file").toString(), missing.toString());
    }

    @Test
    void launcherLooksPastAJavaHomeThatIsNotAJdk22() throws Exception {
        Path notAJdk = Files.createDirectories(dir.resolve("jdk-17"));
        Files.writeString(notAJdk.resolve("release"), "JAVA_VERSION=\"17.0.9\"\n");
        ProcessBuilder pb = new ProcessBuilder("bin/sm3sum", "README.md");
        pb.environment().put("JAVA_HOME", notAJdk.toString());
        Process p = pb.redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), Runs.NAMES);
        assertEquals(0, p.waitFor(), output);
        assertEquals(Runs.cksum("--untagged", "README.md").out(), output);
    }
}
