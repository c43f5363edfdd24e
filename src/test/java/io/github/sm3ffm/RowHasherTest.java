package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.ProviderException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.KeyParameter;
import org.junit.jupiter.api.Test;

/**
 * {@link RowHasher} as its callers use it: values at random offsets of shared arrays, keys of 1 to 200 bytes,
 * each result against BouncyCastle; the argument rules; the key cache's bound and its zeroed evictions; many
 * platform and virtual threads at once; and a key that the provider refuses, after which the key before it and
 * the refused one both compute correctly.
 */
class RowHasherTest {
    private static final byte[] SOURCE = new byte[1 << 17];

    static {
        new Random(49).nextBytes(SOURCE);
    }

    static byte[] bcSm3(byte[] data, int offset, int length) {
        SM3Digest d = new SM3Digest();
        d.update(data, offset, length);
        byte[] out = new byte[32];
        d.doFinal(out, 0);
        return out;
    }

    static byte[] bcHmac(byte[] key, int keyOffset, int keyLength, byte[] data, int offset, int length) {
        HMac h = new HMac(new SM3Digest());
        h.init(new KeyParameter(key, keyOffset, keyLength));
        h.update(data, offset, length);
        byte[] out = new byte[32];
        h.doFinal(out, 0);
        return out;
    }

    @Test
    void knownAnswers() {
        byte[] abc = "abc".getBytes(StandardCharsets.US_ASCII);
        assertEquals("66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0",
                HexFormat.of().formatHex(RowHasher.of().sm3(abc, 0, 3)));
        byte[] key = "key".getBytes(StandardCharsets.US_ASCII);
        assertEquals("28e63256e7c5a087b1f073265dc53092163f7b82729735d06f28f10af9d52393",
                HexFormat.of().formatHex(RowHasher.of().hmacSm3(key, 0, 3, abc, 0, 3)));
        assertArrayEquals(bcSm3(abc, 0, 0), RowHasher.of().sm3(abc, 3, 0));
    }

    @Test
    void rowsAgreeWithBouncyCastle() {
        Random rnd = new Random(1);
        RowHasher rows = RowHasher.of();
        byte[] out = new byte[100];
        for (int i = 0; i < 3000; i++) {
            int length = length(rnd);
            int offset = rnd.nextInt(SOURCE.length - length + 1);
            assertArrayEquals(bcSm3(SOURCE, offset, length), rows.sm3(SOURCE, offset, length), "sm3 " + length);
            int at = rnd.nextInt(out.length - 31);
            rows.sm3(SOURCE, offset, length, out, at);
            assertArrayEquals(bcSm3(SOURCE, offset, length), Arrays.copyOfRange(out, at, at + 32));
            // Few keys, so most rows find theirs cached; a few long ones (hashed to a block).
            int keyLength = 1 + rnd.nextInt(rnd.nextInt(8) == 0 ? 200 : 32);
            int keyOffset = rnd.nextInt(4) * 1000 + rnd.nextInt(3);
            assertArrayEquals(bcHmac(SOURCE, keyOffset, keyLength, SOURCE, offset, length),
                    rows.hmacSm3(SOURCE, keyOffset, keyLength, SOURCE, offset, length), "hmac " + keyLength);
            rows.hmacSm3(SOURCE, keyOffset, keyLength, SOURCE, offset, length, out, at);
            assertArrayEquals(bcHmac(SOURCE, keyOffset, keyLength, SOURCE, offset, length),
                    Arrays.copyOfRange(out, at, at + 32));
        }
    }

    /** Mostly short values, one in twenty up to 20 KiB, around SM3's block and the provider's staging sizes. */
    static int length(Random rnd) {
        return switch (rnd.nextInt(20)) {
            case 0 -> rnd.nextInt(20_000);
            case 1, 2 -> 448 + rnd.nextInt(200);
            default -> rnd.nextInt(130);
        };
    }

