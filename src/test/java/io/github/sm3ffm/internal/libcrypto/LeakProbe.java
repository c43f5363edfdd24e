package io.github.sm3ffm.internal.libcrypto;

import io.github.sm3ffm.SM3Provider;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.Provider;

/**
 * Child-JVM entry point: creates millions of digests and clones, feeds them, and drops them unfinished,
 * printing the process's resident memory after a warm-up and at the end.
 */
public final class LeakProbe {
    private LeakProbe() {
    }

    public static void main(String[] args) throws Exception {
        int total = Integer.parseInt(args[0]);
        Provider provider = new SM3Provider();
        byte[] small = new byte[100];
        byte[] large = new byte[5000];
        ByteBuffer direct = ByteBuffer.allocateDirect(300);
        long sink = 0;
        long afterWarmup = 0;
        for (int i = 0; i < total; i++) {
            MessageDigest md = MessageDigest.getInstance("SM3", provider);
            md.update(small);
            if ((i & 1) == 0) {
                MessageDigest copy = (MessageDigest) md.clone();
                copy.update(direct.clear());
                sink += copy.getDigestLength();
            }
            if ((i & 15) == 0) {
                md.update(large);
            }
            if (i == total / 10) {
                afterWarmup = NativeMemory.residentKiB();
            }
        }
        System.gc();
        Thread.sleep(500);
        System.gc();
        Thread.sleep(500);
        System.out.println("created=" + total + " sink=" + sink);
        System.out.println("rssWarmKiB=" + afterWarmup);
        System.out.println("rssEndKiB=" + NativeMemory.residentKiB());
        System.out.println("liveContextsAfterCleanup=" + NativeMemory.liveContextsAfterCleanup());
    }
}
