package io.github.sm3ffm.internal.libcrypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Which path SM3 takes. The default test run uses the system's OpenSSL with its default configuration,
 * where the "default" provider serves SM3 and no engine takes it: the provider's functions are called
 * directly. The build runs the digest tests a second time with {@code -Dsm3ffm.sm3.direct=false}, where
 * every call goes through EVP.
 */
class DirectSm3Test {
    @Test
    void pathFollowsTheSwitch() {
        boolean off = "false".equals(System.getProperty(DirectSm3.PROPERTY));
        assertEquals(!off, DirectSm3.ENABLED, DirectSm3.description());
        if (off) {
            assertEquals("EVP (sm3ffm.sm3.direct=false)", DirectSm3.description());
        } else {
            assertTrue(DirectSm3.description().contains("\"default\" provider"), DirectSm3.description());
        }
    }
}
