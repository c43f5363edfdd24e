package io.github.sm3ffm.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.shardingsphere.encrypt.spi.EncryptAlgorithm;
import org.apache.shardingsphere.infra.algorithm.messagedigest.core.MessageDigestAlgorithm;
import org.apache.shardingsphere.infra.spi.type.typed.TypedSPILoader;
import org.junit.jupiter.api.Test;

/**
 * A JVM that cannot load libcrypto: each algorithm refuses to start with ShardingSphere's initialization
 * failure giving the library's reason, so that a rule fails when it is loaded rather than at every statement.
 * Runs in a child JVM, as a process loads libcrypto once.
 */
class UnavailableLibCryptoTest {
    private static final String MISSING = "/nonexistent/libcrypto.so.3";
    private static final int FAILED = 3;

    @Test
    void eachAlgorithmRefusesToStartWithTheLibrarysReason() throws IOException, InterruptedException {
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
        List<String> refusals = output.lines().filter(line -> line.startsWith("refused: ")).toList();
        assertEquals(3, refusals.size(), output);
        for (String refusal : refusals) {
            assertTrue(refusal.contains("AlgorithmInitializationException"), output);
            assertTrue(refusal.contains(
                    "initialization failed, reason is: SM3 from OpenSSL is unavailable in this JVM: "), output);
            assertTrue(refusal.contains(MISSING), output);
        }
    }

    /** The child: loads each algorithm as ShardingSphere does and prints how it was refused. */
    public static void main(String[] args) {
        Properties salt = new Properties();
        salt.setProperty("sm3-salt", "Q7x2Lm9p");
        Properties key = new Properties();
        key.setProperty("hmac-sm3-key", "a key");
        List<Runnable> loads = List.of(
                () -> TypedSPILoader.getService(MessageDigestAlgorithm.class, "SM3", salt),
                () -> TypedSPILoader.getService(EncryptAlgorithm.class, "SM3", salt),
                () -> TypedSPILoader.getService(EncryptAlgorithm.class, "HMAC_SM3", key));
        int status = 0;
        for (Runnable load : loads) {
            try {
                load.run();
                System.out.println("loaded");
            } catch (RuntimeException e) {
                System.out.println("refused: " + e.getClass().getSimpleName() + ": "
                        + e.getMessage().replace('\n', ' '));
                status = FAILED;
            }
        }
        System.exit(status);
    }
}
