package io.github.sm3ffm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.StampedLock;

/**
 * The keys a {@link RowHasher} keeps HMAC states of, in a fixed array replaced first in, first out. Lookups take
 * no lock: they read under a {@link StampedLock}'s optimistic stamp and trust what they found only if no writer
 * came in between (an eviction zeroes a key's copy under the write lock), so a hit costs no atomic write.
 */
final class KeyCache {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);
    private final StampedLock lock = new StampedLock();
    private final CachedKey[] entries;
    private final int idlePerKey;
    private final long secret = new SecureRandom().nextLong();
    /** The next slot to replace; under the write lock. */
    private int next;

    KeyCache(int keys, int idlePerKey) {
        this.entries = new CachedKey[keys];
        this.idlePerKey = idlePerKey;
    }

    /**
     * A hash of the key under this cache's secret: the lookups compare these first, so their time depends on the
     * key only through values an observer cannot compute.
     */
    long tag(byte[] key, int offset, int length) {
        long h = secret ^ length;
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES) {
            h = mix(h ^ (long) LONGS.get(key, offset + i));
        }
        long last = 0;
        for (; i < length; i++) {
            last = last << 8 | (key[offset + i] & 0xff);
        }
        return mix(h ^ last);
    }

    private static long mix(long h) {
        h *= 0x9e3779b97f4a7c15L;
        h ^= h >>> 32;
        h *= 0xbf58476d1ce4e5b9L;
        return h ^ h >>> 29;
    }

    /** The entry of the key, found under {@code tag}, or null. */
    CachedKey find(long tag, byte[] key, int offset, int length) {
        long stamp = lock.tryOptimisticRead();
        CachedKey hit = scan(tag, key, offset, length);
        if (lock.validate(stamp)) {
            return hit;
        }
        stamp = lock.readLock();
        try {
            return scan(tag, key, offset, length);
        } finally {
            lock.unlockRead(stamp);
        }
    }

    private CachedKey scan(long tag, byte[] key, int offset, int length) {
        for (CachedKey e : entries) {
            if (e != null && e.tag == tag && sameBytes(e.key, key, offset, length)) {
                return e;
            }
        }
        return null;
    }

    /**
     * Adds the key (copied) under {@code tag} unless another thread has; evicts the oldest entry when full, and
     * drains its idle {@code Mac}s once the lock is released.
     */
    CachedKey add(long tag, byte[] key, int offset, int length) {
        CachedKey victim;
        CachedKey added;
        long stamp = lock.writeLock();
        try {
            CachedKey present = scan(tag, key, offset, length);
            if (present != null) {
                return present;
            }
            added = new CachedKey(Arrays.copyOfRange(key, offset, offset + length), tag, idlePerKey);
            victim = entries[next];
            entries[next] = added;
            next = next + 1 == entries.length ? 0 : next + 1;
            if (victim != null) {
                victim.evict();
            }
        } finally {
            lock.unlockWrite(stamp);
        }
        if (victim != null) {
            victim.drain();
        }
        return added;
    }

    /** The cached keys, in the array's order, for tests. */
    List<CachedKey> snapshot() {
        long stamp = lock.readLock();
        try {
            List<CachedKey> all = new ArrayList<>();
            for (CachedKey e : entries) {
                if (e != null) {
                    all.add(e);
                }
            }
            return all;
        } finally {
            lock.unlockRead(stamp);
        }
    }

    /** Equal bytes, in a time that depends on the lengths only, as {@link MessageDigest#isEqual} takes. */
    static boolean sameBytes(byte[] cached, byte[] key, int offset, int length) {
        return cached.length == length && (int) compareEveryByte(cached, key, offset, length) == 0;
    }

    /**
     * Compares {@code length} bytes of {@code cached} with the key's, without ever stopping at a difference: the
     * OR of the bytes' differences in the low 32 bits (0 when equal), above them how many pairs were read,
     * always {@code length} (which tests check).
     */
    static long compareEveryByte(byte[] cached, byte[] key, int offset, int length) {
        int difference = 0;
        int read = 0;
        for (; read < length; read++) {
            difference |= cached[read] ^ key[offset + read];
        }
        return (long) read << 32 | difference & 0xffffffffL;
    }
}
