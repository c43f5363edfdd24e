package io.github.sm3ffm.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.internal.libcrypto.BareCallsBenchmark;
import java.io.ByteArrayOutputStream;
import java.lang.foreign.ValueLayout;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.Security;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.cms.CMSSignedData;
import org.bouncycastle.cms.SignerInformation;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Param;

/** Each benchmark computes the digest it claims to measure, so a fast wrong body cannot pass for a result. */
class BenchmarkBodiesTest {
    private static final List<String> IN_PROCESS = List.of(Providers.SM3FFM, Providers.BC, Providers.KONA);

    private static byte[] sm3(byte[] message) throws NoSuchAlgorithmException {
        return MessageDigest.getInstance("SM3", new BouncyCastleProvider()).digest(message);
    }

    @Test
    void digestHashesTheWholeMessageEveryTime() throws Exception {
        for (String provider : IN_PROCESS) {
            for (String size : DigestBenchmark.class.getField("size").getAnnotation(Param.class).value()) {
                DigestBenchmark b = new DigestBenchmark();
                b.provider = provider;
                b.size = Integer.parseInt(size);
                b.setUp();
                byte[] expected = sm3(Providers.message(b.size));
                assertArrayEquals(expected, b.digest(), provider + " " + size);
                assertArrayEquals(expected, b.digest(), provider + " " + size + ", reused");
            }
        }
    }

    @Test
    void updatePatternsHashTheirWholeMessage() throws Exception {
        for (String provider : IN_PROCESS) {
            UpdateBenchmark b = new UpdateBenchmark();
            b.provider = provider;
            b.setUp();
            byte[] oneMiB = sm3(Providers.message(1024 * 1024));
            for (int i = 0; i < 2; i++) {
                assertArrayEquals(sm3(Providers.message(1024)), b.updateByte1KiB(), provider);
                assertArrayEquals(sm3(Providers.message(4096)), b.update32B4KiB(), provider);
                assertArrayEquals(oneMiB, b.directBuffer1MiB(), provider);
                assertArrayEquals(oneMiB, b.heapBuffer1MiB(), provider);
            }
        }
    }

    @Test
    void perMessagePatternsHashWhatTheyClaim() throws Exception {
        byte[] message = Providers.message(PerMessageBenchmark.MESSAGE_SIZE);
        for (String provider : IN_PROCESS) {
            PerMessageBenchmark b = new PerMessageBenchmark();
            b.provider = provider;
            b.setUp();
            assertArrayEquals(sm3(message), b.cloneThenFinish64B(), provider + ", transcript of one message");
            byte[] two = new byte[2 * message.length];
            System.arraycopy(message, 0, two, 0, message.length);
            System.arraycopy(message, 0, two, message.length, message.length);
            assertArrayEquals(sm3(two), b.cloneThenFinish64B(), provider + ", transcript of two messages");
        }
    }

    @Test
    void callPatternsComputeWhatTheyClaim() throws Throwable {
        for (int size : new int[] {16, 64}) {
            byte[] message = Providers.message(size);
            Mac reference = Mac.getInstance("HmacSM3", new BouncyCastleProvider());
            reference.init(new SecretKeySpec(Providers.message(32), "HmacSM3"));
            byte[] tag = reference.doFinal(message);
            for (String provider : IN_PROCESS) {
                CallPatternBenchmark b = new CallPatternBenchmark();
                b.provider = provider;
                b.size = size;
                b.setUp();
                for (int round = 0; round < 3; round++) {
                    assertArrayEquals(sm3(message), b.reusedDigest(), provider);
                    assertArrayEquals(sm3(message), b.newDigest(), provider);
                    assertArrayEquals(tag, b.reusedMac(), provider);
                    assertArrayEquals(tag, b.newMac(), provider);
                }
            }
            BareCallsBenchmark.Message bare = new BareCallsBenchmark.Message();
            bare.size = size;
            bare.setUp();
            try {
                for (int round = 0; round < 3; round++) {
                    assertArrayEquals(sm3(message),
                            new BareCallsBenchmark().threeCalls(bare).toArray(ValueLayout.JAVA_BYTE), "the floor");
                }
            } finally {
                bare.tearDown();
            }
            CallPatternBenchmark floor = new CallPatternBenchmark();
            floor.provider = Providers.NO_HASH;
            floor.size = size;
            floor.setUp();
            for (int round = 0; round < 3; round++) {
                assertEquals((byte) size, floor.reusedDigest()[0], "the no-op engine counts the message's bytes");
                assertEquals((byte) size, floor.newDigest()[0]);
            }
        }
    }

    @Test
    void cloneOfALongTranscriptFinishesIt() throws Throwable {
        for (String provider : IN_PROCESS) {
            PerMessageBenchmark b = new PerMessageBenchmark();
            b.provider = provider;
            b.setUp();
            assertArrayEquals(sm3(Providers.message(1061)), b.cloneThenFinish1061B(), provider);
            assertArrayEquals(sm3(Providers.message(1061)), b.cloneThenFinish1061B(), provider + ", twice");
        }
        BareCallsBenchmark.Transcript bare = new BareCallsBenchmark.Transcript();
        bare.setUp();
        try {
            for (int round = 0; round < 3; round++) {
                assertArrayEquals(sm3(Providers.message(PerMessageBenchmark.TRANSCRIPT)), new BareCallsBenchmark()
                        .copyIntoThenFinal(bare).toArray(ValueLayout.JAVA_BYTE), "the pooled floor, round " + round);
            }
        } finally {
            bare.tearDown();
        }
    }

