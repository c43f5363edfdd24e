package io.github.sm3ffm.internal.libcrypto;

import io.github.sm3ffm.SM3Provider;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.Provider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/**
 * Child-JVM entry point for misuse the JCA forbids: several threads hammer one MessageDigest and one Mac
 * with every operation at once. Wrong results and exceptions are acceptable there; a crash is not. Beside
 * them, bystander threads hash and MAC their own messages on their own instances, which borrow and claim
 * contexts from the same pools, and check every result against BouncyCastle: if a racing instance ever
 * touched a context it had given back, a bystander holding that context would see a wrong answer. The
 * race lasts the given time and at least until the bystanders have made {@value #MIN_CHECKS} checks, so
 * that a slow machine (an emulated CPU) still races against checked work. Prints "survived".
 */
public final class RaceProbe {
    private static final SecretKeySpec KEY = new SecretKeySpec(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, "HmacSM3");
    private static final int MIN_CHECKS = 200;

    private RaceProbe() {
    }

    public static void main(String[] args) throws Exception {
        long millis = Long.parseLong(args[0]);
        int threads = Integer.parseInt(args[1]);
        Provider provider = new SM3Provider();
        MessageDigest shared = MessageDigest.getInstance("SM3", provider);
        Mac sharedMac = Mac.getInstance("HmacSM3", provider);
        sharedMac.init(KEY);
        byte[] data = new byte[200_000];
        ByteBuffer direct = ByteBuffer.allocateDirect(100_000);
        AtomicLong ops = new AtomicLong();
        AtomicLong exceptions = new AtomicLong();
        AtomicLong checked = new AtomicLong();
        AtomicLong mismatches = new AtomicLong();
        Set<String> kinds = ConcurrentHashMap.newKeySet();
        long end = System.nanoTime() + millis * 1_000_000;
        AtomicLong bystanders = new AtomicLong(2);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread w = (t % 2 == 0 ? Thread.ofPlatform() : Thread.ofVirtual()).start(() -> {
                ThreadLocalRandom rnd = ThreadLocalRandom.current();
                while (System.nanoTime() < end || (checked.get() < MIN_CHECKS && bystanders.get() > 0)) {
                    try {
                        switch (rnd.nextInt(12)) {
                            case 0 -> shared.update((byte) 1);
                            case 1 -> shared.update(data, rnd.nextInt(100), rnd.nextInt(200));
                            case 2 -> shared.update(data, 0, rnd.nextInt(data.length));
                            case 3 -> shared.update(direct.duplicate().limit(rnd.nextInt(direct.capacity())));
                            case 4 -> shared.digest();
                            case 5 -> shared.reset();
                            case 6 -> ((MessageDigest) shared.clone()).digest();
                            case 7 -> sharedMac.update(data, 0, rnd.nextInt(2000));
                            case 8 -> sharedMac.doFinal();
                            case 9 -> ((Mac) sharedMac.clone()).doFinal();
                            case 10 -> sharedMac.init(KEY);
                            default -> shared.update(ByteBuffer.wrap(data, 0, rnd.nextInt(1000)).asReadOnlyBuffer());
                        }
                    } catch (RuntimeException | CloneNotSupportedException | java.security.InvalidKeyException e) {
                        exceptions.incrementAndGet();
                        kinds.add(e.getClass().getSimpleName());
                    }
                    ops.incrementAndGet();
                }
            });
            workers.add(w);
        }
        for (int t = 0; t < 2; t++) {
            Thread b = (t == 0 ? Thread.ofPlatform() : Thread.ofVirtual()).start(() -> {
                try {
                    bystander(provider, end, checked, mismatches);
                } catch (Exception e) {
                    mismatches.incrementAndGet();
                    kinds.add("bystander " + e);
                } finally {
                    bystanders.decrementAndGet();
                }
            });
            workers.add(b);
        }
        for (Thread w : workers) {
            w.join();
        }
        // The instance is still usable once the race is over.
        shared.reset();
        String abc = java.util.HexFormat.of().formatHex(shared.digest("abc".getBytes("US-ASCII")));
        System.out.println("ops=" + ops + " exceptions=" + exceptions + " " + kinds);
        System.out.println("bystanderChecks=" + checked + " bystanderMismatches=" + mismatches);
        System.out.println("afterwards=" + abc);
        System.out.println("survived");
    }

    // Short (borrowed context), long (claimed), reused (kept) and cloned streams, each checked.
    private static void bystander(Provider provider, long end, AtomicLong checked, AtomicLong mismatches)
            throws Exception {
        Provider bc = new BouncyCastleProvider();
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        MessageDigest reused = MessageDigest.getInstance("SM3", provider);
        Mac reusedMac = Mac.getInstance("HmacSM3", provider);
        reusedMac.init(KEY);
        Mac bcMac = Mac.getInstance("HmacSM3", bc);
        bcMac.init(KEY);
        MessageDigest bcDigest = MessageDigest.getInstance("SM3", bc);
        while (System.nanoTime() < end || checked.get() < MIN_CHECKS) {
            byte[] message = new byte[rnd.nextBoolean() ? rnd.nextInt(500) : rnd.nextInt(5000)];
            rnd.nextBytes(message);
            byte[] expected = bcDigest.digest(message);
            byte[] expectedMac = bcMac.doFinal(message);
            MessageDigest fresh = MessageDigest.getInstance("SM3", provider);
            fresh.update(message, 0, message.length / 2);
            MessageDigest copy = (MessageDigest) fresh.clone();
            fresh.update(message, message.length / 2, message.length - message.length / 2);
            copy.update(message, message.length / 2, message.length - message.length / 2);
            Mac mac = Mac.getInstance("HmacSM3", provider);
            mac.init(KEY);
            boolean ok = Arrays.equals(expected, fresh.digest()) && Arrays.equals(expected, copy.digest())
                    && Arrays.equals(expected, reused.digest(message))
                    && Arrays.equals(expectedMac, mac.doFinal(message))
                    && Arrays.equals(expectedMac, reusedMac.doFinal(message));
            checked.incrementAndGet();
            if (!ok) {
                mismatches.incrementAndGet();
            }
        }
    }
}
