package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.Key;
import java.security.Provider;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.KeySpec;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.SecretKeyFactory;
import javax.crypto.interfaces.PBEKey;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.crypto.generators.PKCS5S2ParametersGenerator;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** PBKDF2WithHmacSM3 against BouncyCastle's, and call for call against the JDK's PBKDF2WithHmacSHA256. */
class PBKDF2HmacSM3Test {
    private static final Provider PROVIDER = new SM3Provider();
    private static final Provider BC = new BouncyCastleProvider();
    private static final String ALGORITHM = "PBKDF2WithHmacSM3";
    private static final byte[] SALT = "NaCl-and-more".getBytes(StandardCharsets.US_ASCII);
    // Most random cases stay cheap for BouncyCastle's pure-Java loop; a few go up to 100 000.
    private static final int CASES = 60;
    private static final long ITERATION_BUDGET = 1_500_000;

    private static SecretKeyFactory ours() throws Exception {
        return SecretKeyFactory.getInstance(ALGORITHM, PROVIDER);
    }

    private static byte[] bouncyCastle(PBEKeySpec spec) throws Exception {
        char[] password = spec.getPassword();
        if (password.length > 0) {
            return SecretKeyFactory.getInstance("PBKDF2WITHHMACSM3", BC).generateSecret(spec).getEncoded();
        }
        // BouncyCastle's SecretKeyFactory refuses empty passwords; its PBKDF2 generator takes them.
        PKCS5S2ParametersGenerator generator = new PKCS5S2ParametersGenerator(new SM3Digest());
        generator.init(new byte[0], spec.getSalt(), spec.getIterationCount());
        return ((KeyParameter) generator.generateDerivedParameters(spec.getKeyLength())).getKey();
    }

    @Test
    void randomInputsAgreeWithBouncyCastle() throws Exception {
        long[] totals = new long[2];
        SecretKeyFactory factory = ours();
        long base = Seeds.run(CASES, seed -> {
            Random rnd = new Random(seed);
            // Log-uniform over 1..100 000, kept within the budget.
            int count = (int) Math.min(100_000, Math.exp(rnd.nextDouble() * Math.log(100_001)));
            int bits = 8 + rnd.nextInt(rnd.nextInt(4) == 0 ? 2048 : 512);
            int blocks = (bits / 8 + 31) / 32;
            if (totals[1] + (long) count * blocks > ITERATION_BUDGET) {
                count = 1 + rnd.nextInt(100);
            }
            totals[0]++;
            totals[1] += (long) count * blocks;
            agreesWithBouncyCastle(factory, rnd, count, bits);
        });
        System.out.printf("PBKDF2HmacSM3Test: %d random cases, %d block iterations, base seed %d%n",
                totals[0], totals[1], base);
    }

    /**
     * The counts where a loop goes wrong: U_1 alone, a single XOR, and long loops; every other case asks for
     * several blocks (33 to 160 bytes), whose counter and cut the others reach less often.
     */
    @ParameterizedTest
    @CsvSource({"1, 24", "2, 24", "1000, 8", "100000, 2"})
    void randomCasesAtEachIterationCountAgreeWithBouncyCastle(int iterations, int cases) throws Exception {
        SecretKeyFactory factory = ours();
        long base = Seeds.run(cases, seed -> {
            Random rnd = new Random(seed);
            int bytes = seed % 2 == 0 ? 33 + rnd.nextInt(iterations > 1000 ? 64 : 128) : 1 + rnd.nextInt(32);
            agreesWithBouncyCastle(factory, rnd, iterations, bytes * 8);
        });
        System.out.printf("PBKDF2HmacSM3Test: %d iterations, base seed %d%n", iterations, base);
    }

    @Test
    void oneHundredThousandIterations() throws Exception {
        PBEKeySpec spec = new PBEKeySpec("correct horse battery staple".toCharArray(), SALT, 100_000, 256);
        assertArrayEquals(bouncyCastle(spec), ours().generateSecret(spec).getEncoded());
    }

    @Test
    void belowOpenSslsSp800132BoundsAsPkcs5Allows() throws Exception {
        // One-byte salt, one iteration, 8-bit key: fine for PKCS #5, the JDK and BouncyCastle.
        PBEKeySpec spec = new PBEKeySpec("pw".toCharArray(), new byte[] {1}, 1, 8);
        byte[] key = ours().generateSecret(spec).getEncoded();
        assertEquals(1, key.length);
        assertArrayEquals(bouncyCastle(spec), key);
    }