    @Test
    void hmacAndPbkdf2RunWhereOffered() throws Exception {
        HmacBenchmark hmac = new HmacBenchmark();
        hmac.provider = Providers.BC;
        hmac.size = 64;
        hmac.setUp();
        assertEquals(32, hmac.doFinal().length);
        Pbkdf2Benchmark pbkdf2 = new Pbkdf2Benchmark();
        pbkdf2.provider = Providers.BC;
        pbkdf2.setUp();
        assertEquals(32, pbkdf2.derive().length);
    }

    /**
     * BouncyCastle's side against RFC 5869 computed over HmacSM3. sm3-ffm's side needs the jar's JDK 25 part,
     * which these tests do not see; its set-up compares it with BouncyCastle's in every fork.
     */
    @Test
    void hkdfOfBouncyCastleIsRfc5869() throws Exception {
        Mac hmac = Mac.getInstance("HmacSM3", new BouncyCastleProvider());
        hmac.init(new SecretKeySpec(Arrays.copyOfRange(Providers.message(64), 32, 64), "HmacSM3"));
        byte[] prk = hmac.doFinal(Providers.message(32));
        hmac.init(new SecretKeySpec(prk, "HmacSM3"));
        byte[] t1 = hmac.doFinal(concat(Providers.message(16), new byte[] {1}));
        byte[] t2 = hmac.doFinal(concat(t1, Providers.message(16), new byte[] {2}));
        for (int size : new int[] {32, 64}) {
            HkdfBenchmark b = new HkdfBenchmark();
            b.provider = Providers.BC;
            b.size = size;
            b.setUp();
            for (int round = 0; round < 2; round++) {
                assertArrayEquals(Arrays.copyOf(concat(t1, t2), size), b.extractThenExpand(), size + " B");
            }
        }
        HkdfBenchmark kona = new HkdfBenchmark();
        kona.provider = Providers.KONA;
        kona.size = 32;
        assertThrows(IllegalArgumentException.class, kona::setUp, "only sm3-ffm and BouncyCastle are measured");
    }

    @Test
    void cmsSignsWithTheFirstProvidersSm3AndVerifies() throws Exception {
        // A fork starts with no SM3 provider installed; other tests here leave theirs in Security.
        for (Provider p : Security.getProviders()) {
            if (p.getService("MessageDigest", "SM3") != null) {
                Security.removeProvider(p.getName());
            }
        }
        for (String first : CmsBenchmark.class.getField("first").getAnnotation(Param.class).value()) {
            CmsBenchmark b = new CmsBenchmark();
            b.first = first;
            b.size = 4096;
            b.setUp(); // fails unless MessageDigest SM3 comes from `first` and the SignedData verifies
            try {
                assertTrue(b.verify(), first);
                SignerInformation signer = new CMSSignedData(b.sign()).getSignerInfos().getSigners().iterator().next();
                assertEquals("1.2.156.10197.1.401", signer.getDigestAlgOID(), first);
            } finally {
                b.tearDown();
            }
            assertNull(Security.getProvider(first), "the set-up's provider is removed again");
        }
    }

    @Test
    void hutoolDigestsWithTheChosenSm3() throws Exception {
        // Other tests here leave an SM3FFM in Security, behind BC; a fork starts with none.
        Security.removeProvider(Providers.SM3FFM);
        for (String sm3 : HutoolBenchmark.class.getField("sm3").getAnnotation(Param.class).value()) {
            HutoolBenchmark b = new HutoolBenchmark();
            b.sm3 = sm3;
            b.size = 64;
            b.setUp(); // fails unless Hutool's digester comes from `sm3`
            try {
                for (int round = 0; round < 2; round++) {
                    assertArrayEquals(sm3(Providers.message(64)), b.newDigester(), sm3);
                    assertArrayEquals(sm3(Providers.message(64)), b.reusedDigester(), sm3 + ", reused");
                }
            } finally {
                b.tearDown();
            }
            assertNull(Security.getProvider(Providers.SM3FFM), "the set-up's provider is removed again");
        }
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    @Test
    void sameMessageForEverySizeRequest() {
        assertArrayEquals(Providers.message(1000), Providers.message(1000));
        assertEquals(1000, Providers.message(1000).length);
    }

    @Test
    void anUnknownImplementationNamesWhereOthersComeFrom() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Providers.create("NoSuchProvider"));
        assertTrue(e.getMessage().contains("--extra-jar"), e.getMessage());
        // Kona's two forms are two providers now, each in forks of its own.
        assertEquals(Providers.KONA, Providers.create(Providers.KONA).getName());
    }

    @Test
    void rowHasherAndReusedInstancesGiveTheSameDigestsAndTags() throws Exception {
        byte[] key = Providers.message(32);
        Mac reference = Mac.getInstance("HmacSM3", new BouncyCastleProvider());
        reference.init(new SecretKeySpec(key, "HmacSM3"));
        for (String size : RowHasherBenchmark.class.getField("size").getAnnotation(Param.class).value()) {
            RowHasherBenchmark b = new RowHasherBenchmark();
            b.size = Integer.parseInt(size);
            b.setUp();
            byte[] message = Providers.message(b.size);
            byte[] tag = reference.doFinal(message);
            for (int round = 0; round < 3; round++) {
                assertArrayEquals(sm3(message), b.reusedDigest(), size);
                assertArrayEquals(sm3(message), b.rowHasherSm3(), size);
                assertArrayEquals(tag, b.reusedMac(), size);
                assertArrayEquals(tag, b.rowHasherHmacSm3(), size);
            }
        }
    }
}
