package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.internal.libcrypto.PooledContext;
import java.security.InvalidAlgorithmParameterException;
import java.security.Provider;
import java.security.spec.AlgorithmParameterSpec;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import javax.crypto.KDF;
import javax.crypto.SecretKey;
import javax.crypto.spec.HKDFParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.crypto.generators.HKDFBytesGenerator;
import org.bouncycastle.crypto.params.HKDFParameters;
import org.junit.jupiter.api.Test;

/**
 * KDF "HKDF-SM3" (JDK 25), run by Failsafe against the packaged jar, whose META-INF/versions/25 holds the KDF
 * engines: the published vectors in every mode, random cases and edge lengths against BouncyCastle, the key
 * types out, and no native context held after a derivation. The build runs it on both SM3 paths.
 */
class HkdfSM3IT {
    private static final Provider PROVIDER = new SM3Provider();
    private static final HexFormat HEX = HexFormat.of();

    private static KDF hkdf() throws Exception {
        return KDF.getInstance("HKDF-SM3", PROVIDER);
    }

    @Test
    void publishedVectorsInEveryMode() throws Exception {
        KDF kdf = hkdf();
        int valid = 0;
        int refused = 0;
        int withPrk = 0;
        for (Map<String, String> v : Stanzas.read(ChildJvm.vectors().resolve("hkdf_sm3.txt"))) {
            String name = v.get("Name");
            byte[] ikm = HEX.parseHex(v.get("IKM"));
            byte[] salt = HEX.parseHex(v.get("Salt"));
            byte[] info = HEX.parseHex(v.get("Info"));
            int length = Integer.parseInt(v.get("L"));
            HKDFParameterSpec both = HKDFParameterSpec.ofExtract().addIKM(ikm).addSalt(salt).thenExpand(info, length);
            if (v.get("Result").equals("invalid")) {
                InvalidAlgorithmParameterException e = assertThrows(InvalidAlgorithmParameterException.class,
                        () -> kdf.deriveData(both), name);
                assertEquals("Requested length exceeds maximum allowed length", e.getCause().getMessage(), name);
                refused++;
                continue;
            }
            byte[] okm = HEX.parseHex(v.get("OKM"));
            assertArrayEquals(okm, kdf.deriveData(both), name);
            byte[] prk = kdf.deriveData(HKDFParameterSpec.ofExtract().addIKM(ikm).addSalt(salt).extractOnly());
            if (v.containsKey("PRK")) {
                assertArrayEquals(HEX.parseHex(v.get("PRK")), prk, name);
                withPrk++;
            }
            assertArrayEquals(okm, kdf.deriveData(HKDFParameterSpec.expandOnly(
                    new SecretKeySpec(prk, "HKDF-PRK"), info, length)), name);
            valid++;
        }
        assertEquals(86, valid);
        assertEquals(3, refused);
        assertEquals(3, withPrk);
    }

    @Test
    void randomCasesAgreeWithBouncyCastle() {
        Seeds.run(300, seed -> {
            Random rnd = new Random(seed);
            byte[] ikm = bytes(rnd, rnd.nextInt(100));
            byte[] salt = bytes(rnd, rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(80));
            byte[] info = bytes(rnd, rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(100));
            int length = 1 + rnd.nextInt(rnd.nextBoolean() ? 64 : 8160);
            HKDFBytesGenerator bc = new HKDFBytesGenerator(new SM3Digest());
            bc.init(new HKDFParameters(ikm, salt, info));
            byte[] expected = new byte[length];
            bc.generateBytes(expected, 0, length);
            // Split IKM and salt: several keys are used one after another, as in the JDK.
            int cut = ikm.length / 2;
            HKDFParameterSpec spec = HKDFParameterSpec.ofExtract()
                    .addIKM(java.util.Arrays.copyOfRange(ikm, 0, cut)).addIKM(java.util.Arrays.copyOfRange(ikm, cut, ikm.length))
                    .addSalt(salt).thenExpand(info, length);
            assertArrayEquals(expected, hkdf().deriveData(spec), "seed " + seed);
        });
    }

