package io.github.sm3ffm.internal.libcrypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
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

    @Test
    void theComparisonNamesTheFirstValueThatDiffers() {
        byte[] one = {1};
        assertNull(Algorithm.differs("a", one, "01", "b", new byte[] {2}, "02"));
        assertEquals("b gave 03", Algorithm.differs("a", one, "01", "b", new byte[] {3}, "02", "c", one, "ff"));
        assertEquals("a gave 01", Algorithm.differs("a", one, "00"));
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
