package io.github.sm3ffm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.ProviderException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.StampedLock;
import javax.crypto.Mac;
import javax.crypto.SecretKey;

/**
 * SM3 and HMAC-SM3 of byte ranges, one call per record: what a SQL function computes for each row, or any
 * caller that hashes records one after another, from any number of platform or virtual threads. Shaped like
 * {@link java.util.HexFormat}: a final, immutable class, taken from a static factory and shared freely.
 *
 * {@snippet :
 * RowHasher rows = RowHasher.of();
 * byte[] digest = rows.sm3(record, 0, record.length);                    // 32 bytes
 * byte[] tag = new byte[RowHasher.DIGEST_LENGTH];
 * rows.hmacSm3(key, 0, key.length, record, 0, record.length, tag, 0);   // into the caller's array
 * }
 *
 * <h2>Arguments</h2>
 * A range is an array, an offset and a length, as in {@link MessageDigest#update(byte[], int, int)}. As
 * {@code HexFormat} and {@code java.util} do: a null array is a {@link NullPointerException}; a range that is
 * not inside its array, or an output array without {@value #DIGEST_LENGTH} bytes from its offset, an
 * {@link IndexOutOfBoundsException} ({@link Objects#checkFromIndexSize}); an empty range of data is a message
 * of no bytes. An empty key is an {@link IllegalArgumentException}, as {@code javax.crypto.spec.SecretKeySpec}
 * refuses one (RFC 2104 defines HMAC for it, and {@code Mac.getInstance("HmacSM3")} accepts a key object whose
 * encoding is empty). Nothing is read or written before the arguments have been checked.
 *
 * <h2>Failures</h2>
 * When OpenSSL cannot compute SM3 in this JVM, every call throws a {@link ProviderException} whose message
 * starts {@code SM3 from OpenSSL is unavailable in this JVM (SM3FFM):} and gives the reason
 * ({@link SM3Provider#unavailability()}). A failure inside a call (OpenSSL reporting an error, native memory
 * exhausted: a {@code ProviderException} carrying OpenSSL's text) fails that call only: each call works on a
 * {@code MessageDigest} or {@code Mac} of the SM3FFM provider that is put back for the next call only when it
 * finished cleanly, and dropped otherwise, so the next call computes correctly with the same key or another.
 * Nothing is kept per thread.
 *
 * <h2>Keys</h2>
 * A key's HMAC state (a {@code Mac} initialised with it) is worth keeping across rows, since a key usually
 * repeats: an instance keeps the states of up to 16 keys, in one cache shared by all threads that use it, and a
 * new key replaces the one that came in first (first in, first out); {@link #of()}'s instance is shared by the
 * whole JVM (on a Trino worker, by every user's queries). A row's key is found there by a keyed hash (a random
 * secret per instance) and then compared in a time that depends on the lengths only, as
 * {@link MessageDigest#isEqual} does. A key stays until 16 other keys have come in after it; then its copy is
 * zeroed, and each of its idle {@code Mac}s is given a one-byte key, which zeroes the pads that the provider
 * keeps on the heap, and dropped, so that the provider's pool reclaims its native context and clears it before
 * lending it again. A key that fails to give a {@code Mac} is never cached, and its copy is zeroed at once.
 *
 * <p>Thread safety: every method may be called by any number of threads at once.
 */
public final class RowHasher {
    /** The length of an SM3 digest and of an HMAC-SM3 tag: 32 bytes. */
    public static final int DIGEST_LENGTH = 32;
    /** How many keys' HMAC states an instance keeps. */
    static final int CACHED_KEYS = 16;

    private static final RowHasher SHARED = new RowHasher(new SM3Provider(), CACHED_KEYS, idlePerPool());

    private final Provider provider;
    private final Slots<MessageDigest> digests;
    private final KeyCache macs;

    RowHasher(Provider provider, int cachedKeys, int idlePerPool) {
        this.provider = provider;
        this.digests = new Slots<>(idlePerPool);
        this.macs = new KeyCache(cachedKeys, idlePerPool);
    }

