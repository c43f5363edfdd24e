package io.github.sm3ffm.internal.libcrypto;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.SM3Provider;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * How deep the library is between a JCA engine method and a native call: at every backend operation that each
 * engine method reaches, at most {@value #MAX_FRAMES} of the library's frames are on the stack (the engine's and
 * the backend's included) and at most {@value #MAX_CLASSES} of its classes. Measured through the decorator of
 * {@link Faults}, so it runs in the build's failure-injection JVMs.
 */
class CallDepthTest {
    static {
        Faults.install();
    }

    static final int MAX_FRAMES = 5;
    static final int MAX_CLASSES = 5;
    private static final SM3Provider PROVIDER = new SM3Provider();

    @Test
    void everyNativeCallIsAFewFramesBelowItsEngine() throws Exception {
        for (Algorithm a : Algorithm.values()) {
            a.check();
        }
        byte[] key = new byte[20];
        byte[] small = new byte[100];
        byte[] large = new byte[5000];
        Map<String, Runnable> operations = new LinkedHashMap<>();
        operations.put("new digest, 100 bytes", () -> digest().digest(small));
        operations.put("new digest, 5000 bytes", () -> digest().digest(large));
        MessageDigest reused = digest();
        reused.digest(small);
        operations.put("reused digest, 100 bytes", () -> reused.digest(small));
        operations.put("reused digest, direct buffer", () -> {
            reused.update(ByteBuffer.allocateDirect(100_000));
            reused.digest();
        });
        operations.put("digest clone", () -> {
            MessageDigest md = digest();
            md.update(large);
            try {
                ((MessageDigest) md.clone()).digest();
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
        });
        operations.put("clone of a reused digest with 100 bytes staged", () -> {
            reused.update(small);
            try {
                ((MessageDigest) reused.clone()).digest();
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
            reused.reset();
        });
        operations.put("new Mac, 100 bytes", () -> mac(key).doFinal(small));
        Mac reusedMac = mac(key);
        reusedMac.doFinal(small);
        operations.put("reused Mac, 100 bytes", () -> reusedMac.doFinal(small));
        operations.put("reused Mac, 5000 bytes", () -> reusedMac.doFinal(large));
        operations.put("Mac.init, 100-byte key", () -> {
            try {
                reusedMac.init(new SecretKeySpec(new byte[100], "HmacSM3"));
            } catch (java.security.InvalidKeyException e) {
                throw new AssertionError(e);
            }
        });
        StringBuilder report = new StringBuilder();
        boolean within = true;
        for (Map.Entry<String, Runnable> op : operations.entrySet()) {
            // Once with the pools as the earlier operations left them, once with no idle context, so that every
            // borrow makes one: the deeper of the two, whatever ran before.
            Map<String, Faults.Depth> depths = new TreeMap<>(Faults.depths(op.getValue()));
            Sm3Context.POOL.freeIdle();
            HmacContext.POOL.freeIdle();
            Faults.depths(op.getValue()).forEach((call, depth) -> depths.merge(call, depth,
                    (a, b) -> a.frames() >= b.frames() ? a : b));
            assertFalse(depths.isEmpty(), op.getKey() + " made no native call");
            for (Map.Entry<String, Faults.Depth> d : depths.entrySet()) {
                Faults.Depth depth = d.getValue();
                report.append(String.format("%-30s %-18s %d frames, %d classes %s%n", op.getKey(), d.getKey(),
                        depth.frames(), depth.classes().size(), depth.classes()));
                within &= depth.frames() <= MAX_FRAMES && depth.classes().size() <= MAX_CLASSES;
            }
        }
        System.out.print(report);
        assertTrue(within, report.toString());
    }

    private static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SM3", PROVIDER);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    private static Mac mac(byte[] key) {
        try {
            Mac mac = Mac.getInstance("HmacSM3", PROVIDER);
            mac.init(new SecretKeySpec(key, "HmacSM3"));
            return mac;
        } catch (java.security.GeneralSecurityException e) {
            throw new AssertionError(e);
        }
    }
}
