package io.github.sm3ffm.internal.libcrypto;

/**
 * Why libcrypto, or its SM3, cannot be used in this JVM. Recorded once by {@code LibCrypto} and handed
 * out as the cause of every later failure, so each one tells the same complete story.
 */
public final class LibCryptoUnavailableException extends Exception {
    private static final long serialVersionUID = 1L;

    LibCryptoUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
