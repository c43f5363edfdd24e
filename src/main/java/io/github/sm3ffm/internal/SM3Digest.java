package io.github.sm3ffm.internal;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.security.DigestException;
import java.security.MessageDigestSpi;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;

/**
 * SM3 (GB/T 32905-2016) as a {@link MessageDigestSpi}, computed by OpenSSL's {@code EVP_Digest*} on the
 * {@code EVP_MD} that {@link LibCrypto} fetched once.
 *
 * <p>Input takes one of two paths, because a downcall costs about as much as hashing a few dozen bytes:
 * <ul>
 * <li>updates shorter than {@value #DIRECT_THRESHOLD} bytes, single bytes and read-only heap buffers are
 * copied into an off-heap staging buffer of {@value #STAGING_SIZE} bytes that reaches
 * {@code EVP_DigestUpdate} only when full or at digest time: a loop of one-byte updates makes one
 * downcall per {@value #STAGING_SIZE} bytes and allocates nothing;</li>
 * <li>longer arrays are handed to a critical downcall as heap segments, without a copy, in chunks of
 * {@value #CRITICAL_CHUNK} bytes, since a critical call holds off GC for its duration (a chunk takes
 * about 0.2 ms here); direct buffers go by address.</li>
 * </ul>
 *
 * <p>The native context and staging buffer are created on first use and freed by a shared
 * {@link Cleaner} when this object becomes unreachable ({@code MessageDigest} has no {@code close()}).
 * Every native call runs under this object's lock, so threads that race on one instance (which the JCA
 * does not allow) may get wrong digests but never corrupt native memory; the lock-free paths only write
 * into the bounds-checked staging segment.
 */
public final class SM3Digest extends MessageDigestSpi implements Cloneable {
    public static final int DIGEST_LENGTH = 32;
    public static final int BLOCK_SIZE = 64;
    static final int STAGING_SIZE = 512;
    static final int DIRECT_THRESHOLD = 128;
    static final int CRITICAL_CHUNK = 64 * 1024;

    private static final Cleaner CLEANER = Cleaner.create();

    private final MemorySegment md;
    // Null until the first native use; never changes afterwards.
    private NativeSm3 nat;
    // Bytes waiting in nat.staging; always within 0..STAGING_SIZE.
    private int staged;

    public SM3Digest() throws LibCryptoUnavailableException {
        this.md = LibCrypto.sm3();
    }

    private SM3Digest(SM3Digest original) {
        this.md = original.md;
        if (original.nat != null) {
            this.nat = original.nat.copy(original.staged);
            this.staged = original.staged;
            CLEANER.register(this, nat);
        }
    }

    @Override
    protected int engineGetDigestLength() {
        return DIGEST_LENGTH;
    }

    @Override
    protected void engineUpdate(byte input) {
        NativeSm3 n = nat;
        int s = staged;
        if (n == null || s == STAGING_SIZE) {
            stageByteLocked(input);
            return;
        }
        n.staging.set(JAVA_BYTE, s, input);
        staged = s + 1;
        Reference.reachabilityFence(this);
    }

    @Override
    protected void engineUpdate(byte[] input, int offset, int len) {
        // Same checks, order and exception type as the JDK's own digests (sun.security.provider.DigestBase).
        if (len == 0) {
            return;
        }
        if (offset < 0 || len < 0 || offset > input.length - len) {
            throw new ArrayIndexOutOfBoundsException();
        }
        if (len < DIRECT_THRESHOLD) {
            NativeSm3 n = nat;
            int s = staged;
            if (n != null && len <= STAGING_SIZE - s) {
                MemorySegment.copy(input, offset, n.staging, JAVA_BYTE, s, len);
                staged = s + len;
                Reference.reachabilityFence(this);
            } else {
                stageLocked(MemorySegment.ofArray(input), offset, len);
            }
            return;
        }
        updateInPlace(MemorySegment.ofArray(input), offset, len);
    }

    @Override
    protected void engineUpdate(ByteBuffer input) {
        if (!input.hasRemaining()) {
            return;
        }
        int position = input.position();
        int limit = input.limit();
        if (input.hasArray()) {
            engineUpdate(input.array(), input.arrayOffset() + position, limit - position);
        } else if (input.isDirect() && limit - position >= DIRECT_THRESHOLD) {
            updateInPlace(MemorySegment.ofBuffer(input), 0, limit - position);
        } else {
            // Short direct buffers and read-only heap buffers, whose array is out of reach.
            stageLocked(MemorySegment.ofBuffer(input), 0, limit - position);
        }
        input.position(limit);
        Reference.reachabilityFence(input);
    }

    @Override
    protected byte[] engineDigest() {
        byte[] out = new byte[DIGEST_LENGTH];
        digestInto(MemorySegment.ofArray(out));
        return out;
    }