    /**
     * The JVM's row hasher, over an {@code SM3Provider} instance of its own: nothing is registered with
     * {@code java.security.Security}.
     *
     * @return the shared instance
     */
    public static RowHasher of() {
        return SHARED;
    }

    /**
     * Idle instances kept per pool: twice the processors, so a busy machine's threads seldom make one, as a power
     * of two (a thread's first slot is then a mask of its id, not a division).
     */
    private static int idlePerPool() {
        int wanted = Math.clamp(2L * Runtime.getRuntime().availableProcessors(), 4, 32);
        return Integer.highestOneBit(wanted - 1) << 1;
    }

    /**
     * SM3 of a range.
     *
     * @param data   the bytes to hash
     * @param offset where they start in {@code data}
     * @param length how many there are
     * @return a new array of {@value #DIGEST_LENGTH} bytes
     * @throws ProviderException if OpenSSL is unavailable or fails
     */
    public byte[] sm3(byte[] data, int offset, int length) {
        byte[] out = new byte[DIGEST_LENGTH];
        sm3(data, offset, length, out, 0);
        return out;
    }

    /**
     * SM3 of a range, into the caller's array.
     *
     * @param data      the bytes to hash
     * @param offset    where they start in {@code data}
     * @param length    how many there are
     * @param out       where the {@value #DIGEST_LENGTH}-byte digest goes
     * @param outOffset where in {@code out}
     * @throws ProviderException if OpenSSL is unavailable or fails
     */
    public void sm3(byte[] data, int offset, int length, byte[] out, int outOffset) {
        Objects.checkFromIndexSize(offset, length, data.length);
        Objects.checkFromIndexSize(outOffset, DIGEST_LENGTH, out.length);
        MessageDigest md = digests.take();
        if (md == null) {
            md = newDigest();
        }
        boolean clean = false;
        try {
            md.update(data, offset, length);
            md.digest(out, outOffset, DIGEST_LENGTH);
            clean = true;
        } catch (GeneralSecurityException e) {
            // The length is checked above: a DigestException would be the provider's fault.
            throw new ProviderException(e);
        } finally {
            if (clean) {
                digests.give(md);
            }
        }
    }

    /**
     * HMAC-SM3 of a range under a key, both given as ranges.
     *
     * @param key        the key's bytes, at least one
     * @param keyOffset  where the key starts in {@code key}
     * @param keyLength  its length
     * @param data       the bytes to authenticate
     * @param offset     where they start in {@code data}
     * @param length     how many there are
     * @return a new array of {@value #DIGEST_LENGTH} bytes
     * @throws IllegalArgumentException if {@code keyLength} is 0
     * @throws ProviderException if OpenSSL is unavailable or fails
     */
    public byte[] hmacSm3(byte[] key, int keyOffset, int keyLength, byte[] data, int offset, int length) {
        byte[] out = new byte[DIGEST_LENGTH];
        hmacSm3(key, keyOffset, keyLength, data, offset, length, out, 0);
        return out;
    }

    /**
     * HMAC-SM3 of a range under a key, both given as ranges, into the caller's array.
     *
     * @param key        the key's bytes, at least one
     * @param keyOffset  where the key starts in {@code key}
     * @param keyLength  its length
     * @param data       the bytes to authenticate
     * @param offset     where they start in {@code data}
     * @param length     how many there are
     * @param out        where the {@value #DIGEST_LENGTH}-byte tag goes
     * @param outOffset  where in {@code out}
     * @throws IllegalArgumentException if {@code keyLength} is 0
     * @throws ProviderException if OpenSSL is unavailable or fails
     */
    public void hmacSm3(byte[] key, int keyOffset, int keyLength, byte[] data, int offset, int length,
                        byte[] out, int outOffset) {
        Objects.checkFromIndexSize(keyOffset, keyLength, key.length);
        Objects.checkFromIndexSize(offset, length, data.length);
        Objects.checkFromIndexSize(outOffset, DIGEST_LENGTH, out.length);
        if (keyLength == 0) {
            throw new IllegalArgumentException("Empty key");
        }
        long tag = macs.tag(key, keyOffset, keyLength);
        Entry entry = macs.find(tag, key, keyOffset, keyLength);
        Mac mac = entry == null ? null : entry.idle.take();
        if (mac == null) {
            mac = newMac(key, keyOffset, keyLength);
            if (entry == null) {
                entry = macs.add(tag, key, keyOffset, keyLength);
            }
        }
        boolean clean = false;
        try {
            mac.update(data, offset, length);
            mac.doFinal(out, outOffset);
            clean = true;
        } catch (GeneralSecurityException e) {
            // The length is checked above: a ShortBufferException would be the provider's fault.
            throw new ProviderException(e);
        } finally {
            if (clean) {
                entry.giveBack(mac);
            } else {
                forget(mac);
            }
        }
    }

