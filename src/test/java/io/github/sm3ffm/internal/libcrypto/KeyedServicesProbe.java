package io.github.sm3ffm.internal.libcrypto;

import io.github.sm3ffm.RawKey;
import io.github.sm3ffm.SM3Provider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.Security;
import java.util.HexFormat;
import java.util.concurrent.Callable;
import javax.crypto.KeyGenerator;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;

/**
 * Child-JVM entry point for the keyed services. {@code services}: what getInstance gives for each of them
 * (run under an OpenSSL configuration that cannot give SM3). {@code leak N}: N abandoned keyed Macs and
 * clones, then the growth of the resident set.
 */
public final class KeyedServicesProbe {
    private KeyedServicesProbe() {
    }

    public static void main(String[] args) throws Exception {
        Provider provider = new SM3Provider();
        switch (args[0]) {
            case "services" -> {
                report("Mac", () -> Mac.getInstance("HmacSM3", provider));
                report("KeyGenerator", () -> KeyGenerator.getInstance("HmacSM3", provider));
                report("SecretKeyFactory", () -> SecretKeyFactory.getInstance("PBKDF2WithHmacSM3", provider));
                Security.addProvider(provider);
                // Without a provider name, Mac picks one at init: no provider can take the key then.
                report("Mac without a provider", () -> {
                    Mac mac = Mac.getInstance("HMAC-SM3");
                    mac.init(new RawKey(new byte[16]));
                    return mac.getProvider();
                });
                report("SecretKeyFactory without a provider",
                        () -> SecretKeyFactory.getInstance("PBKDF2WithHmacSM3"));
            }
            case "leak" -> leak(provider, Integer.parseInt(args[1]));
            default -> throw new IllegalArgumentException(args[0]);
        }
        byte[] sha = MessageDigest.getInstance("SHA-256").digest("abc".getBytes("US-ASCII"));
        System.out.println("sha256=" + HexFormat.of().formatHex(sha));
    }

    private static void report(String what, Callable<Object> getInstance) {
        try {
            Object o = getInstance.call();
            System.out.println(what + ": instance of " + o.getClass().getName());
        } catch (Exception e) {
            System.out.println(what + ": " + e.getClass().getSimpleName() + ": " + e.getMessage());
            System.out.println(what + " cause: " + e.getCause());
        }
    }

    // RSS keeps the high-water mark of contexts still waiting for the Cleaner (freed memory stays in
    // malloc's arenas), so a leak shows as growth that repeats round after round, not as one step.
    private static void leak(Provider provider, int count) throws Exception {
        byte[] key = new byte[32];
        byte[] message = new byte[300];
        long[] rss = new long[4];
        for (int round = 0; round < rss.length; round++) {
            abandon(provider, key, message, count);
            System.gc();
            Thread.sleep(200);
            rss[round] = NativeMemory.residentKiB();
            System.out.println("rssAfterRound" + round + "KiB=" + rss[round]);
        }
        System.out.println("rssGrowthKiB=" + (rss[rss.length - 1] - rss[1]));
        System.out.println("liveContextsAfterCleanup=" + NativeMemory.liveContextsAfterCleanup());
    }

    private static void abandon(Provider provider, byte[] key, byte[] message, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            Mac mac = Mac.getInstance("HmacSM3", provider);
            mac.init(new RawKey(key));
            mac.update(message);
            Mac copy = (Mac) mac.clone();
            copy.update((byte) i);
            if (i % 2 == 0) {
                copy.doFinal();
            }
        }
    }
}
