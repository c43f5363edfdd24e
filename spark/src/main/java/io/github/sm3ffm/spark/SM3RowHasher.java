package io.github.sm3ffm.spark;

import io.github.sm3ffm.SM3Provider;
import java.nio.charset.StandardCharsets;
import java.security.DigestException;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.Provider;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Hashes the values of one row after another with one {@link MessageDigest} and one {@link Mac}, created on
 * first use: what {@code sm3} and {@code hmac_sm3} call for each row. The code Spark generates for a stage
 * holds one instance per task; interpreted evaluation uses one per thread ({@link #ofThisThread()}). Not
 * for concurrent use, and not an API: it is public because generated code calls it.
 *
 * <p>A STRING is read where it lies (the row's own byte array, when it is on the heap, as it is in rows
 * that Spark builds), a BINARY as its array: the only copies per row are the digest's own.
 */
public final class SM3RowHasher {
    private static final Provider PROVIDER = new SM3Provider();
    private static final ThreadLocal<SM3RowHasher> PER_THREAD = ThreadLocal.withInitial(SM3RowHasher::new);
    private static final int DIGEST_LENGTH = 32;
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private final byte[] digestOut = new byte[DIGEST_LENGTH];
    private MessageDigest digest;
    private Mac mac;
    /**
     * The key {@link #mac} holds, compared with each row's key: a constant key is set once per task. The only copy
     * of it kept here; the one handed to the {@code Mac} is zeroed once it has the key's pads, and this one when
     * another key replaces it.
     */
    private byte[] macKey;

    /** One per generated projection, so one per task. */
    public SM3RowHasher() {
    }

    /** The calling thread's instance, for interpreted evaluation. */
    public static SM3RowHasher ofThisThread() {
        return PER_THREAD.get();
    }

    /** SM3 of a STRING's UTF-8 bytes, as 64 lowercase hex characters. */
    public UTF8String sm3(UTF8String value) {
        MessageDigest md = digest();
        if (value.getBaseObject() instanceof byte[] array) {
            md.update(array, offsetIn(value), value.numBytes());
        } else {
            md.update(value.getBytes());
        }
        return finish(md);
    }

    /** SM3 of a BINARY, as 64 lowercase hex characters. */
    public UTF8String sm3(byte[] value) {
        MessageDigest md = digest();
        md.update(value);
        return finish(md);
    }

    /**
     * HMAC-SM3 of a message under a key (the arguments in SQL's order), each a STRING's UTF-8 bytes or a BINARY
     * (the other overloads), as 64 lowercase hex characters; an empty key is an {@link IllegalArgumentException}
     * naming the function.
     */
    public UTF8String hmacSm3(UTF8String message, UTF8String key) {
        Mac m = key.getBaseObject() instanceof byte[] array
                ? mac(array, offsetIn(key), key.numBytes())
                : mac(key.getBytes(), 0, key.numBytes());
        if (message.getBaseObject() instanceof byte[] array) {
            m.update(array, offsetIn(message), message.numBytes());
        } else {
            m.update(message.getBytes());
        }
        return finish(m);
    }

    public UTF8String hmacSm3(UTF8String message, byte[] key) {
        return hmacSm3(message, UTF8String.fromBytes(key));
    }

    public UTF8String hmacSm3(byte[] message, UTF8String key) {
        return hmacSm3(UTF8String.fromBytes(message), key);
    }

    public UTF8String hmacSm3(byte[] message, byte[] key) {
        return hmacSm3(UTF8String.fromBytes(message), UTF8String.fromBytes(key));
    }

    private static int offsetIn(UTF8String value) {
        return Math.toIntExact(value.getBaseOffset() - Platform.BYTE_ARRAY_OFFSET);
    }

    private MessageDigest digest() {
        if (digest == null) {
            try {
                digest = MessageDigest.getInstance("SM3", PROVIDER);
            } catch (GeneralSecurityException e) {
                throw unavailable("sm3", e);
            }
        }
        return digest;
    }

    private Mac mac(byte[] key, int offset, int length) {
        if (length == 0) {
            throw new IllegalArgumentException("hmac_sm3: the key is empty. RFC 2104 defines HMAC for an empty key,"
                    + " but hmac_sm3 refuses one, as Trino's hmac_sha256 does: an empty key is almost always a missing one");
        }
        if (mac == null) {
            try {
                mac = Mac.getInstance("HmacSM3", PROVIDER);
            } catch (GeneralSecurityException e) {
                throw unavailable("hmac_sm3", e);
            }
        }
        if (macKey == null || !Arrays.equals(macKey, 0, macKey.length, key, offset, offset + length)) {
            byte[] copy = Arrays.copyOfRange(key, offset, offset + length);
            try {
                mac.init(new RowKey(copy));
            } catch (GeneralSecurityException e) {
                Arrays.fill(copy, (byte) 0);
                throw new IllegalArgumentException("hmac_sm3: the key was refused: " + e.getMessage(), e);
            }
            if (macKey != null) {
                Arrays.fill(macKey, (byte) 0);
            }
            macKey = copy;
        }
        return mac;
    }

    /** The library's own reason (no libcrypto, no SM3 in it, no native access), where the user reads it. */
    private static IllegalStateException unavailable(String function, GeneralSecurityException e) {
        String reason = SM3Provider.unavailability().map(Exception::getMessage).orElse(e.getMessage());
        return new IllegalStateException(function + ": SM3 from OpenSSL is unavailable in this JVM ("
                + PROVIDER.getName() + "): " + reason, e);
    }

    private UTF8String finish(MessageDigest md) {
        try {
            md.digest(digestOut, 0, DIGEST_LENGTH);
        } catch (DigestException e) {
            throw new IllegalStateException(e);
        }
        return hex(digestOut);
    }

    private UTF8String finish(Mac m) {
        try {
            m.doFinal(digestOut, 0);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        return hex(digestOut);
    }

    /** 64 lowercase hex characters, as Spark's {@code sha2} returns; the array becomes the string. */
    private static UTF8String hex(byte[] digest) {
        byte[] text = new byte[2 * DIGEST_LENGTH];
        for (int i = 0; i < DIGEST_LENGTH; i++) {
            text[2 * i] = HEX[(digest[i] >> 4) & 0xf];
            text[2 * i + 1] = HEX[digest[i] & 0xf];
        }
        return UTF8String.fromBytes(text);
    }

    /**
     * A row's key over an array this hasher owns. Unlike {@code SecretKeySpec}, which keeps a copy of its own that
     * nothing zeroes, it hands out copies only, and the provider's {@code Mac} zeroes the copy it takes.
     */
    private static final class RowKey implements SecretKey {
        private static final long serialVersionUID = 1L;
        private final transient byte[] bytes;

        RowKey(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public String getAlgorithm() {
            return "HmacSM3";
        }

        @Override
        public String getFormat() {
            return "RAW";
        }

        @Override
        public byte[] getEncoded() {
            return bytes.clone();
        }
    }
}