    @Test
    void lengthsAroundABlockAgreeWithBouncyCastle() throws Exception {
        Random rnd = new Random(5869);
        for (int length : new int[] {1, 31, 32, 33, 63, 64, 65, 255 * 32}) {
            byte[] ikm = bytes(rnd, 32);
            byte[] salt = bytes(rnd, 32);
            byte[] info = bytes(rnd, 16);
            assertAgreesWithBouncyCastle(ikm, salt, info, length, "length " + length);
        }
    }

    @Test
    void inputsLongerThanABlockAgreeWithBouncyCastle() throws Exception {
        // A salt (the HMAC key of extract) longer than SM3's block is hashed first; IKM and info are hashed in
        // several blocks, and past 512 bytes (the native staging buffer) from the array in place.
        Random rnd = new Random(8998);
        int[][] sizes = {{1000, 32, 16}, {32, 65, 16}, {32, 200, 600}, {70000, 0, 0}, {0, 0, 1000}};
        for (int[] s : sizes) {
            assertAgreesWithBouncyCastle(bytes(rnd, s[0]), bytes(rnd, s[1]), bytes(rnd, s[2]), 100,
                    "IKM, salt, info of " + java.util.Arrays.toString(s) + " bytes");
        }
        // A PRK longer than a block is hashed first too.
        byte[] prk = bytes(rnd, 100);
        byte[] info = bytes(rnd, 20);
        byte[] expected = new byte[70];
        HKDFBytesGenerator bc = new HKDFBytesGenerator(new SM3Digest());
        bc.init(HKDFParameters.skipExtractParameters(prk, info));
        bc.generateBytes(expected, 0, expected.length);
        assertArrayEquals(expected, hkdf().deriveData(HKDFParameterSpec.expandOnly(
                new SecretKeySpec(prk, "HKDF-PRK"), info, expected.length)));
    }

    /** Extract then expand, and extract and expand apart, against BouncyCastle's HKDF over its SM3. */
    private static void assertAgreesWithBouncyCastle(byte[] ikm, byte[] salt, byte[] info, int length, String what)
            throws Exception {
        HKDFBytesGenerator bc = new HKDFBytesGenerator(new SM3Digest());
        bc.init(new HKDFParameters(ikm, salt, info));
        byte[] expected = new byte[length];
        bc.generateBytes(expected, 0, length);
        KDF kdf = hkdf();
        HKDFParameterSpec.Builder extract = HKDFParameterSpec.ofExtract().addIKM(ikm).addSalt(salt);
        assertArrayEquals(expected, kdf.deriveData(extract.thenExpand(info, length)), what);
        byte[] prk = kdf.deriveData(extract.extractOnly());
        assertArrayEquals(expected, kdf.deriveData(HKDFParameterSpec.expandOnly(
                new SecretKeySpec(prk, "HKDF-PRK"), info, length)), what + ", expanded apart");
    }

    @Test
    void derivationsHoldNoNativeContextAfterwards() throws Exception {
        HKDFParameterSpec spec = HKDFParameterSpec.ofExtract().addIKM(new byte[32]).addSalt(new byte[32])
                .thenExpand(new byte[16], 64);
        assertNoContextHeldAfterwards(hkdf(), i -> i % 2 == 0 ? spec : HKDFParameterSpec.expandOnly(
                new SecretKeySpec(new byte[32], "HKDF-PRK"), null, 1 + i % 300));
    }

    interface Specs {
        AlgorithmParameterSpec get(int i) throws Exception;
    }

    /**
     * A derivation borrows one pooled context and gives it back before it returns: a context claimed past
     * its end would wait for the GC, and each derivation would add one.
     */
    static void assertNoContextHeldAfterwards(KDF kdf, Specs specs) throws Exception {
        kdf.deriveData(specs.get(0));
        long before = PooledContext.live();
        for (int i = 0; i < 2000; i++) {
            kdf.deriveData(specs.get(i));
            long live = PooledContext.live();
            assertTrue(live <= before + 1, live + " native contexts after " + (i + 1) + " derivations, "
                    + before + " before");
        }
    }

