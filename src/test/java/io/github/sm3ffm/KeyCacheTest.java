package io.github.sm3ffm;

import static io.github.sm3ffm.RowHasherTest.bcHmac;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.crypto.Mac;
import org.junit.jupiter.api.Test;

/**
 * The key cache behind {@link RowHasher#hmacSm3}: a row's key is the cached one only if every byte and the length
 * agree, whatever the tags say; the comparison reads every byte; and an evicted key leaves nothing behind.
 */
class KeyCacheTest {
    private static final long TAG = 7;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void aPrefixOrAnExtensionOfACachedKeyIsAnotherKeyUnderTheSameTag() {
        KeyCache cache = new KeyCache(4, 2);
        byte[] key = bytes("sixteen byte key and more");
        CachedKey whole = cache.add(TAG, key, 0, 16);
        assertSame(whole, cache.find(TAG, key, 0, 16));
        assertNull(cache.find(TAG, key, 0, 15), "a prefix");
        assertNull(cache.find(TAG, key, 0, 17), "the key and one byte more");
        CachedKey prefix = cache.add(TAG, key, 0, 15);
        assertNotSame(whole, prefix);
        assertArrayEquals(Arrays.copyOf(key, 15), prefix.key);
        assertSame(whole, cache.find(TAG, key, 0, 16));
        assertSame(prefix, cache.find(TAG, key, 0, 15));
    }

    @Test
    void twoKeysWithEqualTagsStayApart() {
        KeyCache cache = new KeyCache(4, 2);
        byte[] a = bytes("key A, 16 bytes.");
        byte[] b = bytes("key B, 16 bytes.");
        byte[] c = bytes("key C, 16 bytes.");
        CachedKey first = cache.add(TAG, a, 0, a.length);
        CachedKey second = cache.add(TAG, b, 0, b.length);
        assertNotSame(first, second, "B added beside A, not found as A");
        assertSame(first, cache.find(TAG, a, 0, a.length));
        assertSame(second, cache.find(TAG, b, 0, b.length));
        assertNull(cache.find(TAG, c, 0, c.length));
        assertEquals(2, cache.snapshot().size());
    }

    @Test
    void theComparisonReadsEveryByteWhereverTheFirstDifferenceIs() {
        byte[] cached = new byte[33];
        new Random(3).nextBytes(cached);
        byte[] row = new byte[40];
        for (int differing = -1; differing < cached.length; differing++) {
            System.arraycopy(cached, 0, row, 5, cached.length);
            if (differing >= 0) {
                row[5 + differing] ^= 0x10;
            }
            long result = KeyCache.compareEveryByte(cached, row, 5, cached.length);
            assertEquals(cached.length, (int) (result >>> 32), "bytes read, first difference at " + differing);
            assertEquals(differing < 0, (int) result == 0);
            assertEquals(differing < 0, KeyCache.sameBytes(cached, row, 5, cached.length));
        }
        assertFalse(KeyCache.sameBytes(cached, row, 5, 32), "another length");
    }

    /**
     * Two rows at once make two {@code Mac}s of key K; once K is evicted, its copy is zeroed, no idle {@code Mac}
     * is left in its entry, and each was given the one-byte key that replaces its pads.
     */
    @Test
    void anEvictedKeyLeavesNoIdleMacAndNoPads() throws Exception {
        WatchedMacProvider provider = new WatchedMacProvider();
        RowHasher rows = new RowHasher(provider, 2, 4);
        byte[] data = bytes("a row of data");
        byte[] k = bytes("K's key");
        provider.holdUpdates(2);
        try (ExecutorService two = Executors.newFixedThreadPool(2)) {
            List<Future<byte[]>> tags = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                tags.add(two.submit(() -> rows.hmacSm3(k, 0, k.length, data, 0, data.length)));
            }
            for (Future<byte[]> tag : tags) {
                assertArrayEquals(bcHmac(k, 0, k.length, data, 0, data.length), tag.get());
            }
        }
        CachedKey entry = rows.macs().snapshot().getFirst();
        List<Mac> idle = entry.idleMacs();
        assertEquals(2, idle.size(), "both Macs kept for K's next rows");
        for (String other : List.of("L's key", "M's key")) {
            byte[] key = bytes(other);
            assertArrayEquals(bcHmac(key, 0, key.length, data, 0, 5), rows.hmacSm3(key, 0, key.length, data, 0, 5));
        }
        assertFalse(rows.macs().snapshot().contains(entry));
        assertTrue(entry.isEvicted());
        assertArrayEquals(new byte[k.length], entry.key, "K's copy zeroed");
        assertTrue(entry.idleMacs().isEmpty(), "no Mac of K's left in its entry");
        List<WatchedMacProvider.WatchedMac> ofK = provider.macs.stream()
                .filter(m -> m.lastKey.length == 1 || Arrays.equals(m.lastKey, k)).toList();
        assertEquals(2, ofK.size());
        for (WatchedMacProvider.WatchedMac m : ofK) {
            assertArrayEquals(new byte[1], m.lastKey, "K's pads replaced by a one-byte zero key");
        }
    }

    /** A {@code Mac} that comes back after its key was evicted (the row was running meanwhile) is not kept. */
    @Test
    void aMacGivenBackToAnEvictedKeyIsForgotten() throws Exception {
        WatchedMacProvider provider = new WatchedMacProvider();
        byte[] k = bytes("K's key");
        Mac mac = Mac.getInstance("HmacSM3", provider);
        mac.init(new RowKey(k.clone()));
        CachedKey entry = new CachedKey(k.clone(), TAG, 2);
        entry.evict();
        entry.giveBack(mac);
        assertTrue(entry.idleMacs().isEmpty());
        assertArrayEquals(new byte[1], provider.macs.getFirst().lastKey);
    }
}