    @Override
    protected int engineDigest(byte[] buf, int offset, int len) throws DigestException {
        if (len < DIGEST_LENGTH) {
            throw new DigestException("Length must be at least " + DIGEST_LENGTH + " for SM3 digests");
        }
        if (offset < 0 || len < 0 || offset > buf.length - len) {
            throw new DigestException("Buffer too short to store digest");
        }
        digestInto(MemorySegment.ofArray(buf).asSlice(offset, DIGEST_LENGTH));
        return DIGEST_LENGTH;
    }

    @Override
    protected synchronized void engineReset() {
        staged = 0;
        if (nat != null) {
            nat.init();
        }
        Reference.reachabilityFence(this);
    }

    @Override
    public synchronized Object clone() {
        try {
            return new SM3Digest(this);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    private NativeSm3 nativeLocked() {
        NativeSm3 n = nat;
        if (n == null) {
            n = NativeSm3.create(md, STAGING_SIZE);
            CLEANER.register(this, n);
            nat = n;
        }
        return n;
    }

    private synchronized void stageByteLocked(byte input) {
        NativeSm3 n = nativeLocked();
        try {
            if (staged == STAGING_SIZE) {
                flushLocked(n);
            }
            n.staging.set(JAVA_BYTE, staged++, input);
        } catch (RuntimeException e) {
            resetAfterFailure(n);
            throw e;
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    private synchronized void stageLocked(MemorySegment src, long offset, long len) {
        NativeSm3 n = nativeLocked();
        try {
            while (len > 0) {
                if (staged == STAGING_SIZE) {
                    flushLocked(n);
                }
                int k = (int) Math.min(len, STAGING_SIZE - staged);
                MemorySegment.copy(src, offset, n.staging, staged, k);
                staged += k;
                offset += k;
                len -= k;
            }
        } catch (RuntimeException e) {
            resetAfterFailure(n);
            throw e;
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    private synchronized void updateInPlace(MemorySegment src, long offset, long len) {
        NativeSm3 n = nativeLocked();
        try {
            flushLocked(n);
            if (src.isNative() && len > CRITICAL_CHUNK) {
                n.updateLong(src.asSlice(offset, len));
                return;
            }
            for (long end = offset + len; offset < end; offset += CRITICAL_CHUNK) {
                n.update(src, offset, Math.min(CRITICAL_CHUNK, end - offset));
            }
        } catch (RuntimeException e) {
            resetAfterFailure(n);
            throw e;
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    private synchronized void digestInto(MemorySegment out) {
        NativeSm3 n = nativeLocked();
        try {
            flushLocked(n);
            n.finish(out);
        } finally {
            staged = 0;
            n.init();
            Reference.reachabilityFence(this);
        }
    }

    private void flushLocked(NativeSm3 n) {
        int s = staged;
        if (s > 0) {
            staged = 0;
            n.update(n.staging, 0, s);
        }
    }

    // A failed native call leaves the context in an unknown state: start over so the object stays usable.
    private void resetAfterFailure(NativeSm3 n) {
        staged = 0;
        try {
            n.init();
        } catch (RuntimeException suppressed) {
            // The original failure is the one worth reporting.
        }
    }

    private static final class Availability {
        static final LibCryptoUnavailableException FAILURE = check();
    }

    /**
     * Why SM3 cannot be handed out: the loader's error, or a failed known-answer self-test. Checked once,
     * before the first instance is created; empty when SM3 is usable.
     */
    public static Optional<LibCryptoUnavailableException> unavailability() {
        return Optional.ofNullable(Availability.FAILURE);
    }

    private static LibCryptoUnavailableException check() {
        Optional<LibCryptoUnavailableException> loading = LibCrypto.loadingError();
        if (loading.isPresent()) {
            return loading.get();
        }
        String problem = selfTest();
        return problem == null ? null
                : new LibCryptoUnavailableException("SM3 known-answer self-test failed: " + problem, null);
    }

    /**
     * Hashes the two GB/T 32905-2016 example messages, one staged and one passed in place; returns null
     * when OpenSSL's SM3 gives the standard's answers, else what went wrong.
     */
    private static String selfTest() {
        HexFormat hex = HexFormat.of();
        byte[] abc = {'a', 'b', 'c'};
        byte[] abcd16 = new byte[64];
        for (int i = 0; i < abcd16.length; i++) {
            abcd16[i] = (byte) ('a' + i % 4);
        }
        byte[] expectAbc = hex.parseHex("66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0");
        byte[] expectAbcd = hex.parseHex("debe9ff92275b8a138604889c18e5a4d6fdb70e5387e5765293dcba39c0c5732");
        try {
            SM3Digest d = new SM3Digest();
            d.engineUpdate(abc, 0, abc.length);
            byte[] first = d.engineDigest();
            d.updateInPlace(MemorySegment.ofArray(abcd16), 0, abcd16.length);
            byte[] second = d.engineDigest();
            if (!Arrays.equals(first, expectAbc)) {
                return "SM3(\"abc\") gave " + hex.formatHex(first);
            }
            if (!Arrays.equals(second, expectAbcd)) {
                return "SM3(\"abcd\" x 16) gave " + hex.formatHex(second);
            }
            return null;
        } catch (Exception e) {
            return e.toString();
        }
    }
}
