package io.github.sm3ffm.probe;

import io.github.sm3ffm.SM3Provider;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Child-JVM entry point for misuse the JCA forbids: several threads hammer one MessageDigest with every
 * operation at once. Wrong digests and exceptions are acceptable; a crash is not. Prints "survived".
 */
public final class RaceProbe {
    private RaceProbe() {
    }

    public static void main(String[] args) throws Exception {
        long millis = Long.parseLong(args[0]);
        int threads = Integer.parseInt(args[1]);
        MessageDigest shared = MessageDigest.getInstance("SM3", new SM3Provider());
        byte[] data = new byte[200_000];
        ByteBuffer direct = ByteBuffer.allocateDirect(100_000);
        AtomicLong ops = new AtomicLong();
        AtomicLong exceptions = new AtomicLong();
        java.util.Set<String> kinds = java.util.concurrent.ConcurrentHashMap.newKeySet();
        long end = System.nanoTime() + millis * 1_000_000;
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread w = (t % 2 == 0 ? Thread.ofPlatform() : Thread.ofVirtual()).start(() -> {
                ThreadLocalRandom rnd = ThreadLocalRandom.current();
                while (System.nanoTime() < end) {
                    try {
                        switch (rnd.nextInt(8)) {
                            case 0 -> shared.update((byte) 1);
                            case 1 -> shared.update(data, rnd.nextInt(100), rnd.nextInt(200));
                            case 2 -> shared.update(data, 0, rnd.nextInt(data.length));
                            case 3 -> shared.update(direct.duplicate().limit(rnd.nextInt(direct.capacity())));
                            case 4 -> shared.digest();
                            case 5 -> shared.reset();
                            case 6 -> ((MessageDigest) shared.clone()).digest();
                            default -> shared.update(ByteBuffer.wrap(data, 0, rnd.nextInt(1000)).asReadOnlyBuffer());
                        }
                    } catch (RuntimeException | CloneNotSupportedException e) {
                        exceptions.incrementAndGet();
                        kinds.add(e.getClass().getSimpleName());
                    }
                    ops.incrementAndGet();
                }
            });
            workers.add(w);
        }
        for (Thread w : workers) {
            w.join();
        }
        // The instance is still usable once the race is over.
        shared.reset();
        String abc = java.util.HexFormat.of().formatHex(shared.digest("abc".getBytes("US-ASCII")));
        System.out.println("ops=" + ops + " exceptions=" + exceptions + " " + kinds);
        System.out.println("afterwards=" + abc);
        System.out.println("survived");
    }
}
