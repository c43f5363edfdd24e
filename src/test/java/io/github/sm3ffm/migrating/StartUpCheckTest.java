package io.github.sm3ffm.migrating;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.ChildJvm;
import io.github.sm3ffm.internal.libcrypto.StartUpCheckProbe;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/migrating.md, "Check at start-up": without a usable libcrypto a provider-less {@code getInstance("SM3")} moves
 * on to BouncyCastle without a word, so a service that must hash with OpenSSL checks once at start-up. Run in a
 * child JVM ({@link StartUpCheckProbe}, the service's start) pointed at a file that is no libcrypto.
 */
class StartUpCheckTest {
    @Test
    void withOpenSslTheFirstSm3IsSm3ffmAndTheCheckPasses() throws Exception {
        ChildJvm.Result result = ChildJvm.run(Map.of(), List.of(), StartUpCheckProbe.class);
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.output().contains("served by SM3FFM"), result.output());
    }

    @Test
    void withoutOpenSslBouncyCastleServesSilentlyAndOnlyTheCheckTells() throws Exception {
        ChildJvm.Result result = ChildJvm.run(Map.of(), List.of("-Dsm3ffm.libcrypto.path=/nonexistent/libcrypto.so.3"),
                StartUpCheckProbe.class);
        assertEquals(3, result.exitCode(), result.output());
        assertTrue(result.output().contains("served by BC"), result.output());
        assertTrue(result.output().contains("unavailable: "), result.output());
    }
}
