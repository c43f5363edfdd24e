package io.github.sm3ffm;

import java.security.spec.AlgorithmParameterSpec;
import java.util.Objects;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * What the {@code KDF} "X963KDF-SM3" (alias "SM2KDF", JDK 25 and later) derives from: the shared secret Z,
 * the optional SharedInfo, and the number of bytes wanted. The function is the ANSI X9.63 KDF with SM3,
 * {@code SM3(Z || 00000001 || SharedInfo) || SM3(Z || 00000002 || SharedInfo) || ...} cut to the length,
 * which is the KDF of SM2 (GM/T 0003-2012 and GB/T 32918 section 5.4.3, where SharedInfo is empty).
 *
 * <pre>{@code
 * KDF kdf = KDF.getInstance("SM2KDF", "SM3FFM");
 * byte[] t = kdf.deriveData(new X963KDFParameterSpec(x2y2, null, 19));
 * }</pre>
 *
 * <p>Like JDK 25's {@code javax.crypto.spec.HKDFParameterSpec}, it checks what it is given: a null secret throws
 * {@link NullPointerException}, an empty one or a length below 1 {@link IllegalArgumentException}. The
 * arrays are copied in and out.
 */
public final class X963KDFParameterSpec implements AlgorithmParameterSpec {
    private final SecretKey sharedSecret;
    private final byte[] sharedInfo;
    private final int length;

    /**
     * Derivation parameters from a shared secret given as a key.
     *
     * @param sharedSecret Z, in RAW format (for SM2 encryption, {@code x2 || y2})
     * @param sharedInfo   SharedInfo; null or empty for none, as SM2 uses it
     * @param length       how many bytes to derive, at least 1
     */
    public X963KDFParameterSpec(SecretKey sharedSecret, byte[] sharedInfo, int length) {
        this.sharedSecret = Objects.requireNonNull(sharedSecret, "sharedSecret must not be null");
        this.sharedInfo = sharedInfo == null ? new byte[0] : sharedInfo.clone();
        if (length <= 0) {
            throw new IllegalArgumentException("length must be > 0");
        }
        this.length = length;
    }

    /**
     * Derivation parameters from a shared secret given as bytes.
     *
     * @param sharedSecret Z, not empty; copied
     * @param sharedInfo   SharedInfo; null or empty for none
     * @param length       how many bytes to derive, at least 1
     */
    public X963KDFParameterSpec(byte[] sharedSecret, byte[] sharedInfo, int length) {
        this(new SecretKeySpec(Objects.requireNonNull(sharedSecret, "sharedSecret must not be null"), "Generic"),
                sharedInfo, length);
    }

    /**
     * The shared secret.
     *
     * @return Z
     */
    public SecretKey sharedSecret() {
        return sharedSecret;
    }

    /**
     * The shared information.
     *
     * @return a copy of SharedInfo; empty when there is none
     */
    public byte[] sharedInfo() {
        return sharedInfo.clone();
    }

    /**
     * The output length.
     *
     * @return how many bytes to derive
     */
    public int length() {
        return length;
    }
}
