package io.github.sm3ffm.internal.engines;

import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidParameterException;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Arrays;
import javax.crypto.KeyGeneratorSpi;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * Random keys for HmacSM3: {@value #DEFAULT_KEY_SIZE} bits unless told otherwise (the SM3 output size,
 * as the JDK's HmacSHA256 generator defaults to SHA-256's). Sizes and refusals follow the JDK's
 * {@code com.sun.crypto.provider.KeyGeneratorCore}: at least 40 bits, no parameters.
 */
public final class HmacSM3KeyGenerator extends KeyGeneratorSpi {
    public static final int DEFAULT_KEY_SIZE = 256;
    static final String ALGORITHM = "HmacSM3";

    private int keySize = DEFAULT_KEY_SIZE;
    private SecureRandom random;

    private static final class DefaultRandom {
        static final SecureRandom INSTANCE = new SecureRandom();
    }

    @Override
    protected void engineInit(SecureRandom random) {
        this.keySize = DEFAULT_KEY_SIZE;
        this.random = random;
    }

    @Override
    protected void engineInit(AlgorithmParameterSpec params, SecureRandom random)
            throws InvalidAlgorithmParameterException {
        throw new InvalidAlgorithmParameterException(ALGORITHM + " key generation does not take any parameters");
    }

    @Override
    protected void engineInit(int keySize, SecureRandom random) {
        if (keySize < 40) {
            throw new InvalidParameterException("Key length must be at least 40 bits");
        }
        this.keySize = keySize;
        this.random = random;
    }

    @Override
    protected SecretKey engineGenerateKey() {
        byte[] key = new byte[(keySize + 7) >> 3];
        (random != null ? random : DefaultRandom.INSTANCE).nextBytes(key);
        try {
            return new SecretKeySpec(key, ALGORITHM);
        } finally {
            Arrays.fill(key, (byte) 0);
        }
    }
}
