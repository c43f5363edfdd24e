package io.github.sm3ffm.internal.engines;

import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectStreamException;
import java.io.Serial;
import java.security.KeyRep;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Locale;
import javax.crypto.SecretKey;
import javax.crypto.interfaces.PBEKey;

/**
 * A key derived with PBKDF2WithHmacSM3: a value holding the derived bytes and what they were derived from
 * (password, salt, iteration count), as the JDK's own PBKDF2 keys ({@code com.sun.crypto.provider.PBKDF2KeyImpl})
 * do, with the same serialized form (a {@link KeyRep} of the raw bytes).
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

    /** Takes the arrays as they are: the caller made them for this key alone. */
    PBKDF2HmacSM3Key(char[] password, byte[] salt, int iterationCount, byte[] key) {
        this.password = password;
        this.salt = salt;
        this.iterationCount = iterationCount;
        this.key = key;
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
