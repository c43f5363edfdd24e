package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.security.InvalidAlgorithmParameterException;
import java.security.Provider;
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
 * engines: the published vectors in every mode, random cases against BouncyCastle, the key types out.
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

    @Test
    void providerListsItsKdfs() {
        assertEquals(List.of("HKDF-SM3", "X963KDF-SM3"), PROVIDER.getServices().stream()
                .filter(s -> s.getType().equals("KDF")).map(Provider.Service::getAlgorithm).sorted().toList());
        assertEquals("X963KDF-SM3", PROVIDER.getService("KDF", "SM2KDF").getAlgorithm());
    }

    static byte[] bytes(Random rnd, int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }
}