    /** The key cache, for tests. */
    KeyCache macs() {
        return macs;
    }

    private MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SM3", provider);
        } catch (NoSuchAlgorithmException e) {
            throw unavailable(e);
        }
    }

    /** A {@code Mac} keyed with the row's key, from a copy that is zeroed before this returns or throws. */
    private Mac newMac(byte[] key, int keyOffset, int keyLength) {
        Mac mac;
        try {
            mac = Mac.getInstance("HmacSM3", provider);
        } catch (NoSuchAlgorithmException e) {
            throw unavailable(e);
        }
        byte[] copy = Arrays.copyOfRange(key, keyOffset, keyOffset + keyLength);
        try {
            mac.init(new RowKey(copy));
        } catch (InvalidKeyException e) {
            throw new IllegalArgumentException("The key was refused: " + e.getMessage(), e);
        } finally {
            Arrays.fill(copy, (byte) 0);
        }
        return mac;
    }

    private ProviderException unavailable(NoSuchAlgorithmException e) {
        String reason = SM3Provider.unavailability().map(Exception::getMessage).orElse(e.getMessage());
        return new ProviderException("SM3 from OpenSSL is unavailable in this JVM (" + provider.getName() + "): "
                + reason, e);
    }

    /**
     * Zeroes the pads a {@code Mac} keeps (a new key of one byte replaces them, with no native call) before it
     * is dropped; its native context goes back to the provider's pool, which clears it, when the GC finds it.
     */
    static void forget(Mac mac) {
        try {
            mac.init(new RowKey(new byte[1]));
        } catch (GeneralSecurityException | RuntimeException e) {
            // Dropped all the same.
        }
    }

    /**
     * A key over an array the caller owns: unlike {@code SecretKeySpec}, which keeps a copy that nothing zeroes,
     * it hands out copies only, and the provider's {@code Mac} zeroes the copy it takes.
     */
    static final class RowKey implements SecretKey {
        private static final long serialVersionUID = 1L;
        final transient byte[] bytes;

        RowKey(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public String getAlgorithm() {
            return "HmacSM3";
        }

        @Override
        public String getFormat() {
            return "RAW";
        }

        @Override
        public byte[] getEncoded() {
            return bytes.clone();
        }
    }

    /**
     * A bounded lock-free set of idle instances: {@link #take} and {@link #give} each cost one atomic operation
     * when they find a slot at once, and a thread starts looking at a slot of its own, so that threads whose ids
     * are consecutive never meet on one. Slot {@code i} is array element {@code (i + 1) * STRIDE}: 32 references
     * span at least 128 bytes, so no two slots, nor the first slot and the array's header (whose length every
     * access reads), share a cache line or the pair of lines that x86 CPUs fetch together, as in the provider's
     * own context pool.
     */
    static final class Slots<T> {
        private static final int STRIDE = 32;
        private final AtomicReferenceArray<T> slots;
        private final int count;

        /** {@code count}: a power of two. */
        Slots(int count) {
            if (Integer.bitCount(count) != 1) {
                throw new IllegalArgumentException("not a power of two: " + count);
            }
            this.count = count;
            this.slots = new AtomicReferenceArray<>((count + 1) * STRIDE);
        }

        T take() {
            int start = home();
            for (int i = 0; i < count; i++) {
                int at = slot(start + i);
                if (slots.getPlain(at) != null) {
                    T t = slots.getAndSet(at, null);
                    if (t != null) {
                        return t;
                    }
                }
            }
            return null;
        }

        /** Keeps {@code t} if a slot is free; false if not, and the caller drops it. */
        boolean give(T t) {
            int start = home();
            for (int i = 0; i < count; i++) {
                int at = slot(start + i);
                if (slots.getPlain(at) == null && slots.compareAndSet(at, null, t)) {
                    return true;
                }
            }
            return false;
        }

        private int home() {
            return (int) Thread.currentThread().threadId();
        }

        private int slot(int i) {
            return ((i & (count - 1)) + 1) * STRIDE;
        }
    }

    /** One cached key: a copy kept to compare rows' keys with, and its idle keyed {@code Mac}s. */
    static final class Entry {
        final byte[] key;
        final long tag;
        final Slots<Mac> idle;
        private volatile boolean evicted;

        Entry(byte[] key, long tag, int idle) {
            this.key = key;
            this.tag = tag;
            this.idle = new Slots<>(idle);
        }

        void giveBack(Mac mac) {
            if (evicted || !idle.give(mac)) {
                forget(mac);
            } else if (evicted) {
                // Evicted while it went in: the eviction's drain may have run before it.
                drain();
            }
        }

        /** Zeroes the key's copy; the caller holds the cache's write lock, so no lookup can trust what it read. */
        void evict() {
            evicted = true;
            Arrays.fill(key, (byte) 0);
        }

        void drain() {
            for (Mac m; (m = idle.take()) != null; ) {
                forget(m);
            }
        }

        boolean isEvicted() {
            return evicted;
        }
    }

    /**
     * The cached keys, in a fixed array replaced first in, first out. Lookups take no lock: they read under a
     * {@link StampedLock}'s optimistic stamp and trust what they found only if no writer came in between (an
     * eviction zeroes a key's copy under the write lock), so a hit costs no atomic write.
     */
    static final class KeyCache {
        private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
                ByteOrder.LITTLE_ENDIAN);
        private final StampedLock lock = new StampedLock();
        private final Entry[] entries;
        private final int idlePerKey;
        private final long secret = new SecureRandom().nextLong();
        /** The next slot to replace; under the write lock. */
        private int next;

        KeyCache(int keys, int idlePerKey) {
            this.entries = new Entry[keys];
            this.idlePerKey = idlePerKey;
        }

        /**
         * A hash of the key under this cache's secret: the lookups compare these first, so their time depends on
         * the key only through values an observer cannot compute.
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

        /** The key's entry, or null. */
        Entry find(long tag, byte[] key, int offset, int length) {
            long stamp = lock.tryOptimisticRead();
            Entry hit = scan(tag, key, offset, length);
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

        private Entry scan(long tag, byte[] key, int offset, int length) {
            for (Entry e : entries) {
                if (e != null && e.tag == tag && sameBytes(e.key, key, offset, length)) {
                    return e;
                }
            }
            return null;
        }

        /**
         * Adds the key (copied) unless another thread has; evicts the oldest entry when full, and drains its idle
         * {@code Mac}s once the lock is released.
         */
        Entry add(long tag, byte[] key, int offset, int length) {
            Entry victim;
            Entry added;
            long stamp = lock.writeLock();
            try {
                Entry present = scan(tag, key, offset, length);
                if (present != null) {
                    return present;
                }
                added = new Entry(Arrays.copyOfRange(key, offset, offset + length), tag, idlePerKey);
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

        /** The entries, for tests. */
        Entry[] entries() {
            long stamp = lock.readLock();
            try {
                return entries.clone();
            } finally {
                lock.unlockRead(stamp);
            }
        }

        /** Equal bytes, in a time that depends on the lengths only, as {@link MessageDigest#isEqual} takes. */
        private static boolean sameBytes(byte[] cached, byte[] key, int offset, int length) {
            if (cached.length != length) {
                return false;
            }
            int difference = 0;
            for (int i = 0; i < length; i++) {
                difference |= cached[i] ^ key[offset + i];
            }
            return difference == 0;
        }
    }
}
