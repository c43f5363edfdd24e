package io.github.sm3ffm.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debezium's own column masking ({@code io.debezium.relational.mapping.MaskStrings}) with SM3 from SM3FFM, in a
 * JVM set up as docs/kafka.md tells a Connect worker to be: a {@code java.security} override that adds SM3FFM
 * after the JDK's providers (the next free number), the library on the class path, native access enabled. The
 * masks are checked against BouncyCastle computed as Debezium computes them: V1 hashes the salt and then the
 * value's Java serialization, V2 the salt and then the value's {@code toString()} bytes; a column with a length
 * keeps that many characters of the hex.
 */
class DebeziumMaskingTest {
    private static final String SALT = "CzQMA0cB5K";
    private static final List<String> VALUES = List.of("alice@example.com", "\u5f20\u4e09", "x".repeat(200), "");

    @Test
    void sm3MasksFromSM3FFMRegisteredInJavaSecurity(@TempDir Path dir) throws Exception {
        Path jdkSecurity = Path.of(System.getProperty("java.home"), "conf", "security", "java.security");
        Properties jdk = new Properties();
        try (var in = Files.newInputStream(jdkSecurity)) {
            jdk.load(in);
        }
        int next = 1;
        while (jdk.containsKey("security.provider." + next)) {
            next++;
        }
        Path override = Files.writeString(dir.resolve("sm3ffm.security"), "security.provider." + next + "=SM3FFM\n");

        List<String> args = new ArrayList<>(List.of(SALT));
        args.addAll(VALUES);
        ChildJvm jvm = ChildJvm.start("Debezium masking", dir.resolve("out.txt"),
                List.of("--enable-native-access=ALL-UNNAMED", "-Djava.security.properties=" + override),
                ChildJvm.classPath(e -> false), DebeziumMasking.class.getName(), args.toArray(String[]::new));
        assertEquals(0, jvm.waitFor(Duration.ofSeconds(120)), jvm::tail);
        List<String> lines = jvm.output().lines().filter(l -> !l.startsWith("WARNING") && !l.startsWith("SLF4J"))
                .toList();

        List<String> providers = List.of(lines.get(0).split(","));
        for (int i = 1; i < next; i++) {
            assertEquals(jdk.getProperty("security.provider." + i).trim(), providers.get(i - 1),
                    "the JDK's providers keep their places");
        }
        assertEquals("SM3FFM", providers.get(next - 1));
        assertEquals("SM3FFM", lines.get(1));

        byte[] salt = SALT.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < VALUES.size(); i++) {
            String value = VALUES.get(i);
            String[] masks = lines.get(2 + i).split("\t", -1);
            String v2 = sm3Hex(salt, value.getBytes(StandardCharsets.UTF_8));
            assertEquals(sm3Hex(salt, serialized(value)), masks[0], "V1 of " + value);
            assertEquals(v2, masks[1], "V2 of " + value);
            assertEquals(v2.substring(0, 16), masks[2], "V2 of " + value + " in a VARCHAR(16)");
        }
        assertTrue(lines.size() == 2 + VALUES.size(), () -> String.join("\n", lines));
    }

    private static String sm3Hex(byte[] salt, byte[] value) {
        byte[] message = new byte[salt.length + value.length];
        System.arraycopy(salt, 0, message, 0, salt.length);
        System.arraycopy(value, 0, message, salt.length, value.length);
        return HexFormat.of().formatHex(BouncyCastleSM3.sm3(message));
    }

    private static byte[] serialized(String value) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        return bytes.toByteArray();
    }
}
