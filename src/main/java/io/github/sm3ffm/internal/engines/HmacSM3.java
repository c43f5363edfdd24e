package io.github.sm3ffm.internal.engines;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;

import io.github.sm3ffm.internal.libcrypto.Algorithm;
import io.github.sm3ffm.internal.libcrypto.LibCryptoUnavailableException;
import io.github.sm3ffm.internal.libcrypto.MacStream;
import java.nio.ByteBuffer;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Arrays;
import javax.crypto.MacSpi;
import javax.crypto.SecretKey;

/**
 * HMAC-SM3 (GM/T 0042-2015, RFC 2104 over SM3) as a {@link MacSpi}, computed by the facade's own RFC 2104
 * over the SM3 calls it chose once: the functions of OpenSSL's provider where it may call them directly, else
 * {@code EVP_MD_CTX}s (the facade's {@code HmacContext} says how, docs/design.md why).
 *
 * <p>Input takes the same paths as {@link SM3Digest} (see the facade's {@code MessageStream}): a new {@code Mac}
 * holds no native memory, a short message is computed at {@code doFinal()} on a pooled context borrowed
 * for that call, and long messages, clones of them and reused {@code Mac}s claim one. {@code reset()} and
 * {@code doFinal()} keep the key; {@code clone()} copies the key and the message so far. Key checks
 * mirror the JDK's {@code HmacSHA256} ({@code com.sun.crypto.provider.HmacCore}) call for call. The array
 * from {@code getEncoded()} is zeroed at once; the engine's own copy, kept as the JDK keeps its pads, is
 * zeroed when a new key replaces it.
 */
public final class HmacSM3 extends MacSpi implements Cloneable {
    /** The key and the message so far; replaced in a {@link #clone()}, which copies both. */
    private MacStream nat;

    public HmacSM3() throws LibCryptoUnavailableException {
        nat = Algorithm.hmacStream();
    }

    @Override
    protected int engineGetMacLength() {
        // HMAC's output is its digest's.
        return DIGEST_LENGTH;
    }

    @Override
    protected void engineInit(Key key, AlgorithmParameterSpec params)
            throws InvalidKeyException, InvalidAlgorithmParameterException {
        if (params != null) {
            throw new InvalidAlgorithmParameterException("HMAC does not use parameters");
        }
        if (!(key instanceof SecretKey)) {
            throw new InvalidKeyException("Secret key expected");
        }
        byte[] secret = key.getEncoded();
        if (secret == null) {
            throw new InvalidKeyException("Missing key data");
        }
        try {
            nat.init(secret);
        } finally {
            Arrays.fill(secret, (byte) 0);
        }
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
        // javax.crypto.Mac checks these already; the engine must not trust a direct caller.
        if (len != 0 && (offset < 0 || len < 0 || offset > input.length - len)) {
            throw new IllegalArgumentException("Bad arguments");
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
    protected byte[] engineDoFinal() {
        byte[] out = new byte[DIGEST_LENGTH];
        nat.finish(out, 0);
        return out;
    }

    // CPD-ON

    @Override
    protected void engineReset() {
        nat.reset();
    }

    @Override
    public Object clone() throws CloneNotSupportedException {
        HmacSM3 copy = (HmacSM3) super.clone();
        copy.nat = nat.copy();
        return copy;
    }
}
