package io.github.sm3ffm.sm3sum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sm3sum's main in a JVM of its own: exit statuses as a shell sees them, and life without libcrypto. */
class Sm3SumProcessTest {
    private static final String UNAVAILABLE = "sm3sum: OpenSSL 3 libcrypto with SM3 is unavailable; tried "
            + "sm3ffm.libcrypto.path=/nonexistent: no such file\n";

    @TempDir
    Path dir;

    private static ChildJvm.Result run(Map<String, String> env, List<String> jvmArgs, String... args)
            throws Exception {
        return ChildJvm.run(env, jvmArgs, Sm3Sum.class, args);
    }

    @Test
    void exitStatusIsZeroWhenAllIsWellAndOneWhenAFileCannotBeRead() throws Exception {
        Path abc = Files.writeString(dir.resolve("abc"), "abc");
        // GB/T 32905-2016, example 1.
        String expected = "66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0  " + abc + "\n";
        ChildJvm.Result ok = run(Map.of(), List.of(), abc.toString());
        assertEquals(0, ok.exitCode(), ok.output());
        assertEquals(expected, ok.output());
        ChildJvm.Result missing = run(Map.of(), List.of(), dir + "/missing", abc.toString());
        assertEquals(1, missing.exitCode(), missing.output());
        assertEquals("sm3sum: " + dir + "/missing: No such file or directory\n" + expected, missing.output());
        ChildJvm.Result usage = run(Map.of(), List.of(), "--nope");
        assertEquals(1, usage.exitCode(), usage.output());
    }

    @Test
    void withoutLibCryptoOneLineAndExitStatusTwo() throws Exception {
        Path abc = Files.writeString(dir.resolve("abc"), "abc");
        List<String> noLibrary = List.of("-Dsm3ffm.libcrypto.path=/nonexistent");
        for (List<String> args : List.of(List.of(abc.toString()), List.of("-c", abc.toString()), List.<String>of())) {
            ChildJvm.Result r = run(Map.of(), noLibrary, args.toArray(String[]::new));
            assertEquals(2, r.exitCode(), r.output());
            assertEquals(UNAVAILABLE, r.output());
        }
        ChildJvm.Result version = run(Map.of(), noLibrary, "--version");
        assertEquals(2, version.exitCode(), version.output());
        assertTrue(version.output().startsWith("sm3sum (sm3-ffm) "), version.output());
        assertTrue(version.output().endsWith("\n" + UNAVAILABLE), version.output());
        ChildJvm.Result help = run(Map.of(), noLibrary, "--help");
        assertEquals(0, help.exitCode(), help.output());
        assertTrue(help.output().startsWith("Usage: sm3sum"), help.output());
    }

    @Test
    void anOpenSslWithoutSm3IsOneLineAndExitStatusTwo() throws Exception {
        Path abc = Files.writeString(dir.resolve("abc"), "abc");
        ChildJvm.Result r = run(Map.of("OPENSSL_CONF", ChildJvm.vectors().resolve("base-only.cnf").toString()),
                List.of(), abc.toString());
        assertEquals(2, r.exitCode(), r.output());
        assertTrue(r.output().matches("sm3sum: [^\n]*EVP_MD_fetch\\(NULL, \"SM3\", NULL\\) failed[^\n]*unsupported\n"),
                r.output());
    }
}
