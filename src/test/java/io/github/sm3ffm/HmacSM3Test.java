package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidParameterException;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import javax.crypto.KeyGenerator;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.junit.jupiter.api.Test;

/** HmacSM3 and its KeyGenerator as a user sees them: lifecycle, keys, threads, and parity with HmacSHA256. */
class HmacSM3Test {
    private static final Provider PROVIDER = new SM3Provider();
    private static final HexFormat HEX = HexFormat.of();
    private static final byte[] KEY = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    static Mac mac() throws Exception {
        return Mac.getInstance("HmacSM3", PROVIDER);
    }

    /** BouncyCastle's HMAC-SM3 of {@code message} under {@code key}. */
    static byte[] reference(byte[] key, byte[] message) {
        HMac h = new HMac(new SM3Digest());
        h.init(new KeyParameter(key));
        h.update(message, 0, message.length);
        byte[] out = new byte[32];
        h.doFinal(out, 0);
        return out;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void lengthAndAlgorithm() throws Exception {
        Mac mac = mac();
        assertEquals(32, mac.getMacLength());
        assertEquals("HmacSM3", mac.getAlgorithm());
        assertEquals(SM3Provider.NAME, mac.getProvider().getName());
    }

    @Test
    void keysOfEveryLengthAgreeWithBouncyCastle() throws Exception {
        Mac mac = mac();
        byte[] message = ascii("keys shorter than, equal to and longer than the SM3 block");
        SecureRandom random = new SecureRandom();
        // 0, around the 64-byte block, and past the 64 KiB key that takes the native-copy path.
        for (int length : new int[] {0, 1, 31, 32, 63, 64, 65, 127, 128, 1000, 65_536, 65_537, 200_000}) {
            byte[] key = new byte[length];
            random.nextBytes(key);
            mac.init(new RawKey(key));
            assertArrayEquals(reference(key, message), mac.doFinal(message), "key length " + length);
        }
    }

    @Test
    void anySecretKeyIsUsedByItsEncoding() throws Exception {
        Mac mac = mac();
        byte[] message = ascii("abc");
        mac.init(new SecretKeySpec(KEY, "AES"));
        byte[] a = mac.doFinal(message);
        mac.init(new SecretKeySpec(KEY, "HmacSM3"));
        assertArrayEquals(a, mac.doFinal(message));
        assertArrayEquals(reference(KEY, message), a);
    }

    @Test
    void doFinalAndResetKeepTheKey() throws Exception {
        Mac mac = mac();
        mac.init(new RawKey(KEY));
        byte[] m = ascii("message");
        byte[] first = mac.doFinal(m);
        assertArrayEquals(first, mac.doFinal(m), "doFinal starts over with the same key");
        mac.update(ascii("discarded by reset"));
        mac.reset();
        assertArrayEquals(first, mac.doFinal(m), "reset drops the input, keeps the key");
        mac.update(new byte[100_000]);
        mac.reset();
        mac.reset();
        assertArrayEquals(first, mac.doFinal(m));
    }

    @Test
    void initWithANewKeyDropsTheMessageSoFar() throws Exception {
        Mac mac = mac();
        mac.init(new RawKey(KEY));
        mac.update(ascii("for the old key"));
        byte[] other = ascii("another key");
        mac.init(new RawKey(other));
        assertArrayEquals(reference(other, ascii("m")), mac.doFinal(ascii("m")));
        mac.update(ascii("for the second key"));
        mac.init(new RawKey(new byte[0]));
        assertArrayEquals(reference(new byte[0], ascii("m")), mac.doFinal(ascii("m")),
                "an empty key replaces the old one");
    }

    @Test
    void aRejectedKeyLeavesTheMacAsItWas() throws Exception {
        // The JDK's HmacSHA256 checks the key before touching its state; so does HmacSM3.
        for (String provider : List.of("ours", "SunJCE")) {
            Mac mac = provider.equals("ours") ? mac() : Mac.getInstance("HmacSHA256", "SunJCE");
            mac.init(new RawKey(KEY));
            mac.update(ascii("first half"));
            assertThrows(java.security.InvalidKeyException.class, () -> mac.init(null));
            assertThrows(InvalidAlgorithmParameterException.class,
                    () -> mac.init(new RawKey(ascii("new")), new IvParameterSpec(new byte[16])));
            mac.update(ascii(" second half"));
            Mac fresh = provider.equals("ours") ? mac() : Mac.getInstance("HmacSHA256", "SunJCE");
            fresh.init(new RawKey(KEY));
            assertArrayEquals(fresh.doFinal(ascii("first half second half")), mac.doFinal(), provider);
        }
    }

    @Test
    void clones() throws Exception {
        Mac unkeyed = mac();
        Mac early = (Mac) unkeyed.clone();
        early.init(new RawKey(KEY));
        assertArrayEquals(reference(KEY, ascii("x")), early.doFinal(ascii("x")), "clone taken before init");

        Mac mac = mac();
        mac.init(new RawKey(KEY));
        byte[] big = new byte[200_000];
        new SecureRandom().nextBytes(big);
        mac.update(ascii("staged"));
        Mac copy = (Mac) mac.clone();
        mac.update(big);
        Mac copy2 = (Mac) mac.clone();
        byte[] whole = concat(ascii("staged"), big);
        assertArrayEquals(reference(KEY, whole), mac.doFinal());
        assertArrayEquals(reference(KEY, ascii("staged")), copy.doFinal(), "the clone kept the staged bytes");
        assertArrayEquals(reference(KEY, whole), copy2.doFinal());
        assertArrayEquals(reference(KEY, ascii("again")), copy.doFinal(ascii("again")), "a clone keeps the key");
        Mac afterFinal = (Mac) mac.clone();
        assertArrayEquals(reference(KEY, ascii("y")), afterFinal.doFinal(ascii("y")));
    }

    @Test
    void handedOffAcrossThreads() throws Exception {
        AtomicReference<Mac> shared = new AtomicReference<>();
        byte[] m1 = new byte[70_000];
        Arrays.fill(m1, (byte) 7);
        inThread(() -> {
            shared.set(mac());
            return null;
        });
        inThread(() -> {
            shared.get().init(new RawKey(KEY));
            return null;
        });
        inThread(() -> {
            shared.get().update(ascii("abc"));
            return null;
        });
        inThread(() -> {
            shared.get().update(m1);
            shared.get().update(ByteBuffer.allocateDirect(5).put(ascii("tail!")).flip());
            return null;
        });
        Mac copy = inThread(() -> (Mac) shared.get().clone());
        byte[] tag = inThread(() -> shared.get().doFinal());
        byte[] expected = reference(KEY, concat(ascii("abc"), m1, ascii("tail!")));
        assertArrayEquals(expected, tag);
        assertArrayEquals(expected, copy.doFinal());
    }

    private static <T> T inThread(Callable<T> step) throws Exception {
        AtomicReference<T> result = new AtomicReference<>();
        AtomicReference<Exception> failure = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                result.set(step.call());
            } catch (Exception e) {
                failure.set(e);
            }
        });
        t.start();
        t.join();
        if (failure.get() != null) {
            throw failure.get();
        }
        return result.get();
    }

    @Test
    void threadsRacingOnOneMacCannotBreakIt() throws Exception {
        // The JCA does not allow this; the results may be wrong, but the JVM and the Mac survive.
        Mac mac = mac();
        mac.init(new RawKey(KEY));
        byte[] big = new byte[100_000];
        int threads = 4;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> racers = new ArrayList<>();
        AtomicReference<Throwable> unexpected = new AtomicReference<>();
        for (int t = 0; t < threads; t++) {
            int seed = t;
            Thread racer = new Thread(() -> {
                java.util.Random rnd = new java.util.Random(seed);
                try {
                    start.await();
                    for (int i = 0; i < 3000; i++) {
                        switch (rnd.nextInt(6)) {
                            case 0 -> mac.update((byte) i);
                            case 1 -> mac.update(big, 0, rnd.nextInt(200));
                            case 2 -> mac.update(big, 0, 1000 + rnd.nextInt(big.length - 1000));
                            case 3 -> mac.doFinal();
                            case 4 -> mac.reset();
                            default -> ((Mac) mac.clone()).doFinal();
                        }
                    }
                } catch (java.security.ProviderException e) {
                    // A raced native call may report failure; that is not what this test is about.
                } catch (Throwable e) {
                    unexpected.compareAndSet(null, e);
                }
            });
            racers.add(racer);
            racer.start();
        }
        start.countDown();
        for (Thread racer : racers) {
            racer.join();
        }
        if (unexpected.get() != null) {
            throw new AssertionError("racing threads got " + unexpected.get(), unexpected.get());
        }
        mac.reset();
        assertArrayEquals(reference(KEY, ascii("after the race")), mac.doFinal(ascii("after the race")));
    }

    /**
     * The same calls on HmacSM3 and on the JDK's HmacSHA256 end the same way: both succeed, or both throw
     * the same exception class.
     */
    @Test
    void exceptionsMatchTheJdksHmacSha256CallForCall() throws Exception {
        Map<String, MacCall> calls = new LinkedHashMap<>();
        calls.put("init(null)", m -> m.init(null));
        calls.put("init(null, null)", m -> m.init(null, null));
        calls.put("init(key with no encoding)", m -> m.init(new RawKey(null)));
        calls.put("init(a public key)", m -> m.init(KeyPairGenerator.getInstance("EC").generateKeyPair().getPublic()));
        calls.put("init(key, IvParameterSpec)", m -> m.init(new RawKey(KEY), new IvParameterSpec(new byte[16])));
        calls.put("init(null, IvParameterSpec)", m -> m.init(null, new IvParameterSpec(new byte[16])));
        calls.put("init(key, null)", m -> m.init(new RawKey(KEY), null));
        calls.put("init(empty key)", m -> m.init(new RawKey(new byte[0])));
        calls.put("init(AES key)", m -> m.init(new SecretKeySpec(KEY, "AES")));
        calls.put("update(byte) before init", m -> m.update((byte) 1));
        calls.put("update(byte[]) before init", m -> m.update(KEY));
        calls.put("update(ByteBuffer) before init", m -> m.update(ByteBuffer.wrap(KEY)));
        calls.put("doFinal() before init", Mac::doFinal);
        calls.put("doFinal(byte[], int) before init", m -> m.doFinal(new byte[64], 0));
        calls.put("reset() before init", Mac::reset);
        calls.put("getMacLength() before init", Mac::getMacLength);
        calls.put("clone() before init", Mac::clone);
        calls.put("update(null byte[])", m -> keyed(m).update((byte[]) null));
        calls.put("update(null, 0, 0)", m -> keyed(m).update(null, 0, 0));
        calls.put("update(array, -1, 2)", m -> keyed(m).update(KEY, -1, 2));
        calls.put("update(array, 2, -1)", m -> keyed(m).update(KEY, 2, -1));
        calls.put("update(array, 10, 7)", m -> keyed(m).update(KEY, 10, 7));
        calls.put("update(array, 16, 0)", m -> keyed(m).update(KEY, 16, 0));
        calls.put("update(array, 17, 0)", m -> keyed(m).update(KEY, 17, 0));
        calls.put("update(null ByteBuffer)", m -> keyed(m).update((ByteBuffer) null));
        calls.put("update(empty ByteBuffer)", m -> keyed(m).update(ByteBuffer.allocate(0)));
        calls.put("doFinal(null, 0)", m -> keyed(m).doFinal(null, 0));
        calls.put("doFinal(short array, 0)", m -> keyed(m).doFinal(new byte[31], 0));
        calls.put("doFinal(array, offset too far)", m -> keyed(m).doFinal(new byte[40], 9));
        calls.put("doFinal(array, -1)", m -> keyed(m).doFinal(new byte[40], -1));
        calls.put("doFinal(array, exact fit)", m -> keyed(m).doFinal(new byte[40], 8));
        calls.put("doFinal(null byte[])", m -> keyed(m).doFinal(null));
        for (Map.Entry<String, MacCall> call : calls.entrySet()) {
            String jdk = outcome(Mac.getInstance("HmacSHA256", "SunJCE"), call.getValue());
            String ours = outcome(mac(), call.getValue());
            assertEquals(jdk, ours, call.getKey());
        }
    }

    private static Mac keyed(Mac m) throws Exception {
        m.init(new RawKey(KEY));
        return m;
    }

    interface MacCall {
        void call(Mac mac) throws Exception;
    }

    private static String outcome(Mac mac, MacCall call) {
        try {
            call.call(mac);
            return "returns";
        } catch (Exception e) {
            return e.getClass().getName();
        }
    }

    @Test
    void bouncyCastleThroughItsOwnJcaNameAgrees() throws Exception {
        Provider bc = new BouncyCastleProvider();
        SecureRandom random = new SecureRandom();
        Mac ours = mac();
        for (int i = 0; i < 50; i++) {
            byte[] key = new byte[1 + random.nextInt(200)];
            byte[] message = new byte[random.nextInt(3000)];
            random.nextBytes(key);
            random.nextBytes(message);
            Mac theirs = Mac.getInstance("HMACSM3", bc);
            theirs.init(new SecretKeySpec(key, "HMACSM3"));
            ours.init(new SecretKeySpec(key, "HmacSM3"));
            assertArrayEquals(theirs.doFinal(message), ours.doFinal(message), HEX.formatHex(key));
        }
    }

    @Test
    void keyGenerator() throws Exception {
        for (String name : List.of("HmacSM3", "HMAC-SM3", "HMAC/SM3", "SM3HMac", "1.2.156.10197.1.401.2",
                "OID.1.2.156.10197.1.401.2")) {
            KeyGenerator kg = KeyGenerator.getInstance(name, PROVIDER);
            SecretKey k = kg.generateKey();
            assertEquals("HmacSM3", k.getAlgorithm(), name);
            assertEquals("RAW", k.getFormat());
            assertEquals(32, k.getEncoded().length, "256 bits by default");
        }
        KeyGenerator kg = KeyGenerator.getInstance("HmacSM3", PROVIDER);
        kg.init(128);
        assertEquals(16, kg.generateKey().getEncoded().length);
        kg.init(41);
        assertEquals(6, kg.generateKey().getEncoded().length, "bits round up to bytes");
        kg.init(new SecureRandom());
        assertEquals(32, kg.generateKey().getEncoded().length, "init(random) restores the default size");
        assertFalse(Arrays.equals(kg.generateKey().getEncoded(), kg.generateKey().getEncoded()));

        // The key is exactly what the SecureRandom gave.
        byte[] fixed = HEX.parseHex("00112233445566778899aabbccddeeff");
        kg.init(128, new FixedRandom(fixed));
        assertArrayEquals(fixed, kg.generateKey().getEncoded());

        Mac mac = mac();
        mac.init(kg.generateKey());
        assertEquals(32, mac.doFinal().length);
    }

    @Test
    void keyGeneratorRefusesAsTheJdksHmacSha256GeneratorDoes() throws Exception {
        for (KeyGenerator kg : List.of(KeyGenerator.getInstance("HmacSM3", PROVIDER),
                KeyGenerator.getInstance("HmacSHA256", "SunJCE"))) {
            assertThrows(InvalidParameterException.class, () -> kg.init(39));
            assertThrows(InvalidParameterException.class, () -> kg.init(0));
            assertThrows(InvalidParameterException.class, () -> kg.init(-8));
            assertThrows(InvalidAlgorithmParameterException.class, () -> kg.init(new IvParameterSpec(new byte[16])));
            assertThrows(InvalidAlgorithmParameterException.class, () -> kg.init((IvParameterSpec) null));
            kg.init(40);
            assertEquals(5, kg.generateKey().getEncoded().length);
        }
    }

    @Test
    void providerListsTheServices() {
        Provider.Service mac = PROVIDER.getService("Mac", "HMAC-SM3");
        assertEquals("HmacSM3", mac.getAlgorithm());
        assertEquals("HmacSM3", PROVIDER.getService("KeyGenerator", "OID.1.2.156.10197.1.401.2").getAlgorithm());
        assertEquals("PBKDF2WithHmacSM3",
                PROVIDER.getService("SecretKeyFactory", "PBKDF2WITHHMACSM3").getAlgorithm());
        assertThrows(InvalidParameterException.class, () -> mac.newInstance("a parameter"));
        for (String alias : List.of("HMAC/SM3", "SM3HMac", "1.2.156.10197.1.401.2", "OID.1.2.156.10197.1.401.2")) {
            assertTrue(mac == PROVIDER.getService("Mac", alias), alias);
        }
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    /** A SecureRandom that repeats the given bytes. */
    static final class FixedRandom extends SecureRandom {
        private static final long serialVersionUID = 1L;
        private final byte[] bytes;

        FixedRandom(byte[] bytes) {
            this.bytes = bytes.clone();
        }

        @Override
        public void nextBytes(byte[] out) {
            for (int i = 0; i < out.length; i++) {
                out[i] = bytes[i % bytes.length];
            }
        }
    }
}