    /** A random password and salt with {@code count} and {@code bits}: the same key as BouncyCastle's. */
    private static void agreesWithBouncyCastle(SecretKeyFactory factory, Random rnd, int count, int bits)
            throws Exception {
        char[] password = password(rnd);
        byte[] salt = new byte[1 + rnd.nextInt(64)];
        rnd.nextBytes(salt);
        PBEKeySpec spec = new PBEKeySpec(password, salt, count, bits);
        String what = "password length " + password.length + ", salt " + salt.length + " bytes, " + count
                + " iterations, " + bits + " bits";
        byte[] key = factory.generateSecret(spec).getEncoded();
        assertEquals(bits / 8, key.length, what);
        assertArrayEquals(bouncyCastle(spec), key, what);
    }

    /** Random code points, BMP and supplementary, sometimes none. */
    private static char[] password(Random rnd) {
        StringBuilder sb = new StringBuilder();
        int n = rnd.nextInt(8) == 0 ? 0 : rnd.nextInt(40);
        for (int i = 0; i < n; i++) {
            int cp = switch (rnd.nextInt(4)) {
                case 0 -> 0x20 + rnd.nextInt(0x5f);
                case 1 -> 0xa0 + rnd.nextInt(0x700);
                case 2 -> 0x4e00 + rnd.nextInt(0x5000);
                default -> 0x1f300 + rnd.nextInt(0x300);
            };
            sb.appendCodePoint(cp);
        }
        return sb.toString().toCharArray();
    }

    @Test
    void unpairedSurrogatesAreEncodedAsTheJdkEncodesThem() throws Exception {
        // The JDK's PBKDF2 turns an unpaired surrogate into '?'; so must we, with the same password bytes.
        char[] odd = {'a', '\ud800', 'b'};
        char[] plain = {'a', '?', 'b'};
        SecretKeyFactory jdk = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256", "SunJCE");
        assertArrayEquals(jdk.generateSecret(new PBEKeySpec(plain, SALT, 3, 256)).getEncoded(),
                jdk.generateSecret(new PBEKeySpec(odd, SALT, 3, 256)).getEncoded());
        assertArrayEquals(ours().generateSecret(new PBEKeySpec(plain, SALT, 3, 256)).getEncoded(),
                ours().generateSecret(new PBEKeySpec(odd, SALT, 3, 256)).getEncoded());
    }

    @Test
    void theKeyDescribesItself() throws Exception {
        char[] password = "pässwörd".toCharArray();
        SecretKey key = ours().generateSecret(new PBEKeySpec(password, SALT, 1000, 200));
        assertEquals(ALGORITHM, key.getAlgorithm());
        assertEquals("RAW", key.getFormat());
        PBEKey pbe = (PBEKey) key;
        assertArrayEquals(password, pbe.getPassword());
        assertArrayEquals(SALT, pbe.getSalt());
        assertEquals(1000, pbe.getIterationCount());
        assertEquals(25, key.getEncoded().length);

        SecretKey same = new SecretKeySpec(key.getEncoded(), "pbkdf2withhmacsm3");
        assertEquals(key, same);
        assertEquals(key.hashCode(), ours().generateSecret(new PBEKeySpec(password, SALT, 1000, 200)).hashCode());
        assertNotEquals(key, new SecretKeySpec(key.getEncoded(), "PBKDF2WithHmacSHA256"));

        // Usable as an HMAC key, as the JDK's PBKDF2 keys are.
        Mac mac = Mac.getInstance("HmacSM3", PROVIDER);
        mac.init(key);
        assertArrayEquals(HmacSM3Test.reference(key.getEncoded(), SALT), mac.doFinal(SALT));

        // Serialized as the raw key bytes, as the JDK's PBKDF2 keys are.
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(key);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            Key back = (Key) in.readObject();
            assertEquals(ALGORITHM, back.getAlgorithm());
            assertArrayEquals(key.getEncoded(), back.getEncoded());
        }

