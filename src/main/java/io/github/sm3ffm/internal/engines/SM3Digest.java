package io.github.sm3ffm.internal.engines;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;

import io.github.sm3ffm.internal.libcrypto.Algorithm;
import io.github.sm3ffm.internal.libcrypto.LibCryptoUnavailableException;
import io.github.sm3ffm.internal.libcrypto.DigestStream;
import java.nio.ByteBuffer;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.MessageDigestSpi;

/**
 * SM3 (GB/T 32905-2016) as a {@link MessageDigest}, computed by OpenSSL's {@code EVP_Digest*} on the
 * {@code EVP_MD} that the loader fetched once, or by the provider's own SM3 functions (see the facade's {@code MessageStream}).
 *
 * <p>A new instance holds no native memory. Short messages wait on the Java heap and are hashed at
 * {@code digest()} on a context borrowed from a pool for that call; long messages, clones of them and
 * reused instances claim a pooled context that comes back when they finish or die (the facade's
 * {@code MessageStream} and {@code ContextPool} say how, docs/design.md why). Argument checks mirror the
 * JDK's own digests ({@code sun.security.provider.DigestBase}) call for call.
 *
 * <p>A {@link MessageDigest} itself, not only its SPI, as BouncyCastle's digests are: {@code getInstance} then hands
 * out the engine as it is, where it wraps a bare {@link MessageDigestSpi} in a delegate, and every call, one byte's
 * {@code update} included, saves the delegate's load and type check. So {@code getAlgorithm()} is "SM3" whichever
 * alias asked for it.
 */
public final class SM3Digest extends MessageDigest implements Cloneable {
    /** Not final: {@link #clone()} gives the copy a stream of its own, as the JDK's digests do. */
    private DigestStream nat;

    public SM3Digest() throws LibCryptoUnavailableException {
        super("SM3");
        nat = Algorithm.sm3Stream();
    }

    @Override
    protected int engineGetDigestLength() {
        return DIGEST_LENGTH;
    }

    // CPD-OFF: the JCA skeleton both engines write, MessageDigestSpi's and MacSpi's (no common superclass to
    // hold it; each calls its own stream type, which keeps the calls monomorphic).
    @Override
    protected void engineUpdate(byte input) {
        if (!nat.append(input)) {
            nat.update(new byte[] {input}, 0, 1);
        }
    }

    @Override
    protected void engineUpdate(byte[] input, int offset, int len) {
        if (len != 0 && (offset < 0 || len < 0 || offset > input.length - len)) {
            throw new ArrayIndexOutOfBoundsException();
        }
        if (!nat.append(input, offset, len)) {
            nat.update(input, offset, len);
        }
    }

    @Override
    protected void engineUpdate(ByteBuffer input) {
        nat.update(input, 0, input.remaining());
        input.position(input.limit());
    }

    @Override
    protected byte[] engineDigest() {
        byte[] out = new byte[DIGEST_LENGTH];
        nat.finish(out, 0);
        return out;
    }

    // CPD-ON

    @Override
    protected int engineDigest(byte[] buf, int offset, int len) throws DigestException {
        if (len < DIGEST_LENGTH) {
            throw new DigestException("Length must be at least " + DIGEST_LENGTH + " for SM3 digests");
        }
        if (offset < 0 || len < 0 || offset > buf.length - len) {
            throw new DigestException("Buffer too short to store digest");
        }
        nat.finish(buf, offset);
        return DIGEST_LENGTH;
    }

    @Override
    protected void engineReset() {
        nat.reset();
    }

    @Override
    public Object clone() throws CloneNotSupportedException {
        SM3Digest copy = (SM3Digest) super.clone();
        copy.nat = nat.copy();
        return copy;
    }
}
