package io.github.sm3ffm;

import io.github.sm3ffm.internal.concurrent.StripedSlots;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.ProviderException;
import java.util.Arrays;
import java.util.Objects;
import javax.crypto.Mac;

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
 * of no bytes. An empty key is an {@link IllegalArgumentException} ({@link #checkKeyLength}), as
 * {@code javax.crypto.spec.SecretKeySpec} refuses one (RFC 2104 defines HMAC for it, and
 * {@code Mac.getInstance("HmacSM3")} accepts a key object whose encoding is empty). Nothing is read or written
 * before the arguments have been checked.
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
    /**
     * Why an empty key is refused: the message of the {@link IllegalArgumentException} that
     * {@link #checkKeyLength} and the {@code hmacSm3} methods throw for one.
     */
    public static final String EMPTY_KEY = "the key is empty. RFC 2104 defines HMAC for an empty key, but it is"
            + " refused, as SecretKeySpec and Trino's hmac_sha256 refuse one: an empty key is almost always a missing"
            + " one";
    /** How many keys' HMAC states an instance keeps. */
    static final int CACHED_KEYS = 16;

    private static final RowHasher SHARED = new RowHasher(new SM3Provider(), CACHED_KEYS, idlePerPool());

    private final Provider provider;
    private final StripedSlots<MessageDigest> digests;
    private final KeyCache macs;

    RowHasher(Provider provider, int cachedKeys, int idlePerPool) {
        this.provider = provider;
        this.digests = new StripedSlots<>(idlePerPool, idlePerPool);
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
     * of two (a thread's first slot is then a mask, not a division).
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
        checkKeyLength(keyLength);
        long tag = macs.tag(key, keyOffset, keyLength);
        CachedKey entry = macs.find(tag, key, keyOffset, keyLength);
        Mac mac = entry == null ? null : entry.take();
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
                RowKey.forget(mac);
            }
        }
    }

    /**
     * Refuses an empty key, as the {@code hmacSm3} methods do before they read anything: for a caller that checks a
     * row's key before it copies or converts it, and wraps the refusal in its own exception (a SQL function's
     * message is its name, {@code ": "} and this one's).
     *
     * @param keyLength a key's length in bytes
     * @throws IllegalArgumentException with the message {@link #EMPTY_KEY} if {@code keyLength} is 0
     */
    public static void checkKeyLength(int keyLength) {
        if (keyLength == 0) {
            throw new IllegalArgumentException(EMPTY_KEY);
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
}
