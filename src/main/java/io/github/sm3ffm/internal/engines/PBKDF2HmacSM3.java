package io.github.sm3ffm.internal.engines;

import io.github.sm3ffm.internal.libcrypto.Algorithm;
import io.github.sm3ffm.internal.libcrypto.LibCryptoUnavailableException;
import io.github.sm3ffm.internal.libcrypto.Pbkdf2;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.KeySpec;
import java.util.Arrays;
import javax.crypto.SecretKey;
import javax.crypto.SecretKeyFactorySpi;
import javax.crypto.interfaces.PBEKey;
import javax.crypto.spec.PBEKeySpec;

/**
 * {@code SecretKeyFactory} "PBKDF2WithHmacSM3": PBKDF2 (RFC 8018) with HMAC-SM3 as its PRF, computed on
 * the library's own HMAC-SM3 contexts (see {@link Pbkdf2}). What it
 * accepts and refuses, and with which exception, follows the JDK's {@code PBKDF2WithHmacSHA256}
 * ({@code com.sun.crypto.provider.PBKDF2Core} and {@code PBKDF2KeyImpl}) call for call, and so does the
 * password's encoding (UTF-8, unpaired surrogates as '?').
 */
public final class PBKDF2HmacSM3 extends SecretKeyFactorySpi {
    private final Pbkdf2 kdf;

    public PBKDF2HmacSM3() throws LibCryptoUnavailableException {
        this.kdf = Algorithm.pbkdf2();
    }

    @Override
    protected SecretKey engineGenerateSecret(KeySpec keySpec) throws InvalidKeySpecException {
        if (keySpec instanceof PBEKeySpec spec) {
            return derive(spec);
        }
        throw new InvalidKeySpecException("Only PBEKeySpec is accepted");
    }

    @Override
    protected KeySpec engineGetKeySpec(SecretKey key, Class<?> keySpec) throws InvalidKeySpecException {
        if (!(key instanceof PBEKey pbeKey)) {
            throw new InvalidKeySpecException("Only PBEKey is accepted");
        }
        if (keySpec == null || !keySpec.isAssignableFrom(PBEKeySpec.class)) {
            throw new InvalidKeySpecException("Only PBEKeySpec is accepted");
        }
        char[] password = pbeKey.getPassword();
        byte[] encoded = pbeKey.getEncoded();
        try {
            return new PBEKeySpec(password, pbeKey.getSalt(), pbeKey.getIterationCount(), encoded.length * 8);
        } finally {
            if (password != null) {
                Arrays.fill(password, '\0');
            }
            Arrays.fill(encoded, (byte) 0);
        }
    }

    /** Keys of this factory pass as they are; other PBKDF2WithHmacSM3 PBE keys are derived again. */
    @Override
    protected SecretKey engineTranslateKey(SecretKey key) throws InvalidKeyException {
        if (key == null || !key.getAlgorithm().equalsIgnoreCase(PBKDF2HmacSM3Key.ALGORITHM)
                || !key.getFormat().equalsIgnoreCase("RAW")) {
            throw new InvalidKeyException("Only " + PBKDF2HmacSM3Key.ALGORITHM + " key with RAW format is accepted");
        }
        if (key instanceof PBKDF2HmacSM3Key) {
            return key;
        }
        if (!(key instanceof PBEKey pbeKey)) {
            throw new InvalidKeyException("Only PBEKey is accepted");
        }
        char[] password = pbeKey.getPassword();
        byte[] encoded = pbeKey.getEncoded();
        PBEKeySpec spec = new PBEKeySpec(password, pbeKey.getSalt(), pbeKey.getIterationCount(),
                encoded.length * 8);
        try {
            return derive(spec);
        } catch (InvalidKeySpecException e) {
            throw new InvalidKeyException("Invalid key component(s)", e);
        } finally {
            if (password != null) {
                Arrays.fill(password, '\0');
                spec.clearPassword();
            }
            Arrays.fill(encoded, (byte) 0);
        }
    }

    /** Derives the key {@code spec} describes, checked as the JDK checks it. */
    private PBKDF2HmacSM3Key derive(PBEKeySpec spec) throws InvalidKeySpecException {
        char[] password = spec.getPassword();
        byte[] passwordBytes = utf8(password);
        byte[] key = null;
        try {
            byte[] salt = spec.getSalt();
            if (salt == null) {
                throw new InvalidKeySpecException("Salt not found");
            }
            int iterations = spec.getIterationCount();
            if (iterations == 0) {
                throw new InvalidKeySpecException("Iteration count not found");
            } else if (iterations < 0) {
                throw new InvalidKeySpecException("Iteration count is negative");
            }
            int bits = spec.getKeyLength();
            if (bits == 0) {
                throw new InvalidKeySpecException("Key length not found");
            } else if (bits < 0) {
                throw new InvalidKeySpecException("Key length is negative");
            }
            // Whole bytes only, as the JDK does: 1..7 bits give an empty key.
            key = kdf.derive(passwordBytes, salt, iterations, bits / 8);
            return new PBKDF2HmacSM3Key(password, salt, iterations, key);
        } finally {
            Arrays.fill(passwordBytes, (byte) 0);
            if (key == null) {
                Arrays.fill(password, '\0');
            }
        }
    }

    /** The password as the JDK's PBKDF2 encodes it. */
    private static byte[] utf8(char[] password) {
        ByteBuffer encoded = StandardCharsets.UTF_8.encode(CharBuffer.wrap(password));
        byte[] bytes = new byte[encoded.remaining()];
        encoded.get(bytes);
        encoded.clear().put(new byte[bytes.length]);
        return bytes;
    }
}
