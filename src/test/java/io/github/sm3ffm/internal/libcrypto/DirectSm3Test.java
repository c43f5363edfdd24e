package io.github.sm3ffm.internal.libcrypto;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.internal.openssl.OpenSSL;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Random;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.junit.jupiter.api.Test;

/**
 * Which path SM3 takes. The default test run uses the system's OpenSSL with its default configuration,
 * where the "default" provider serves SM3 and no engine takes it: the provider's functions are called
 * directly. The build runs the digest tests a second time with {@code -Dsm3ffm.sm3.direct=false}, where
 * every call goes through EVP. Copies of a context, made whichever way the backend makes them, continue
 * as the source would.
 */
class DirectSm3Test {
    /** OpenSSL_version_num() of 3.5.0, the first release whose default provider has an SM3 copyctx. */
    private static final long OPENSSL_3_5 = 0x30500000L;

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

    /** On a default provider that has copyctx (OpenSSL 3.5 and later) it is linked; on one without, it is not. */
    @Test
    void copyctxIsLinkedWhereTheProviderHasIt() throws Exception {
        if (!DirectSm3.ENABLED) {
            assertNull(DirectSm3.COPYCTX, "nothing of the provider's is linked when EVP serves SM3");
        } else if (DirectSm3.description().contains("\"default\" provider")) {
            boolean offered = OpenSSL.OpenSSL_version_num() >= OPENSSL_3_5;
            assertEquals(offered, DirectSm3.COPYCTX != null, LibCrypto.version() + ": copyctx linked");
            // Without copyctx, OpenSSL's own SM3 contexts are copied as their 108 bytes.
            assertEquals(offered ? 0 : 108, DirectSm3.STATE_BYTES, DirectSm3.description());
        } else {
            assertEquals(0, DirectSm3.STATE_BYTES, "only OpenSSL's own provider's contexts are copied as bytes");
        }
    }

    /** Contexts are copied as bytes only for OpenSSL 3.0 to 3.4, whose SM3 context layout is known. */
    @Test
    void stateBytesOnlyForOpenSslBefore35() {
        assertTrue(DirectSm3.before35("OpenSSL 3.0.22 25 Aug 2026"));
        assertTrue(DirectSm3.before35("OpenSSL 3.4.1 11 Feb 2025"));
        assertFalse(DirectSm3.before35("OpenSSL 3.5.7 1 Jul 2026"));
        assertFalse(DirectSm3.before35("OpenSSL 3.10.0 1 Jan 2030"));
        assertFalse(DirectSm3.before35("OpenSSL 4.0.2 1 Sep 2026"));
        assertFalse(DirectSm3.before35("OpenSSL 30.1.0"));
        assertFalse(DirectSm3.before35("Tongsuo 8.4.0 1 Jan 2024"));
        assertFalse(DirectSm3.before35(null));
    }

    /** Every way the facade copies a context gives the state of the source, which the copy leaves intact. */
    @Test
    void everyCopyContinuesAsTheSource() {
        Random random = new Random(15);
        byte[] prefix = new byte[100];
        byte[] suffix = new byte[37];
        byte[] other = new byte[64 + 5];
        random.nextBytes(prefix);
        random.nextBytes(suffix);
        random.nextBytes(other);
        byte[] expected = reference(prefix, suffix);
        byte[] sourceExpected = reference(prefix, other);
        try (Arena arena = Arena.ofConfined()) {
            Message m = new Message(arena, prefix, suffix, other);
            Sm3Calls.Evp evp = new Sm3Calls.Evp();
            assertCopy(m, evp, expected, sourceExpected, evp::copy, true);
            assertOneMessageCopy(m, evp, suffix, expected, sourceExpected);
            if (DirectSm3.ENABLED) {
                Sm3Calls.Provider provider = new Sm3Calls.Provider();
                assertCopy(m, provider, expected, sourceExpected, provider::copy,
                        DirectSm3.COPYCTX != null || DirectSm3.STATE_BYTES != 0);
                assertCopy(m, provider, expected, sourceExpected, provider::replaceWithDup, false);
                if (DirectSm3.COPYCTX != null) {
                    assertCopy(m, provider, expected, sourceExpected, (src, into) -> {
                        Sm3Calls.Provider.copyInto(src, into);
                        return into;
                    }, true);
                }
                assertOneMessageCopy(m, provider, suffix, expected, sourceExpected);
            }
        }
    }

