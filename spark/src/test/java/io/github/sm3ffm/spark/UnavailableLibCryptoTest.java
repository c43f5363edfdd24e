package io.github.sm3ffm.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * A JVM that cannot load libcrypto: a query calling {@code sm3} fails with the library's reason, not with
 * a {@code NullPointerException} or NULLs. Runs in a child JVM, as a process loads libcrypto once.
 */
class UnavailableLibCryptoTest {
    private static final String MISSING = "/nonexistent/libcrypto.so.3";
    private static final int FAILED = 3;

    @Test
    void theQueryFailsWithTheLibrarysReason() throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(option -> !option.startsWith("-Dsm3ffm.libcrypto.path=")).toList());
        command.add("-Dsm3ffm.libcrypto.path=" + MISSING);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), UnavailableLibCryptoTest.class.getName()));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(2, TimeUnit.MINUTES));
        assertEquals(FAILED, child.exitValue(), output);
        String reported = output.lines().filter(line -> line.startsWith("query failed: ")).findFirst().orElse("");
        assertTrue(reported.contains("sm3: SM3 from OpenSSL is unavailable in this JVM (SM3FFM): "), output);
        assertTrue(reported.contains(MISSING), output);
        assertFalse(output.contains("NullPointerException"), output);
    }

    /** The child: one query in local mode; prints how it failed. */
    public static void main(String[] args) {
        SparkSession spark = SparkSession.builder()
                .master("local[1]")
                .config("spark.sql.extensions", SM3SparkExtensions.class.getName())
                .config("spark.ui.enabled", "false")
                .getOrCreate();
        int status = 0;
        try {
            var rows = spark.sql("SELECT sm3(CAST(id AS STRING)) FROM range(10)").collectAsList();
            System.out.println("query succeeded: " + rows);
        } catch (Exception e) {
            System.out.println("query failed: " + e.getMessage().replace('\n', ' '));
            status = FAILED;
        }
        spark.stop();
        System.exit(status);
    }
}
