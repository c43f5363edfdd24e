package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.openssl.OpenSSL.ERR_error_string_n;
import static io.github.sm3ffm.internal.openssl.OpenSSL.ERR_get_error;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.security.ProviderException;
import java.util.StringJoiner;

/**
 * Turns OpenSSL's failures into exceptions: return codes checked, the thread-local error queue drained
 * into the message.
 */
final class OpenSSLErrors {
    // OpenSSL documents 256 bytes as enough for any ERR_error_string_n message.
    private static final int MESSAGE_BUFFER = 256;

    private OpenSSLErrors() {
    }

    /** Drains the calling thread's error queue; "no OpenSSL error queued" when it was empty. */
    static String drain() {
        StringJoiner text = new StringJoiner("; ");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = null;
            for (long code; (code = ERR_get_error()) != 0; ) {
                if (buffer == null) {
                    buffer = arena.allocate(MESSAGE_BUFFER);
                }
                ERR_error_string_n(code, buffer, MESSAGE_BUFFER);
                text.add(buffer.getString(0));
            }
        }
        return text.length() == 0 ? "no OpenSSL error queued" : text.toString();
    }

    /**
     * Empties the calling thread's error queue, as {@code ERR_clear_error} does, through {@code ERR_get_error}:
     * the loader has linked that call's shape already ({@code OpenSSL_version_num}'s), and each new shape costs
     * start-up a generated stub.
     */
    static void clear() {
        while (ERR_get_error() != 0) {
            // Each call pops one.
        }
    }

    /** The exception for an OpenSSL call that reported failure, carrying the drained queue. */
    static ProviderException failure(String call) {
        return new ProviderException(call + " failed: " + drain());
    }

    /** {@code allocated}, unless an allocation returned NULL. */
    static MemorySegment allocated(MemorySegment allocated, String call) {
        if (allocated.equals(MemorySegment.NULL)) {
            throw failure(call);
        }
        return allocated;
    }

    /** OpenSSL's EVP functions return 1 on success. */
    static void check(int rc, String call) {
        if (rc != 1) {
            throw failure(call);
        }
    }

    /** What a failed downcall threw: it declares Throwable but fails only with unchecked ones. */
    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException e) {
            return e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new ProviderException(t);
    }
}
