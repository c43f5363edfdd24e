package io.github.sm3ffm.internal.engines;

import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Arrays;
import java.util.List;
import javax.crypto.KDFParameters;
import javax.crypto.KDFSpi;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * What the SM3 KDF engines share, each rule as the JDK's {@code HKDF-SHA256}
 * ({@code com.sun.crypto.provider.HKDFKeyDerivation}) has it: no {@code KDFParameters}, keys handed out as
 * {@code SecretKeySpec}s of any non-empty algorithm name, key material read from RAW keys only.
 */
abstract class Sm3Kdf extends KDFSpi {
    /** {@code name} is what the refusal of parameters names, as the JDK names its HMAC there. */
    Sm3Kdf(KDFParameters parameters, String name) throws InvalidAlgorithmParameterException {
        super(parameters);
        if (parameters != null) {
            throw new InvalidAlgorithmParameterException(name + " does not support parameters");
        }
    }

    @Override
    protected final KDFParameters engineGetParameters() {
        return null;
    }

    @Override
    protected final SecretKey engineDeriveKey(String alg, AlgorithmParameterSpec spec)
            throws InvalidAlgorithmParameterException, NoSuchAlgorithmException {
        if (alg == null) {
            throw new NullPointerException("the algorithm for the SecretKey return value must not be null");
        }
        if (alg.isEmpty()) {
            throw new NoSuchAlgorithmException("the algorithm for the SecretKey return value must not be empty");
        }
        byte[] key = engineDeriveData(spec);
        try {
            return new SecretKeySpec(key, alg);
        } finally {
            Arrays.fill(key, (byte) 0);
        }
    }

    /** The keys' RAW bytes, one after another; the caller zeroes them. */
    static byte[] rawBytes(List<SecretKey> keys) throws InvalidKeyException {
        if (keys.size() == 1) {
            // The usual case: one key, whose encoding is a copy already.
            return rawBytes(keys.get(0));
        }
        byte[][] parts = new byte[keys.size()][];
        int total = 0;
        try {
            for (int i = 0; i < parts.length; i++) {
                parts[i] = rawBytes(keys.get(i));
                total += parts[i].length;
            }
            byte[] all = new byte[total];
            for (int i = 0, at = 0; i < parts.length; at += parts[i].length, i++) {
                System.arraycopy(parts[i], 0, all, at, parts[i].length);
            }
            return all;
        } finally {
            for (byte[] part : parts) {
                if (part != null) {
                    Arrays.fill(part, (byte) 0);
                }
            }
        }
    }

    static byte[] rawBytes(SecretKey key) throws InvalidKeyException {
        if (key == null) {
            throw new InvalidKeyException("No key given");
        }
        if (!"RAW".equalsIgnoreCase(key.getFormat())) {
            throw new InvalidKeyException("Wrong format: RAW bytes needed");
        }
        byte[] bytes = key.getEncoded();
        if (bytes == null) {
            throw new InvalidKeyException("RAW key bytes missing");
        }
        return bytes;
    }
}
