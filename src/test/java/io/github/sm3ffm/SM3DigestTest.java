package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.Security;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Known answers through every input path, reuse, clones and threads, all through the JCA. */
class SM3DigestTest {
    private static final HexFormat HEX = HexFormat.of();

    @BeforeAll
    static void register() {
        if (Security.getProvider(SM3Provider.NAME) == null) {
            Security.addProvider(new SM3Provider());
        }
    }

    static MessageDigest sm3() throws Exception {
        return MessageDigest.getInstance("SM3", SM3Provider.NAME);
    }

    static Stream<Arguments> vectorsTimesPaths() {
        List<Sm3Vectors.Vector> vectors = Sm3Vectors.all();
        if (vectors.size() < 55) {
            throw new AssertionError("expected every SM3 vector from src/test/resources/vectors, found " + vectors.size());
        }
        return vectors.stream().flatMap(v -> Stream.of(InputPath.values()).map(p -> Arguments.of(v, p)));
    }

    @ParameterizedTest(name = "{0} via {1}")
    @MethodSource("vectorsTimesPaths")
    void knownAnswer(Sm3Vectors.Vector v, InputPath path) throws Exception {
        MessageDigest md = sm3();
        assertEquals(HEX.formatHex(v.digest()), HEX.formatHex(path.digest(md, v.message())));
        // digest() resets: the same object gives the same answer again.
        assertEquals(HEX.formatHex(v.digest()), HEX.formatHex(path.digest(md, v.message())));
    }

    @Test
    void linuxConsolidatedDigestOverEveryPrefix() throws Exception {
        byte[] data = Sm3Vectors.linuxRandBytes(4096);
        MessageDigest inner = sm3();
        MessageDigest outer = sm3();
        for (int len = 0; len <= data.length; len++) {
            inner.update(data, 0, len);
            outer.update(inner.digest());
        }
        assertArrayEquals(Sm3Vectors.linuxConsolidatedDigest(), outer.digest());
    }

    @Test
    void aliasesNameTheSameAlgorithm() throws Exception {
        byte[] abc = {'a', 'b', 'c'};
        byte[] expected = sm3().digest(abc);
        for (String alias : List.of("SM3", "sm3", "1.2.156.10197.1.401", "OID.1.2.156.10197.1.401")) {
            MessageDigest md = MessageDigest.getInstance(alias, SM3Provider.NAME);
            assertEquals(SM3Provider.NAME, md.getProvider().getName());
            assertEquals(32, md.getDigestLength());
            assertArrayEquals(expected, md.digest(abc), alias);
        }
    }

    @Test
    void resetDiscardsStagedAndHashedInput() throws Exception {
        MessageDigest md = sm3();
        byte[] big = new byte[300_000];
        md.update((byte) 1);
        md.update(big);
        md.update(new byte[5]);
        md.reset();
        assertEquals("66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0",
                HEX.formatHex(md.digest(new byte[] {'a', 'b', 'c'})));
    }

    @Test
    void cloneAtEveryOffsetOfTheFirstBlocksIsIndependent() throws Exception {
        byte[] m = Sm3Vectors.linuxRandBytes(200);
        MessageDigest reference = sm3();
        for (int cut = 0; cut <= 130; cut++) {
            MessageDigest md = sm3();
            md.update(m, 0, cut);
            MessageDigest copy = (MessageDigest) md.clone();
            assertNotSame(md, copy);
            // Finish the original with other data first: the clone must not see it.
            md.update(new byte[] {9, 9, 9});
            byte[] originalDigest = md.digest();
            copy.update(m, cut, m.length - cut);
            assertArrayEquals(reference.digest(m), copy.digest(), "clone at " + cut);
            reference.update(m, 0, cut);
            reference.update(new byte[] {9, 9, 9});
            assertArrayEquals(reference.digest(), originalDigest, "original after clone at " + cut);
            // Reset of a clone leaves the original alone, and the other way round.
            MessageDigest again = (MessageDigest) copy.clone();
            copy.update(m, 0, cut);
            again.reset();
            assertArrayEquals(reference.digest(), again.digest());
        }
    }

    @Test
    void handedFromThreadToThreadIncludingVirtualThreads() throws Exception {
        byte[] m = Sm3Vectors.linuxRandBytes(100_000);
        byte[] expected = sm3().digest(m);
        MessageDigest md = sm3();
        try (ExecutorService platform = Executors.newFixedThreadPool(2);
             ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int round = 0; round < 20; round++) {
                // Each step runs on another thread; Future.get gives the happens-before edge a user relies on.
                platform.submit(() -> md.update(m, 0, 10)).get();
                virtual.submit(() -> md.update(m, 10, 50_000)).get();
                platform.submit(() -> {
                    for (int i = 50_010; i < 50_100; i++) {
                        md.update(m[i]);
                    }
                }).get();
                MessageDigest copy = virtual.submit(() -> (MessageDigest) md.clone()).get();
                virtual.submit(() -> md.update(ByteBuffer.wrap(m, 50_100, m.length - 50_100))).get();
                Future<byte[]> fromClone = platform.submit(() -> {
                    copy.update(m, 50_100, m.length - 50_100);
                    return copy.digest();
                });
                assertArrayEquals(expected, virtual.submit(() -> md.digest()).get());
                assertArrayEquals(expected, fromClone.get());
            }
        }
    }

    @Test
    void independentInstancesOnManyThreadsAtOnce() throws Exception {
        List<byte[]> messages = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            messages.add(Sm3Vectors.linuxRandBytes(1 + i * 997));
        }
        List<byte[]> expected = new ArrayList<>();
        for (byte[] m : messages) {
            expected.add(new org.bouncycastle.jcajce.provider.digest.SM3.Digest().digest(m));
        }
        try (ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<byte[]>> results = new ArrayList<>();
            for (byte[] m : messages) {
                results.add(virtual.submit(() -> {
                    MessageDigest md = sm3();
                    for (int k = 0; k < 50; k++) {
                        md.update(m);
                        md.digest();
                    }
                    return md.digest(m);
                }));
            }
            for (int i = 0; i < messages.size(); i++) {
                assertArrayEquals(expected.get(i), results.get(i).get());
            }
        }
    }
}
