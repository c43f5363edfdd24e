package io.github.sm3ffm.internal;

import java.lang.foreign.MemorySegment;
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
 * <p>A new instance holds no native memory. Short messages wait on the Java heap and are hashed at
 * {@code digest()} on a context borrowed from a pool for that call; long messages, clones of them and
 * reused instances claim a pooled context that comes back when they finish or die (see
 * {@link NativeStream} and {@link ContextPool}, which say why, with the numbers). Argument checks mirror
 * the JDK's own digests ({@code sun.security.provider.DigestBase}) call for call.
 */
public final class SM3Digest extends MessageDigestSpi implements Cloneable {
    public static final int DIGEST_LENGTH = NativeSm3.DIGEST_LENGTH;
    public static final int BLOCK_SIZE = 64;

    private final NativeSm3 nat;

    public SM3Digest() throws LibCryptoUnavailableException {
        this(NativeSm3.create());
    }

    private SM3Digest(NativeSm3 nat) {
        this.nat = nat;
    }

    @Override
    protected int engineGetDigestLength() {
        return DIGEST_LENGTH;
    }

    @Override
    protected void engineUpdate(byte input) {
        try {
            nat.update(input);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    protected void engineUpdate(byte[] input, int offset, int len) {
        if (len == 0) {
            return;
        }
        if (offset < 0 || len < 0 || offset > input.length - len) {
            throw new ArrayIndexOutOfBoundsException();
        }
        try {
            nat.update(input, offset, len);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    protected void engineUpdate(ByteBuffer input) {
        try {
            nat.update(input);
        } finally {
            Reference.reachabilityFence(this);
            Reference.reachabilityFence(input);
        }
    }

    /** Hashes a whole segment: native ones (such as a mapped file) by address, without a copy. */
    public void update(MemorySegment input) {
        try {
            nat.update(input);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Finishes the message and starts a new one; for callers that hold the engine itself, like sm3sum. */
    public byte[] digest() {
        return engineDigest();
    }

    @Override
    protected byte[] engineDigest() {
        byte[] out = new byte[DIGEST_LENGTH];
        try {
            nat.finish(out, 0);
        } finally {
            Reference.reachabilityFence(this);
        }
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
        try {
            nat.finish(buf, offset);
        } finally {
            Reference.reachabilityFence(this);
        }
        return DIGEST_LENGTH;
    }

    @Override
    protected void engineReset() {
        try {
            nat.reset();
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public Object clone() {
        try {
            return new SM3Digest(nat.copy());
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    private static final class Availability {
        static final LibCryptoUnavailableException FAILURE = check();
    }

    /**
     * Why SM3 cannot be handed out: the loader's error, or a failed known-answer self-test. Checked once,
     * before the first instance is handed out; empty when SM3 is usable.
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
     * Hashes the two GB/T 32905-2016 example messages through the native path; returns null when
     * OpenSSL's SM3 gives the standard's answers, else what went wrong.
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
            d.update(MemorySegment.ofArray(abcd16));
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
