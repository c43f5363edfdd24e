package io.github.sm3ffm.internal.libcrypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the KDFs hold on the Java heap: every array a derivation names to its {@link Scratch} (HKDF's PRK, pads, T(n-1)
 * and block; PBKDF2's pads and block; the X9.63 KDF's copy of Z and block) is all zeros once the call returns, and
 * the result is still BouncyCastle's. Keys and salts longer than a block take the path that hashes them into pads;
 * lengths of one block and more take both of HKDF's expand paths.
 */
class KdfScratchTest {
    /** Remembers every array it is handed, to read after the call. */
    private static final class Remembering extends Scratch {
        final List<byte[]> arrays = new ArrayList<>();

        @Override
        byte[] held(byte[] array) {
            arrays.add(array);
            return array;
        }

        /** Asserts that {@code count} arrays were named and all are zeros now. */
        void assertZeroed(int count, String what) {
            assertEquals(count, arrays.size(), what + ": arrays holding secrets");
            for (byte[] a : arrays) {
                assertTrue(a.length > 0, what);
                assertEquals(-1, Arrays.mismatch(a, new byte[a.length]),
                        what + ": left on the heap: " + HexFormat.of().formatHex(a));
            }
        }
    }

    @BeforeAll
    static void hkdfServes() throws Exception {
        Algorithm.HKDF_SM3.check();
        Algorithm.PBKDF2_HMAC_SM3.check();
        Algorithm.X963KDF_SM3.check();
    }

    @Test
    void hkdfZeroesItsPrkPadsPreviousBlockAndBlock() {
        byte[] info = bytes(10, 3);
        for (int keyLength : new int[] {22, 100}) {
            byte[] ikm = bytes(keyLength, 1);
            byte[] salt = bytes(keyLength, 2);
            for (int length : new int[] {32, 80}) {
                String what = keyLength + "-byte key, " + length + " bytes";
                Remembering extract = new Remembering();
                byte[] prk = new Hkdf(extract).derive(Hkdf.Mode.EXTRACT, ikm, salt, info, length);
                assertArrayEquals(References.hmac(salt, ikm), prk, what);
                // The PRK, the salt's pads.
                extract.assertZeroed(2, "extract, " + what);

                Remembering expand = new Remembering();
                byte[] okm = new Hkdf(expand).derive(Hkdf.Mode.EXPAND, ikm, new byte[0], info, length);
                assertArrayEquals(References.hkdf(ikm, null, info, length), okm, what);
                // The PRK's copy, T(n-1) || info || n, the PRK's pads, the block.
                expand.assertZeroed(4, "expand, " + what);

                Remembering both = new Remembering();
                okm = new Hkdf(both).derive(Hkdf.Mode.EXTRACT_THEN_EXPAND, ikm, salt, info, length);
                assertArrayEquals(References.hkdf(ikm, salt, info, length), okm, what);
                both.assertZeroed(5, "extract then expand, " + what);
            }
        }
    }

    @Test
    void pbkdf2ZeroesItsPadsAndBlock() {
        byte[] salt = bytes(16, 4);
        for (int passwordLength : new int[] {8, 100}) {
            byte[] password = bytes(passwordLength, 5);
            for (int length : new int[] {32, 40}) {
                Remembering scratch = new Remembering();
                byte[] key = new Pbkdf2(scratch).derive(password, salt, 3, length);
                String what = passwordLength + "-byte password, " + length + " bytes";
                assertArrayEquals(References.pbkdf2(password, salt, 3, length), key, what);
                scratch.assertZeroed(2, what);
            }
        }
    }

    @Test
    void x963ZeroesItsCopyOfTheSecretAndBlock() {
        byte[] z = bytes(64, 6);
        byte[] info = bytes(5, 7);
        for (int length : new int[] {19, 40}) {
            Remembering scratch = new Remembering();
            byte[] t = new X963Kdf(scratch).derive(z, info, length);
            assertArrayEquals(References.x963(z, info, length), t, length + " bytes");
            scratch.assertZeroed(2, length + " bytes");
        }
    }

    private static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + seed * 7 + 1);
        }
        return b;
    }
}
