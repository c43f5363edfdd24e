package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.bouncycastle.crypto.generators.KDF2BytesGenerator;
import org.bouncycastle.crypto.params.KDFParameters;
import org.junit.jupiter.api.Test;

/**
 * KDF "X963KDF-SM3" / "SM2KDF" (JDK 25), run by Failsafe against the packaged jar, on both SM3 paths: the
 * standard's examples, random cases and edge lengths against BouncyCastle, no native context held after a
 * derivation, the spec's checks and the refusals.
 */
class X963KdfSM3IT {
    private static final Provider PROVIDER = new SM3Provider();
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void standardExamplesAndPublishedVectors() throws Exception {
        KDF kdf = KDF.getInstance("SM2KDF", PROVIDER);
        int n = 0;
        for (Map<String, String> v : Stanzas.read(ChildJvm.vectors().resolve("sm2kdf_x963_sm3.txt"))) {
            int length = Integer.parseInt(v.get("L"));
            assertEquals(Integer.parseInt(v.get("KLenBits")), 8 * length, v.get("Name"));
            byte[] info = HEX.parseHex(v.get("SharedInfo"));
            X963KDFParameterSpec spec = new X963KDFParameterSpec(HEX.parseHex(v.get("Z")), info, length);
            assertArrayEquals(HEX.parseHex(v.get("K")), kdf.deriveData(spec), v.get("Name"));
            n++;
        }
        assertEquals(13, n);
    }

    @Test
    void randomCasesAgreeWithBouncyCastle() {
        Seeds.run(300, seed -> {
            Random rnd = new Random(seed);
            byte[] z = HkdfSM3IT.bytes(rnd, 1 + rnd.nextInt(100));
            byte[] info = HkdfSM3IT.bytes(rnd, rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(100));
            int length = 1 + rnd.nextInt(rnd.nextBoolean() ? 70 : 5000);
            // BouncyCastle's KDF2 counts from 1: the X9.63 KDF.
            KDF2BytesGenerator bc = new KDF2BytesGenerator(new SM3Digest());
            bc.init(new KDFParameters(z, info));
            byte[] expected = new byte[length];
            bc.generateBytes(expected, 0, length);
            KDF kdf = KDF.getInstance("X963KDF-SM3", PROVIDER);
            assertArrayEquals(expected, kdf.deriveData(new X963KDFParameterSpec(z, info, length)), "seed " + seed);
            SecretKey key = kdf.deriveKey("SM4", new X963KDFParameterSpec(new SecretKeySpec(z, "Z"), info, length));
            assertEquals("SM4", key.getAlgorithm());
            assertArrayEquals(expected, key.getEncoded(), "seed " + seed);
        });
    }

    @Test
    void lengthsAroundABlockAndLongInputsAgreeWithBouncyCastle() throws Exception {
        // {Z, SharedInfo, output} bytes: Z || counter || SharedInfo in one block or several, past 512 bytes
        // (the native staging buffer) and past 64 KiB (a critical chunk) fed from the array in place.
        int[][] cases = {{64, 0, 1}, {64, 0, 31}, {64, 0, 32}, {64, 0, 33}, {32, 0, 16}, {32, 0, 128},
                {64, 16, 128}, {600, 0, 40}, {70000, 3, 40}, {32, 600, 40}, {64, 0, 8160}};
        Random rnd = new Random(32918);
        KDF kdf = KDF.getInstance("SM2KDF", PROVIDER);
        for (int[] c : cases) {
            byte[] z = HkdfSM3IT.bytes(rnd, c[0]);
            byte[] info = HkdfSM3IT.bytes(rnd, c[1]);
            KDF2BytesGenerator bc = new KDF2BytesGenerator(new SM3Digest());
            bc.init(new KDFParameters(z, info));
            byte[] expected = new byte[c[2]];
            bc.generateBytes(expected, 0, expected.length);
            assertArrayEquals(expected, kdf.deriveData(new X963KDFParameterSpec(z, info, c[2])),
                    java.util.Arrays.toString(c));
        }
    }

    /** The engine zeroes the copy of the shared secret it reads. */
    @Test
    void sharedSecretBytesReadAreZeroed() throws Exception {
        byte[] z = new byte[64];
        new Random(963).nextBytes(z);
        HandedOutKey secret = new HandedOutKey(z);
        KDF kdf = KDF.getInstance("X963KDF-SM3", PROVIDER);
        assertArrayEquals(kdf.deriveData(new X963KDFParameterSpec(z, null, 40)),
                kdf.deriveData(new X963KDFParameterSpec(secret, null, 40)));
        assertEquals(List.of(), secret.notZeroed().stream().map(HEX::formatHex).toList(), "copies left unzeroed");
    }

    @Test
    void derivationsHoldNoNativeContextAfterwards() throws Exception {
        byte[] z = new byte[64];
        HkdfSM3IT.assertNoContextHeldAfterwards(KDF.getInstance("X963KDF-SM3", PROVIDER),
                i -> new X963KDFParameterSpec(z, null, 1 + i % 300));
    }

    @Test
    void specChecksItsArgumentsAndCopies() {
        assertThrows(NullPointerException.class, () -> new X963KDFParameterSpec((byte[]) null, null, 1));
        assertThrows(NullPointerException.class, () -> new X963KDFParameterSpec((SecretKey) null, null, 1));
        assertThrows(IllegalArgumentException.class, () -> new X963KDFParameterSpec(new byte[0], null, 1));
        assertThrows(IllegalArgumentException.class, () -> new X963KDFParameterSpec(new byte[1], null, 0));
        byte[] info = {1, 2};
        X963KDFParameterSpec spec = new X963KDFParameterSpec(new byte[] {9}, info, 5);
        info[0] = 7;
        assertArrayEquals(new byte[] {1, 2}, spec.sharedInfo());
        spec.sharedInfo()[1] = 7;
        assertArrayEquals(new byte[] {1, 2}, spec.sharedInfo());
        assertArrayEquals(new byte[0], new X963KDFParameterSpec(new byte[] {9}, null, 5).sharedInfo());
    }

    @Test
    void refusesOtherSpecsAndKeysThatAreNotRaw() throws Exception {
        KDF kdf = KDF.getInstance("X963KDF-SM3", PROVIDER);
        InvalidAlgorithmParameterException wrongSpec = assertThrows(InvalidAlgorithmParameterException.class,
                () -> kdf.deriveData(HKDFParameterSpec.ofExtract().extractOnly()));
        assertEquals(InvalidAlgorithmParameterException.class, wrongSpec.getCause().getClass());
        SecretKey notRaw = new SecretKeySpec(new byte[8], "X") {
            @Override
            public String getFormat() {
                return "PKCS#8";
            }
        };
        assertThrows(InvalidAlgorithmParameterException.class,
                () -> kdf.deriveData(new X963KDFParameterSpec(notRaw, null, 8)));
    }
}
