package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.probe.KdfProbe;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The jar as JDK 22-24 run it: {@code -Djdk.util.jar.version=24} makes this JDK read META-INF/versions/22 and
 * ignore META-INF/versions/25. Then there is no KDF service, and everything else works; with every version,
 * both KDFs are there. On the class path and on the module path.
 */
class KdfOnEarlierJdksIT {
    /** {@code jarVersion}: the JDK release whose view of the multi-release jar this JDK takes. */
    private static ChildJvm.Result probe(boolean modulePath, int jarVersion) throws Exception {
        String jar = ChildJvm.packagedJar().toAbsolutePath().toString();
        String tests = Path.of("target", "test-classes").toAbsolutePath().toString();
        List<String> command = new java.util.ArrayList<>(List.of("-Djdk.util.jar.version=" + jarVersion));
        if (modulePath) {
            command.addAll(List.of("--module-path", jar, "--add-modules", "io.github.sm3ffm",
                    "--enable-native-access=io.github.sm3ffm", "-cp", tests));
        } else {
            command.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-cp", jar + java.io.File.pathSeparator + tests));
        }
        command.add(KdfProbe.class.getName());
        return ChildJvm.java(Map.of(), command);
    }

    @Test
    void jdk22ClassesGiveEverythingButTheKdfs() throws Exception {
        for (boolean modulePath : new boolean[] {false, true}) {
            ChildJvm.Result r = probe(modulePath, 24);
            String where = (modulePath ? "module path: " : "class path: ") + r.output();
            assertEquals(0, r.exitCode(), where);
            assertTrue(r.output().contains("module=" + (modulePath ? "io.github.sm3ffm" : "unnamed")), where);
            assertTrue(r.output().contains("sm3=66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0"), where);
            assertTrue(r.output().contains("hmac=ok pbkdf2=ok"), where);
            assertTrue(r.output().contains("kdfs=[]"), where);
            assertTrue(r.output().contains("HKDF-SM3: NoSuchAlgorithmException"), where);
            assertTrue(r.output().contains("info=SM3 MessageDigest, HmacSM3 Mac and KeyGenerator, "
                    + "PBKDF2WithHmacSM3 SecretKeyFactory from"), where);
        }
    }

    @Test
    void jdk25ClassesAddTheKdfs() throws Exception {
        for (boolean modulePath : new boolean[] {false, true}) {
            ChildJvm.Result r = probe(modulePath, 25);
            String where = (modulePath ? "module path: " : "class path: ") + r.output();
            assertEquals(0, r.exitCode(), where);
            assertTrue(r.output().contains("kdfs=[HKDF-SM3, X963KDF-SM3]"), where);
            assertTrue(r.output().contains("HKDF-SM3: 32 bytes"), where);
            assertTrue(r.output().contains(", HKDF-SM3 KDF, X963KDF-SM3 KDF from"), where);
        }
    }
}
