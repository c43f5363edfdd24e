package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.internal.libcrypto.StartupProbe;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code sm3ffm.required=true} and the KDFs of JDK 25, which the packaged jar's META-INF/versions/25 offers: with
 * SM3FFM unable to serve, {@code KDF.getInstance} fails with SM3FFM's reason, where without the property it fails
 * with the JCA's own {@code NoSuchAlgorithmException} (or a provider behind serves, if one offers the KDF).
 */
class RequiredKdfIT {
    private static final List<String> KDFS = List.of("HKDF-SM3", "X963KDF-SM3");

    private static String services(String... jvmArgs) throws Exception {
        List<String> command = new ArrayList<>(List.of("--enable-native-access=ALL-UNNAMED", RequiredTest.UNUSABLE));
        command.addAll(List.of(jvmArgs));
        command.addAll(List.of("-cp", ChildJvm.packagedJar().toAbsolutePath() + File.pathSeparator
                + ChildJvm.testClassPath(), StartupProbe.class.getName(), "services", "sm3ffm-first"));
        command.addAll(KDFS);
        ChildJvm.Result r = ChildJvm.java(Map.of(), command);
        assertEquals(0, r.exitCode(), r.output());
        return r.output();
    }

    @Test
    void withThePropertyEveryKdfFailsWithSm3ffmsReason() throws Exception {
        RequiredTest.assertRefused(services("-Dsm3ffm.required=true"), KDFS);
    }

    @Test
    void withoutThePropertyTheJcaMovesOn() throws Exception {
        String out = services();
        for (String kdf : KDFS) {
            String line = out.lines().filter(l -> l.startsWith(kdf + "=")).findFirst().orElseThrow();
            assertTrue(line.startsWith(kdf + "=java.security.NoSuchAlgorithmException: ")
                    || line.equals(kdf + "=served by BC"), out);
        }
    }
}