    private interface Copy {
        MemorySegment copy(MemorySegment src, MemorySegment into);
    }

    /** The message's parts in native memory, and a place for a digest. */
    private record Message(MemorySegment prefix, MemorySegment suffix, MemorySegment other, MemorySegment out,
                           MemorySegment outl) {
        Message(Arena arena, byte[] prefix, byte[] suffix, byte[] other) {
            this(arena.allocateFrom(JAVA_BYTE, prefix), arena.allocateFrom(JAVA_BYTE, suffix),
                    arena.allocateFrom(JAVA_BYTE, other), arena.allocate(Sm3Sizes.DIGEST_LENGTH),
                    arena.allocate(JAVA_LONG));
        }

        /** A context that has absorbed the prefix. */
        MemorySegment source(Sm3Calls calls) {
            MemorySegment ctx = calls.newContext();
            calls.init(ctx);
            calls.update(ctx, prefix, prefix.byteSize());
            return ctx;
        }

        /** A context in the middle of another message, which a copy into it must overwrite entirely. */
        MemorySegment busy(Sm3Calls calls) {
            MemorySegment ctx = calls.newContext();
            calls.init(ctx);
            calls.update(ctx, other, other.byteSize());
            calls.update(ctx, suffix, 3);
            return ctx;
        }

        byte[] finish(Sm3Calls calls, MemorySegment ctx, MemorySegment last) {
            calls.update(ctx, last, last.byteSize());
            calls.finalInto(ctx, out, outl);
            return out.toArray(JAVA_BYTE);
        }
    }

    private static void assertCopy(Message m, Sm3Calls calls, byte[] expected, byte[] sourceExpected,
                                   Copy way, boolean inPlace) {
        MemorySegment src = m.source(calls);
        MemorySegment into = m.busy(calls);
        MemorySegment copy = way.copy(src, into);
        try {
            if (inPlace) {
                assertSame(into, copy, "copied into the context given");
            } else {
                assertNotSame(into, copy, "a new context in place of the one given");
            }
            assertArrayEquals(expected, m.finish(calls, copy, m.suffix()), calls.getClass().getName());
            assertArrayEquals(sourceExpected, m.finish(calls, src, m.other()), "the source is intact");
        } finally {
            calls.free(copy);
            calls.free(src);
        }
    }

    // The copy lives until the final; the spare it may use is still the caller's afterwards.
    private static void assertOneMessageCopy(Message m, Sm3Calls calls, byte[] suffix, byte[] expected,
                                             byte[] sourceExpected) {
        MemorySegment src = m.source(calls);
        MemorySegment spare = m.busy(calls);
        try {
            MemorySegment copy = calls.copyForOneMessage(src, spare);
            try {
                assertArrayEquals(expected, m.finish(calls, copy, m.suffix()), calls.getClass().getName());
            } finally {
                calls.dropCopy(copy, spare);
            }
            assertArrayEquals(sourceExpected, m.finish(calls, src, m.other()), "the source is intact");
            calls.init(spare);
            assertArrayEquals(reference(new byte[0], suffix), m.finish(calls, spare, m.suffix()),
                    "the spare is usable");
        } finally {
            calls.free(spare);
            calls.free(src);
        }
    }

    private static byte[] reference(byte[] a, byte[] b) {
        SM3Digest sm3 = new SM3Digest();
        sm3.update(a, 0, a.length);
        sm3.update(b, 0, b.length);
        byte[] out = new byte[Sm3Sizes.DIGEST_LENGTH];
        sm3.doFinal(out, 0);
        return out;
    }
}