    @Test
    void keysOutAreSecretKeySpecsOfTheNameAsked() throws Exception {
        HKDFParameterSpec spec = HKDFParameterSpec.ofExtract().addIKM(new byte[32]).thenExpand(null, 16);
        SecretKey key = hkdf().deriveKey("AES", spec);
        assertInstanceOf(SecretKeySpec.class, key);
        assertEquals("AES", key.getAlgorithm());
        assertEquals("RAW", key.getFormat());
        assertArrayEquals(hkdf().deriveData(spec), key.getEncoded());
        SecretKey prk = hkdf().deriveKey("Generic", HKDFParameterSpec.ofExtract().addIKM(new byte[32]).extractOnly());
        assertEquals(32, prk.getEncoded().length);
        assertEquals(null, hkdf().getParameters());
        assertEquals("HKDF-SM3", hkdf().getAlgorithm());
        assertEquals(SM3Provider.NAME, hkdf().getProviderName());
    }

    /** The engine zeroes each copy of key material it reads: IKMs (one or several), salts and the PRK. */
    @Test
    void keyBytesReadAreZeroedAfterEachMode() throws Exception {
        Random rnd = new Random(5870);
        byte[] ikm = bytes(rnd, 40);
        byte[] salt = bytes(rnd, 20);
        byte[] info = bytes(rnd, 10);
        byte[] prk = bytes(rnd, 32);
        HandedOutKey ikm1 = new HandedOutKey(java.util.Arrays.copyOfRange(ikm, 0, 15));
        HandedOutKey ikm2 = new HandedOutKey(java.util.Arrays.copyOfRange(ikm, 15, 40));
        HandedOutKey oneIkm = new HandedOutKey(ikm);
        HandedOutKey salt1 = new HandedOutKey(salt);
        HandedOutKey prkKey = new HandedOutKey(prk);
        KDF kdf = hkdf();
        assertArrayEquals(kdf.deriveData(HKDFParameterSpec.ofExtract().addIKM(ikm).addSalt(salt).thenExpand(info, 70)),
                kdf.deriveData(HKDFParameterSpec.ofExtract().addIKM(ikm1).addIKM(ikm2).addSalt(salt1)
                        .thenExpand(info, 70)));
        assertArrayEquals(kdf.deriveData(HKDFParameterSpec.ofExtract().addIKM(ikm).addSalt(salt).extractOnly()),
                kdf.deriveData(HKDFParameterSpec.ofExtract().addIKM(oneIkm).addSalt(salt).extractOnly()));
        assertArrayEquals(kdf.deriveData(HKDFParameterSpec.expandOnly(new SecretKeySpec(prk, "HKDF-PRK"), info, 40)),
                kdf.deriveData(HKDFParameterSpec.expandOnly(prkKey, info, 40)));
        for (HandedOutKey k : List.of(ikm1, ikm2, oneIkm, salt1, prkKey)) {
            assertEquals(List.of(), k.notZeroed().stream().map(HEX::formatHex).toList(), "copies left unzeroed");
        }
    }

    @Test
    void providerListsItsKdfs() {
        assertEquals(List.of("HKDF-SM3", "X963KDF-SM3"), PROVIDER.getServices().stream()
                .filter(s -> s.getType().equals("KDF")).map(Provider.Service::getAlgorithm).sorted().toList());
        assertEquals("X963KDF-SM3", PROVIDER.getService("KDF", "SM2KDF").getAlgorithm());
        // Named as strings, so that neither class loads before it is used: each must be what its service makes.
        for (String kdf : List.of("HKDF-SM3", "X963KDF-SM3")) {
            Provider.Service s = PROVIDER.getService("KDF", kdf);
            assertEquals(s.getClassName(), assertDoesNotThrow(() -> s.newInstance(null)).getClass().getName(), kdf);
        }
    }

    static byte[] bytes(Random rnd, int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }
}
