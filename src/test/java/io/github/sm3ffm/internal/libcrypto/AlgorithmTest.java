package io.github.sm3ffm.internal.libcrypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.crypto.generators.KDF2BytesGenerator;
import org.bouncycastle.crypto.params.KDFParameters;
import org.junit.jupiter.api.Test;

/**
 * The gate's decisions, made again in this JVM: each known-answer self-test passes through the engines' own paths,
 * its decision holds for the JVM's life, and the comparison names the first value that differs. The failure of a
 * call during a self-test is in {@link NativeFailureTest}.
 */
class AlgorithmTest {
    @Test
    void everySelfTestPassesAndItsDecisionIsKept() throws Exception {
        for (Algorithm a : Algorithm.values()) {
            assertNull(a.selfTest(), a + " self-test");
            Algorithm.Decision d = a.decide();
            assertNull(d.problem(), a.toString());
            assertTrue(d.kept(), a + ": a passed self-test holds for the JVM's life");
            assertTrue(a.unavailability().isEmpty());
            assertTrue(a.decided());
        }
    }

    /**
     * What an unavailable algorithm means for those built on it, and for its entry points: set by hand here (a
     * libcrypto that gives wrong answers is the child JVMs' case), and restored after.
     */
    @Test
    void anUnavailableAlgorithmRefusesAndSoDoesWhatIsBuiltOnIt() throws Exception {
        Map<Algorithm, Optional<LibCryptoUnavailableException>> kept = new EnumMap<>(Algorithm.class);
        for (Algorithm a : Algorithm.values()) {
            a.check();
            kept.put(a, a.outcome);
        }
        LibCryptoUnavailableException sm3Broken = new LibCryptoUnavailableException("SM3 broken here", null);
        LibCryptoUnavailableException hmacBroken = new LibCryptoUnavailableException("HMAC-SM3 broken here", null);
        try {
            Algorithm.SM3.outcome = Optional.of(sm3Broken);
            assertSame(sm3Broken, Algorithm.SM3.unavailability().orElseThrow(), "a kept decision is not made again");
            assertSame(sm3Broken, assertThrows(LibCryptoUnavailableException.class, Algorithm::sm3Stream));
            for (Algorithm a : List.of(Algorithm.HMAC_SM3, Algorithm.X963KDF_SM3)) {
                Algorithm.Decision d = a.decide();
                assertSame(sm3Broken, d.problem(), a + " is built on SM3");
                assertTrue(d.kept(), a + ": final, as SM3's decision is");
            }
            Algorithm.X963KDF_SM3.outcome = Optional.of(sm3Broken);
            assertSame(sm3Broken, assertThrows(LibCryptoUnavailableException.class, Algorithm::x963Kdf));
            Algorithm.SM3.outcome = kept.get(Algorithm.SM3);
            Algorithm.HMAC_SM3.outcome = Optional.of(hmacBroken);
            assertSame(hmacBroken, assertThrows(LibCryptoUnavailableException.class, Algorithm::hmacStream));
            for (Algorithm a : List.of(Algorithm.PBKDF2_HMAC_SM3, Algorithm.HKDF_SM3)) {
                assertSame(hmacBroken, a.decide().problem(), a + " is built on HMAC-SM3");
                a.outcome = Optional.of(hmacBroken);
            }
            assertThrows(LibCryptoUnavailableException.class, Algorithm::pbkdf2);
            assertThrows(LibCryptoUnavailableException.class, Algorithm::hkdf);
            // Undecided again: the next question decides, and keeps a passed self-test.
            Algorithm.HMAC_SM3.outcome = null;
            assertFalse(Algorithm.HMAC_SM3.decided());
            assertTrue(Algorithm.HMAC_SM3.unavailability().isEmpty());
            assertTrue(Algorithm.HMAC_SM3.decided(), "a passed self-test is kept");
        } finally {
            kept.forEach((a, o) -> a.outcome = o);
        }
    }

    @Test
    void theComparisonNamesTheFirstValueThatDiffers() {
        byte[] one = {1};
        assertNull(KnownAnswers.differs("a", one, "01", "b", new byte[] {2}, "02"));
        assertEquals("b gave 03", KnownAnswers.differs("a", one, "01", "b", new byte[] {3}, "02", "c", one, "ff"));
        assertEquals("a gave 01", KnownAnswers.differs("a", one, "00"));
    }

    @Test
    void theX963KdfCountsPastOneByte() {
        // 300 blocks: the counter's second byte is used from block 256 on.
        byte[] z = HexFormat.of().parseHex("00112233445566778899aabbccddeeff");
        byte[] info = {'s', 'm', '2'};
        byte[] expected = new byte[300 * 32 + 7];
        KDF2BytesGenerator bc = new KDF2BytesGenerator(new SM3Digest());
        bc.init(new KDFParameters(z, info));
        bc.generateBytes(expected, 0, expected.length);
        assertArrayEquals(expected, X963Kdf.INSTANCE.derive(z, info, expected.length));
    }
}