    @Test
    void argumentsAreCheckedAsHexFormatAndSecretKeySpecCheckThem() {
        RowHasher rows = RowHasher.of();
        byte[] data = new byte[10];
        byte[] out = new byte[32];
        assertThrows(NullPointerException.class, () -> rows.sm3(null, 0, 0));
        assertThrows(NullPointerException.class, () -> rows.sm3(data, 0, 1, null, 0));
        assertThrows(NullPointerException.class, () -> rows.hmacSm3(null, 0, 1, data, 0, 1));
        assertThrows(NullPointerException.class, () -> rows.hmacSm3(data, 0, 1, null, 0, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> rows.sm3(data, -1, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> rows.sm3(data, 5, 6));
        assertThrows(IndexOutOfBoundsException.class, () -> rows.sm3(data, 0, -1));
        assertThrows(IndexOutOfBoundsException.class, () -> rows.sm3(data, 0, 1, out, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> rows.sm3(data, 0, 1, new byte[31], 0));
        assertThrows(IndexOutOfBoundsException.class, () -> rows.hmacSm3(data, 9, 2, data, 0, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> rows.hmacSm3(data, 0, 2, data, 11, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> rows.hmacSm3(data, 0, 2, data, 0, 1, out, -1));
        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
                () -> rows.hmacSm3(data, 3, 0, data, 0, 1));
        assertEquals(RowHasher.EMPTY_KEY, empty.getMessage());
        empty = assertThrows(IllegalArgumentException.class, () -> RowHasher.checkKeyLength(0));
        assertEquals(RowHasher.EMPTY_KEY, empty.getMessage());
        RowHasher.checkKeyLength(1);
        // A bad range writes nothing.
        byte[] untouched = new byte[40];
        assertThrows(IndexOutOfBoundsException.class, () -> rows.hmacSm3(data, 0, 1, data, 0, 11, untouched, 0));
        assertArrayEquals(new byte[40], untouched);
    }

    @Test
    void theCacheKeepsSixteenKeysAndZeroesTheOnesItEvicts() {
        RowHasher rows = new RowHasher(new SM3Provider(), RowHasher.CACHED_KEYS, 4);
        List<byte[]> copies = new ArrayList<>();
        for (int k = 0; k < 40; k++) {
            byte[] key = ("key number " + k).getBytes(StandardCharsets.US_ASCII);
            for (int row = 0; row < 3; row++) {
                assertArrayEquals(bcHmac(key, 0, key.length, SOURCE, row, 100),
                        rows.hmacSm3(key, 0, key.length, SOURCE, row, 100));
            }
            List<CachedKey> entries = rows.macs().snapshot();
            assertEquals(Math.min(k + 1, RowHasher.CACHED_KEYS), entries.size());
            for (CachedKey e : entries) {
                if (Arrays.equals(e.key, key) && !copies.contains(e.key)) {
                    copies.add(e.key);
                }
            }
        }
        assertEquals(40, copies.size(), "one cached copy per key");
        for (int k = 0; k < 40; k++) {
            boolean evicted = k < 40 - RowHasher.CACHED_KEYS;
            byte[] copy = copies.get(k);
            assertEquals(evicted, Arrays.equals(copy, new byte[copy.length]), "key " + k + " zeroed when evicted");
        }
        // A key the cache holds is found: no second copy.
        byte[] last = "key number 39".getBytes(StandardCharsets.US_ASCII);
        rows.hmacSm3(last, 0, last.length, SOURCE, 0, 5);
        assertSame(copies.get(39), rows.macs().snapshot().stream()
                .filter(e -> Arrays.equals(e.key, last)).findFirst().orElseThrow().key);
    }

    @Test
    void platformAndVirtualThreadsAtOnce() throws Exception {
        RowHasher rows = new RowHasher(new SM3Provider(), 4, 2);
        byte[][] keys = new byte[7][];
        for (int k = 0; k < keys.length; k++) {
            keys[k] = Arrays.copyOfRange(SOURCE, 500 * k, 500 * k + 1 + 20 * k);
        }
        List<Callable<Integer>> work = new ArrayList<>();
        for (int t = 0; t < 24; t++) {
            long seed = t;
            work.add(() -> {
                Random rnd = new Random(seed);
                for (int i = 0; i < 400; i++) {
                    int length = length(rnd);
                    int offset = rnd.nextInt(SOURCE.length - length + 1);
                    byte[] key = keys[rnd.nextInt(keys.length)];
                    if (!Arrays.equals(bcSm3(SOURCE, offset, length), rows.sm3(SOURCE, offset, length))
                            || !Arrays.equals(bcHmac(key, 0, key.length, SOURCE, offset, length),
                                    rows.hmacSm3(key, 0, key.length, SOURCE, offset, length))) {
                        throw new AssertionError("thread " + seed + " row " + i);
                    }
                }
                return 400;
            });
        }
        try (ExecutorService platform = Executors.newFixedThreadPool(6);
             ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < work.size(); t++) {
                done.add((t % 2 == 0 ? platform : virtual).submit(work.get(t)));
            }
            int total = 0;
            for (Future<Integer> f : done) {
                total += f.get();
            }
            assertEquals(24 * 400, total);
        }
    }

    @Test
    void aRefusedKeyLeavesNoStaleKeyAndIsZeroed() {
        WatchedMacProvider provider = new WatchedMacProvider();
        RowHasher rows = new RowHasher(provider, RowHasher.CACHED_KEYS, 4);
        byte[] a = "A's key".getBytes(StandardCharsets.US_ASCII);
        byte[] b = "B's key, refused".getBytes(StandardCharsets.US_ASCII);
        assertArrayEquals(bcHmac(a, 0, a.length, SOURCE, 0, 64), rows.hmacSm3(a, 0, a.length, SOURCE, 0, 64));
        ProviderException refused = assertThrows(ProviderException.class,
                () -> rows.hmacSm3(b, 0, b.length, SOURCE, 0, 64));
        assertTrue(refused.getMessage().contains("EVP_DigestUpdate failed"));
        // B's copy was zeroed, and B is not cached.
        RowKey bKey = provider.keys.getLast();
        assertEquals(b.length, bKey.bytes.length);
        assertArrayEquals(new byte[b.length], bKey.bytes);
        assertFalse(rows.macs().snapshot().stream().anyMatch(e -> e.key.length == b.length));
        // A still gives A's tags, and another key its own.
        for (int row = 0; row < 5; row++) {
            assertArrayEquals(bcHmac(a, 0, a.length, SOURCE, row, 64), rows.hmacSm3(a, 0, a.length, SOURCE, row, 64));
        }
        byte[] c = "C's key".getBytes(StandardCharsets.US_ASCII);
        assertArrayEquals(bcHmac(c, 0, c.length, SOURCE, 0, 64), rows.hmacSm3(c, 0, c.length, SOURCE, 0, 64));
        // Every key copy handed to the provider was zeroed once it had been used.
        for (RowKey k : provider.keys) {
            assertArrayEquals(new byte[k.bytes.length], k.bytes);
        }
    }
}
