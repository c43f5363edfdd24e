package io.github.sm3ffm.internal;

import java.lang.foreign.MemorySegment;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;
import javax.crypto.MacSpi;
import javax.crypto.SecretKey;

/**
 * HMAC-SM3 (GM/T 0042-2015, RFC 2104 over SM3) as a {@link MacSpi}, computed by OpenSSL's
 * {@code EVP_MAC} "HMAC" with the digest parameter "SM3".
 *
 * <p>Input takes the same paths as {@link SM3Digest} (see {@link NativeStream}): a new {@code Mac}
 * holds no native memory, a short message is computed at {@code doFinal()} on a pooled context borrowed
 * for that call, and long messages, clones of them and reused {@code Mac}s claim one. {@code reset()} and
 * {@code doFinal()} keep the key; {@code clone()} copies the key and the message so far. Key checks
 * mirror the JDK's {@code HmacSHA256} ({@code com.sun.crypto.provider.HmacCore}) call for call. The array
 * from {@code getEncoded()} is zeroed at once; the engine's own copy, kept as the JDK keeps its pads, is
 * zeroed when a new key replaces it.
 */
public final class HmacSM3 extends MacSpi implements Cloneable {
    public static final int MAC_LENGTH = NativeHmac.MAC_LENGTH;

    private final NativeHmac nat;

    public HmacSM3() throws LibCryptoUnavailableException {
        this(NativeHmac.create());
    }

    private HmacSM3(NativeHmac nat) {
        this.nat = nat;
    }

    @Override
    protected int engineGetMacLength() {
        return MAC_LENGTH;
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
            Reference.reachabilityFence(this);
        }
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
        // javax.crypto.Mac checks these already; the engine must not trust a direct caller.
        if (offset < 0 || len < 0 || offset > input.length - len) {
            throw new IllegalArgumentException("Bad arguments");
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

    @Override
    protected byte[] engineDoFinal() {
        byte[] out = new byte[MAC_LENGTH];
        try {
            nat.finish(out, 0);
        } finally {
            Reference.reachabilityFence(this);
        }
        return out;
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
            return new HmacSM3(nat.copy());
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    private static final class Availability {
        static final LibCryptoUnavailableException FAILURE = check();
    }

    /**
     * Why HMAC-SM3 cannot be handed out: SM3 or HMAC missing from libcrypto, or a failed known-answer
     * self-test. Checked once, before the first instance; empty when HMAC-SM3 is usable.
     */
    public static Optional<LibCryptoUnavailableException> unavailability() {
        return Optional.ofNullable(Availability.FAILURE);
    }

    private static LibCryptoUnavailableException check() {
        try {
            LibCrypto.sm3();
            LibCrypto.hmac();
        } catch (LibCryptoUnavailableException e) {
            return e;
        }
        String problem = selfTest();
        return problem == null ? null
                : new LibCryptoUnavailableException("HMAC-SM3 known-answer self-test failed: " + problem, null);
    }

    /**
     * Runs the two GM/T 0042-2015 Appendix D.3 examples through one engine: a key, a new key, and a
     * restart with the same key. Returns null when OpenSSL gives the standard's answers, else what went
     * wrong.
     */
    private static String selfTest() {
        HexFormat hex = HexFormat.of();
        byte[] key1 = new byte[32];
        byte[] key2 = new byte[37];
        for (int i = 0; i < key2.length; i++) {
            key2[i] = (byte) (i + 1);
        }
        System.arraycopy(key2, 0, key1, 0, key1.length);
        byte[] message1 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".repeat(2)
                .getBytes(StandardCharsets.US_ASCII);
        byte[] message2 = new byte[50];
        Arrays.fill(message2, (byte) 0xcd);
        byte[] expect1 = hex.parseHex("ca05e144ed05d1857840d1f318a4a8669e559fc8391f414485bfdf7bb408963a");
        byte[] expect2 = hex.parseHex("220bf579ded555393f0159f66c99877822a3ecf610d1552154b41d44b94db3ae");
        try {
            HmacSM3 mac = new HmacSM3();
            mac.nat.init(key1);
            mac.engineUpdate(message1, 0, message1.length);
            byte[] first = mac.engineDoFinal();
            mac.nat.init(key2);
            mac.engineUpdate(message1, 0, 7);
            mac.engineReset();
            mac.engineUpdate(message2, 0, message2.length);
            byte[] second = mac.engineDoFinal();
            if (!Arrays.equals(first, expect1)) {
                return "the first example gave " + hex.formatHex(first);
            }
            if (!Arrays.equals(second, expect2)) {
                return "the second example gave " + hex.formatHex(second);
            }
            return null;
        } catch (Exception e) {
            return e.toString();
        }
    }
}