        key.destroy();
        assertTrue(key.isDestroyed());
        assertThrows(IllegalStateException.class, key::getEncoded);
        assertThrows(IllegalStateException.class, pbe::getPassword);
    }

    @Test
    void aDestroyedKeyAnswersAsTheJdksPbeKeyDoes() throws Exception {
        PBEKeySpec spec = new PBEKeySpec("pw".toCharArray(), SALT, 10, 256);
        SecretKey ours1 = ours().generateSecret(spec);
        SecretKey ours2 = ours().generateSecret(spec);
        // The JDK's own destroyable PBE key, beside ours: both answer the same questions the same way.
        SecretKeyFactory jdkFactory = SecretKeyFactory.getInstance("PBEWithHmacSHA256AndAES_128", "SunJCE");
        SecretKey jdk1 = jdkFactory.generateSecret(new PBEKeySpec("pw".toCharArray()));
        SecretKey jdk2 = jdkFactory.generateSecret(new PBEKeySpec("pw".toCharArray()));
        for (SecretKey[] pair : new SecretKey[][] {{ours1, ours2}, {jdk1, jdk2}}) {
            SecretKey destroyed = pair[0];
            SecretKey alive = pair[1];
            assertEquals(alive, destroyed, alive.getClass().getName());
            destroyed.destroy();
            String what = destroyed.getClass().getName();
            assertTrue(destroyed.isDestroyed(), what);
            assertNotEquals(alive, destroyed, what);
            assertNotEquals(destroyed, alive, what);
            assertEquals(destroyed, destroyed, what);
            assertEquals(destroyed.hashCode(), destroyed.hashCode(), what);
            assertEquals("RAW", destroyed.getFormat(), what);
            assertTrue(destroyed.getAlgorithm().startsWith("PB"), what);
        }
        PBEKey pbe = (PBEKey) ours1;
        assertArrayEquals(SALT, pbe.getSalt());
        assertEquals(10, pbe.getIterationCount());
        // Here ours follows javax.security.auth.Destroyable, where the JDK returns zeroes.
        assertThrows(IllegalStateException.class, ours1::getEncoded);
        assertThrows(IllegalStateException.class, pbe::getPassword);
        assertThrows(IllegalStateException.class,
                () -> new ObjectOutputStream(new ByteArrayOutputStream()).writeObject(ours1));
        // Two destroyed keys are not equal to each other either.
        ours2.destroy();
        assertNotEquals(ours1, ours2);
    }

    @Test
    void keySpecAndTranslation() throws Exception {
        SecretKeyFactory factory = ours();
        PBEKeySpec spec = new PBEKeySpec("pw".toCharArray(), SALT, 5, 128);
        SecretKey key = factory.generateSecret(spec);
        PBEKeySpec back = (PBEKeySpec) factory.getKeySpec(key, PBEKeySpec.class);
        assertArrayEquals(spec.getPassword(), back.getPassword());
        assertArrayEquals(SALT, back.getSalt());
        assertEquals(5, back.getIterationCount());
        assertEquals(128, back.getKeyLength());

        assertSame(key, factory.translateKey(key));
        // Another provider's PBEKey of this algorithm is derived again from its password, salt and count.
        SecretKey translated = factory.translateKey(new TestPBEKey(ALGORITHM, "pw".toCharArray(), SALT, 5,
                new byte[16]));
        assertArrayEquals(key.getEncoded(), translated.getEncoded());
    }

    /**
     * The same calls on PBKDF2WithHmacSM3 and the JDK's PBKDF2WithHmacSHA256 end the same way: both
     * succeed (with keys of the same length), or both throw the same exception class.
     */
    @Test
    void exceptionsMatchTheJdksPbkdf2WithHmacSha256CallForCall() throws Exception {
        Map<String, FactoryCall> calls = new LinkedHashMap<>();
        calls.put("generateSecret(null)", (f, alg) -> f.generateSecret(null));
        calls.put("generateSecret(SecretKeySpec)", (f, alg) -> f.generateSecret(new SecretKeySpec(SALT, alg)));
        calls.put("no salt", (f, alg) -> f.generateSecret(new PBEKeySpec("pw".toCharArray())));
        calls.put("no key length", (f, alg) -> f.generateSecret(new PBEKeySpec("pw".toCharArray(), SALT, 1)));
        calls.put("cleared password", (f, alg) -> {
            PBEKeySpec spec = new PBEKeySpec("pw".toCharArray(), SALT, 1, 128);
            spec.clearPassword();
            return f.generateSecret(spec);
        });
        calls.put("null password", (f, alg) -> f.generateSecret(new PBEKeySpec(null, SALT, 1, 128)));
        calls.put("empty password", (f, alg) -> f.generateSecret(new PBEKeySpec(new char[0], SALT, 1, 128)));
        for (int bits : new int[] {1, 7, 8, 9, 255, 257, 4096}) {
            calls.put(bits + "-bit key",
                    (f, alg) -> f.generateSecret(new PBEKeySpec("pw".toCharArray(), SALT, 2, bits)));
        }
        calls.put("getKeySpec(key, PBEKeySpec)", (f, alg) -> f.getKeySpec(derive(f), PBEKeySpec.class));
        calls.put("getKeySpec(key, KeySpec)", (f, alg) -> f.getKeySpec(derive(f), KeySpec.class));
        calls.put("getKeySpec(key, SecretKeySpec)", (f, alg) -> f.getKeySpec(derive(f), SecretKeySpec.class));
        calls.put("getKeySpec(key, null)", (f, alg) -> f.getKeySpec(derive(f), null));
        calls.put("getKeySpec(null, PBEKeySpec)", (f, alg) -> f.getKeySpec(null, PBEKeySpec.class));
        calls.put("getKeySpec(SecretKeySpec, PBEKeySpec)",
                (f, alg) -> f.getKeySpec(new SecretKeySpec(SALT, alg), PBEKeySpec.class));
        calls.put("translateKey(null)", (f, alg) -> f.translateKey(null));
        calls.put("translateKey(own key)", (f, alg) -> f.translateKey(derive(f)));
        calls.put("translateKey(SecretKeySpec)", (f, alg) -> f.translateKey(new SecretKeySpec(SALT, alg)));
        calls.put("translateKey(other algorithm)", (f, alg) -> f.translateKey(new SecretKeySpec(SALT, "AES")));
        calls.put("translateKey(PBEKey)",
                (f, alg) -> f.translateKey(new TestPBEKey(alg, "pw".toCharArray(), SALT, 3, new byte[20])));
        calls.put("translateKey(PBEKey, other format)", (f, alg) -> f.translateKey(
                new TestPBEKey(alg, "pw".toCharArray(), SALT, 3, new byte[20]) {
                    @Override
                    public String getFormat() {
                        return "PKCS#8";
                    }
                }));
        calls.put("translateKey(PBEKey, no iterations)",
                (f, alg) -> f.translateKey(new TestPBEKey(alg, "pw".toCharArray(), SALT, 0, new byte[20])));
        calls.put("translateKey(PBEKey, no salt)",
                (f, alg) -> f.translateKey(new TestPBEKey(alg, "pw".toCharArray(), null, 3, new byte[20])));
        calls.put("translateKey(PBEKey, empty key)",
                (f, alg) -> f.translateKey(new TestPBEKey(alg, "pw".toCharArray(), SALT, 3, new byte[0])));
        for (Map.Entry<String, FactoryCall> call : calls.entrySet()) {
            String jdk = outcome(SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256", "SunJCE"),
                    "PBKDF2WithHmacSHA256", call.getValue());
            String ours = outcome(ours(), ALGORITHM, call.getValue());
            assertEquals(jdk, ours, call.getKey());
        }
    }

    private static SecretKey derive(SecretKeyFactory f) throws InvalidKeySpecException {
        return f.generateSecret(new PBEKeySpec("pw".toCharArray(), SALT, 2, 128));
    }

    interface FactoryCall {
        Object call(SecretKeyFactory factory, String algorithm) throws Exception;
    }

    private static String outcome(SecretKeyFactory factory, String algorithm, FactoryCall call) {
        try {
            Object result = call.call(factory, algorithm);
            if (result instanceof Key k) {
                return "key of " + k.getEncoded().length + " bytes";
            }
            return "returns " + (result == null ? null : result.getClass().getSimpleName());
        } catch (Exception e) {
            return e.getClass().getName();
        }
    }

    /** A PBEKey from some other provider. */
    private static class TestPBEKey implements PBEKey {
        private static final long serialVersionUID = 1L;
        private final String algorithm;
        private final char[] password;
        private final byte[] salt;
        private final int iterations;
        private final byte[] encoded;

        TestPBEKey(String algorithm, char[] password, byte[] salt, int iterations, byte[] encoded) {
            this.algorithm = algorithm;
            this.password = password;
            this.salt = salt;
            this.iterations = iterations;
            this.encoded = encoded;
        }

        @Override
        public char[] getPassword() {
            return password.clone();
        }

        @Override
        public byte[] getSalt() {
            return salt == null ? null : salt.clone();
        }

        @Override
        public int getIterationCount() {
            return iterations;
        }

        @Override
        public String getAlgorithm() {
            return algorithm;
        }

        @Override
        public String getFormat() {
            return "RAW";
        }

        @Override
        public byte[] getEncoded() {
            return encoded.clone();
        }
    }
}
