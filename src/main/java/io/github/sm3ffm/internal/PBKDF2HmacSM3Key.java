package io.github.sm3ffm.internal;

import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectStreamException;
import java.io.Serial;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.security.KeyRep;
import java.security.MessageDigest;
import java.security.spec.InvalidKeySpecException;
import java.util.Arrays;
import java.util.Locale;
import javax.crypto.SecretKey;
import javax.crypto.interfaces.PBEKey;
import javax.crypto.spec.PBEKeySpec;

/**
 * A key derived with PBKDF2WithHmacSM3, holding what it was derived from as the JDK's own PBKDF2 keys
 * ({@code com.sun.crypto.provider.PBKDF2KeyImpl}) do, with the same checks, the same password encoding
 * (UTF-8, unpaired surrogates as '?') and the same serialized form (a {@link KeyRep} of the raw bytes).
 * {@link #destroy()} zeroes the password and the key. After it, {@code equals} and {@code hashCode} answer as
 * the JDK's {@code PBEKey} does (equal to itself only), the salt, iteration count, algorithm and format stay
 * readable, and {@code getEncoded}, {@code getPassword} and serialization throw
 * {@code IllegalStateException}, as {@link javax.security.auth.Destroyable} describes (the JDK's
 * {@code PBEKey} returns the zeroed bytes instead).
 */
final class PBKDF2HmacSM3Key implements PBEKey {
    @Serial
    private static final long serialVersionUID = 1L;

    static final String ALGORITHM = "PBKDF2WithHmacSM3";

    private final char[] password;
    private final byte[] salt;
    private final int iterationCount;
    private final byte[] key;
    private volatile boolean destroyed;

    private PBKDF2HmacSM3Key(char[] password, byte[] salt, int iterationCount, byte[] key) {
        this.password = password;
        this.salt = salt;
        this.iterationCount = iterationCount;
        this.key = key;
    }

    /** Derives the key {@code spec} describes with the {@code EVP_KDF} {@code kdf}. */
    static PBKDF2HmacSM3Key derive(MemorySegment kdf, PBEKeySpec spec) throws InvalidKeySpecException {
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
            key = NativePbkdf2.derive(kdf, passwordBytes, salt, iterations, bits / 8);
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

    @Override
    public String getAlgorithm() {
        return ALGORITHM;
    }

    @Override
    public String getFormat() {
        return "RAW";
    }

    @Override
    public byte[] getEncoded() {
        checkNotDestroyed();
        return key.clone();
    }

    @Override
    public char[] getPassword() {
        checkNotDestroyed();
        return password.clone();
    }

    @Override
    public byte[] getSalt() {
        return salt.clone();
    }

    @Override
    public int getIterationCount() {
        return iterationCount;
    }

    @Override
    public void destroy() {
        destroyed = true;
        Arrays.fill(key, (byte) 0);
        Arrays.fill(password, '\0');
    }

    @Override
    public boolean isDestroyed() {
        return destroyed;
    }

    private void checkNotDestroyed() {
        if (destroyed) {
            throw new IllegalStateException("Key has been destroyed");
        }
    }

    /** From the key bytes, zeroes once destroyed (the JDK's PBE keys do the same); never throws. */
    @Override
    public int hashCode() {
        return Arrays.hashCode(key) ^ ALGORITHM.toLowerCase(Locale.ENGLISH).hashCode();
    }

    /** Equal to itself only, once either key is destroyed, as the JDK's PBE keys are; never throws. */
    @Override
    public boolean equals(Object obj) {
        if (obj == this) {
            return true;
        }
        if (destroyed || !(obj instanceof SecretKey that) || that.isDestroyed()
                || !that.getAlgorithm().equalsIgnoreCase(ALGORITHM) || !"RAW".equalsIgnoreCase(that.getFormat())) {
            return false;
        }
        byte[] thatEncoded;
        try {
            thatEncoded = that.getEncoded();
        } catch (IllegalStateException e) {
            // Destroyed without saying so.
            return false;
        }
        try {
            return thatEncoded != null && MessageDigest.isEqual(key, thatEncoded);
        } finally {
            if (thatEncoded != null) {
                Arrays.fill(thatEncoded, (byte) 0);
            }
        }
    }

    @Serial
    private Object writeReplace() throws ObjectStreamException {
        checkNotDestroyed();
        return new KeyRep(KeyRep.Type.SECRET, ALGORITHM, "RAW", key);
    }

    @Serial
    private void readObject(ObjectInputStream stream) throws InvalidObjectException {
        throw new InvalidObjectException("PBKDF2WithHmacSM3 keys are serialized as KeyRep only");
    }
}
