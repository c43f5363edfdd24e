package io.github.sm3ffm.probe;

import io.github.sm3ffm.internal.NativeContext;
import java.nio.file.Files;
import java.nio.file.Path;

/** What child-JVM probes measure of native memory: the resident set and the contexts not yet freed. */
final class NativeMemory {
    private NativeMemory() {
    }

    static long residentKiB() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException("no VmRSS");
    }

    /**
     * Contexts still allocated once the GC has found the abandoned ones and the Cleaner has freed them:
     * asks for collections until the count stops mattering (under 100) or ten seconds have passed.
     */
    static long liveContextsAfterCleanup() throws InterruptedException {
        for (int i = 0; i < 100 && NativeContext.live() >= 100; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return NativeContext.live();
    }
}
