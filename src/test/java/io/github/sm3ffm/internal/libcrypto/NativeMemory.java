package io.github.sm3ffm.internal.libcrypto;

import io.github.sm3ffm.SM3Provider;
import java.security.MessageDigest;
import java.security.Provider;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
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
     * Contexts still allocated once the GC has found the abandoned ones and a thread that uses the pools
     * has taken them back: asks for collections, then hashes and MACs one message (which reclaims what the
     * collection found), until the count stops mattering (under 100) or ten seconds have passed. What stays
     * are the pools' idle contexts.
     */
    static long liveContextsAfterCleanup() throws Exception {
        Provider provider = new SM3Provider();
        for (int i = 0; i < 100 && PooledContext.live() >= 100; i++) {
            System.gc();
            Thread.sleep(100);
            MessageDigest.getInstance("SM3", provider).digest(new byte[1]);
            Mac mac = Mac.getInstance("HmacSM3", provider);
            mac.init(new SecretKeySpec(new byte[16], "HmacSM3"));
            mac.doFinal(new byte[1]);
        }
        return PooledContext.live();
    }
}
