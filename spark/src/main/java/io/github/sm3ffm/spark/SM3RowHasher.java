package io.github.sm3ffm.spark;

import io.github.sm3ffm.RowHasher;
import java.nio.charset.StandardCharsets;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * What {@code sm3} and {@code hmac_sm3} call for each row: Spark's glue over the library's {@link RowHasher}
 * (Spark's values in, 64 lowercase hex characters out), which keeps nothing per thread and caches keys' HMAC
 * states across rows. The code Spark generates for a stage makes an instance per task, interpreted evaluation
 * uses {@link #shared()}; neither holds any state, so any thread may call any instance. Not an API: it is
 * public because generated code calls it.
 *
 * <p>A STRING is read where it lies (the row's own byte array, when it is on the heap, as it is in rows that
 * Spark builds), a BINARY as its array: the only copies per row are the library's own. Every failure is an
 * exception that fails the task (an {@link IllegalStateException} naming the function and carrying the
 * library's reason; an empty key an {@link IllegalArgumentException}) and leaves nothing behind: the next row,
 * and a retry of the task, compute correctly.
 */
public final class SM3RowHasher {
    private static final RowHasher ROWS = RowHasher.of();
    private static final SM3RowHasher SHARED = new SM3RowHasher();
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    /** One per generated projection, so one per task. */
    public SM3RowHasher() {
    }

    /** The instance for interpreted evaluation (any thread: it holds nothing). */
    public static SM3RowHasher shared() {
        return SHARED;
    }

    /** SM3 of a STRING's UTF-8 bytes, as 64 lowercase hex characters. */
    public UTF8String sm3(UTF8String value) {
        try {
            UTF8String v = onHeap(value);
            return hex(ROWS.sm3((byte[]) v.getBaseObject(), offsetIn(v), v.numBytes()));
        } catch (RuntimeException e) {
            throw failed("sm3", e);
        }
    }

    /** SM3 of a BINARY, as 64 lowercase hex characters. */
    public UTF8String sm3(byte[] value) {
        try {
            return hex(sm3Of(value));
        } catch (RuntimeException e) {
            throw failed("sm3", e);
        }
    }

    private static byte[] sm3Of(byte[] value) {
        return ROWS.sm3(value, 0, value.length);
    }

    /**
     * HMAC-SM3 of a message under a key (the arguments in SQL's order), each a STRING's UTF-8 bytes or a BINARY
     * (the other overloads), as 64 lowercase hex characters; an empty key is an {@link IllegalArgumentException}
     * naming the function and giving the library's reason ({@link RowHasher#EMPTY_KEY}).
     */
    public UTF8String hmacSm3(UTF8String message, UTF8String key) {
        try {
            // Before an off-heap key or message is copied.
            RowHasher.checkKeyLength(key.numBytes());
            UTF8String k = onHeap(key);
            UTF8String m = onHeap(message);
            return hex(ROWS.hmacSm3((byte[]) k.getBaseObject(), offsetIn(k), k.numBytes(),
                    (byte[]) m.getBaseObject(), offsetIn(m), m.numBytes()));
        } catch (RuntimeException e) {
            throw failed("hmac_sm3", e);
        }
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

    /** The value itself where its bytes are in an array, else a copy of them (off-heap rows). */
    private static UTF8String onHeap(UTF8String value) {
        return value.getBaseObject() instanceof byte[] ? value : UTF8String.fromBytes(value.getBytes());
    }

    private static int offsetIn(UTF8String value) {
        return Math.toIntExact(value.getBaseOffset() - Platform.BYTE_ARRAY_OFFSET);
    }

    /** The library's reason (OpenSSL unavailable or failing, a key refused), naming the function. */
    private static RuntimeException failed(String function, RuntimeException e) {
        String message = function + ": " + e.getMessage();
        return e instanceof IllegalArgumentException
                ? new IllegalArgumentException(message, e)
                : new IllegalStateException(message, e);
    }

    /** 64 lowercase hex characters, as Spark's {@code sha2} returns; the array becomes the string. */
    private static UTF8String hex(byte[] digest) {
        byte[] text = new byte[2 * RowHasher.DIGEST_LENGTH];
        for (int i = 0; i < RowHasher.DIGEST_LENGTH; i++) {
            text[2 * i] = HEX[(digest[i] >> 4) & 0xf];
            text[2 * i + 1] = HEX[digest[i] & 0xf];
        }
        return UTF8String.fromBytes(text);
    }
}
