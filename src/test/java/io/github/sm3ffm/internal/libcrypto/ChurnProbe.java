package io.github.sm3ffm.internal.libcrypto;

import io.github.sm3ffm.SM3Provider;
import java.security.MessageDigest;
import java.security.Provider;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Child-JVM entry point: runs one way of using the JCA as fast as it can while spinning threads keep every
 * CPU busy (so no helper thread of the JVM gets more than its share), and prints how far resident memory
 * and the count of native contexts rose above what they were after the warm-up.
 *
 * <p>Arguments: the pattern, warm-up seconds, measured seconds.
 */
public final class ChurnProbe {
    private static volatile boolean spinning = true;

    private ChurnProbe() {
    }

    public static void main(String[] args) throws Exception {
        String pattern = args[0];
        long warmup = TimeUnit.SECONDS.toNanos(Long.parseLong(args[1]));
        long measured = TimeUnit.SECONDS.toNanos(Long.parseLong(args[2]));
        for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
            Thread spinner = new Thread(() -> {
                long x = 0;
                while (spinning) {
                    x++;
                }
                if (x == 42) {
                    System.out.print("");
                }
            });
            spinner.setDaemon(true);
            spinner.start();
        }
        Provider provider = new SM3Provider();
        SecretKeySpec key = new SecretKeySpec(new byte[32], "HmacSM3");
        byte[] message = new byte[100];
        byte[] kilobyte = new byte[1024];
        MessageDigest transcript = MessageDigest.getInstance("SM3", provider);
        transcript.update(new byte[1061]);
        long start = System.nanoTime();
        long baseRss = -1;
        long maxRss = 0;
        long maxLive = 0;
        long ops = 0;
        long sink = 0;
        long nextSample = start + warmup;
        while (true) {
            switch (pattern) {
                case "newDigest" -> sink += MessageDigest.getInstance("SM3", provider).digest(message)[0];
                case "cloneThenFinish" -> sink += ((MessageDigest) transcript.clone()).digest()[0];
                case "abandonedDigest" -> MessageDigest.getInstance("SM3", provider).update(kilobyte);
                case "newMac" -> {
                    Mac mac = Mac.getInstance("HmacSM3", provider);
                    mac.init(key);
                    sink += mac.doFinal(message)[0];
                }
                case "abandonedMac" -> {
                    Mac mac = Mac.getInstance("HmacSM3", provider);
                    mac.init(key);
                    mac.update((ops & 1) == 0 ? message : kilobyte);
                }
                default -> throw new IllegalArgumentException(pattern);
            }
            ops++;
            if ((ops & 255) == 0) {
                long now = System.nanoTime();
                if (now >= nextSample) {
                    long rss = NativeMemory.residentKiB();
                    if (baseRss < 0) {
                        baseRss = rss;
                        System.out.println("warmOps=" + ops + " rssWarmKiB=" + rss + " liveWarm=" + PooledContext.live());
                    }
                    maxRss = Math.max(maxRss, rss);
                    maxLive = Math.max(maxLive, PooledContext.live());
                    nextSample = now + TimeUnit.MILLISECONDS.toNanos(50);
                }
                if (now - start >= warmup + measured) {
                    break;
                }
            }
        }
        spinning = false;
        System.out.println("pattern=" + pattern + " ops=" + ops + " sink=" + sink);
        System.out.println("rssGrowthKiB=" + (maxRss - baseRss));
        System.out.println("maxLiveContexts=" + maxLive);
    }
}
