package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.internal.libcrypto.ChurnProbe;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Native memory stays bounded under the churn of services that create engines per request and abandon
 * them, even when every CPU is busy: each pattern runs 10 s after a 3 s warm-up in a JVM with a
 * pre-touched 256 MB heap, beside a spinning thread per CPU.
 */
class NativeMemoryBoundTest {
    // ContextPool's claim limit (8192) plus its idle slots (8 per CPU) and contexts in use by the worker.
    private static final long CONTEXT_BOUND = 8192 + 8L * Runtime.getRuntime().availableProcessors() + 16;

    @ParameterizedTest
    @ValueSource(strings = {"newDigest", "cloneThenFinish", "abandonedDigest", "newMac", "abandonedMac"})
    void residentMemoryAndContextsStayBounded(String pattern) throws Exception {
        ChildJvm.Result r = ChildJvm.run(Map.of(), List.of("-Xms256m", "-Xmx256m", "-XX:+AlwaysPreTouch"),
                ChurnProbe.class, pattern, "3", "10");
        String out = r.output();
        assertEquals(0, r.exitCode(), out);
        long growth = MisuseAndLifetimeTest.value(out, "rssGrowthKiB=");
        long live = MisuseAndLifetimeTest.value(out, "maxLiveContexts=");
        System.out.printf("Churn %s: %s; RSS grew %d KiB, at most %d native contexts%n", pattern,
                out.lines().filter(l -> l.startsWith("pattern=")).findFirst().orElse(""), growth, live);
        assertTrue(growth < 64 * 1024, "resident memory grew by " + growth + " KiB:\n" + out);
        assertTrue(live <= CONTEXT_BOUND, live + " native contexts, more than " + CONTEXT_BOUND + ":\n" + out);
    }
}
