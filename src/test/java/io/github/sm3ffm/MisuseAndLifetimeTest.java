package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.internal.libcrypto.LeakProbe;
import io.github.sm3ffm.internal.libcrypto.RaceProbe;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a JVM does under abuse: millions of abandoned digests, and threads racing on one instance. */
class MisuseAndLifetimeTest {
    @Test
    void abandonedDigestsAndClonesDoNotGrowResidentMemory() throws Exception {
        // Each abandoned digest holds about 1 KiB of native memory: a leak of 3 million would be ~3 GiB, while
        // the Cleaner backlog's high-water mark, which RSS keeps, varies by tens of MiB with the load.
        ChildJvm.Result r = ChildJvm.run(Map.of(), List.of("-Xmx32m"), LeakProbe.class, "3000000");
        String out = r.output();
        assertEquals(0, r.exitCode(), out);
        long warm = value(out, "rssWarmKiB=");
        long end = value(out, "rssEndKiB=");
        System.out.printf("Leak check: 3,000,000 digests (1,500,000 clones); RSS %d MiB after warm-up, %d MiB at end%n",
                warm >> 10, end >> 10);
        assertTrue(end - warm < 256 * 1024, "resident memory grew from " + warm + " KiB to " + end + " KiB");
        assertTrue(value(out, "liveContextsAfterCleanup=") < 100, out);
    }

    @Test
    void threadsRacingOnOneInstanceDoNotCrashTheJvm() throws Exception {
        ChildJvm.Result r = ChildJvm.run(Map.of(), List.of(), RaceProbe.class, "4000", "4");
        String out = r.output();
        assertEquals(0, r.exitCode(), out);
        assertTrue(out.contains("survived"), out);
        assertTrue(out.contains("afterwards=66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0"), out);
        // Bystanders share the context pools with the racing instances; none may ever see a wrong answer.
        assertTrue(value(out, "bystanderChecks=") > 100, out);
        assertTrue(out.contains("bystanderMismatches=0"), out);
        System.out.println("Race check: " + out.lines().filter(l -> l.startsWith("ops=") || l.startsWith("bystander"))
                .toList());
    }

    static long value(String out, String key) {
        return out.lines().filter(l -> l.startsWith(key))
                .map(l -> Long.parseLong(l.substring(key.length()).split(" ", 2)[0]))
                .findFirst().orElseThrow(() -> new AssertionError("no " + key + " in\n" + out));
    }
}
