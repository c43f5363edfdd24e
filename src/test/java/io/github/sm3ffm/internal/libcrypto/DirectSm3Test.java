package io.github.sm3ffm.internal.libcrypto;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.sm3ffm.ChildJvm;
import io.github.sm3ffm.internal.openssl.OpenSSL;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
        String description = Faults.chosen().description();
        assertEquals(!off, BackendChoice.offer().direct(), description);
        if (off) {
            assertEquals("EVP (sm3ffm.sm3.direct=false)", description);
            assertInstanceOf(EvpBackend.class, Faults.chosen());
        } else {
            assertTrue(description.contains("\"default\" provider"), description);
        }
    }

    /**
     * The way of copying is decided once, and the selected calls are that decision: copyctx where the provider has
     * it (OpenSSL 3.5 and later), else OpenSSL's own SM3_CTX bytes on 3.0 to 3.4 once its layout is proved, else
     * dupctx.
     */
    @Test
    void copiesAreDecidedOnceByVersionAndProof() throws Throwable {
        if (!BackendChoice.offer().direct()) {
            assertNull(BackendChoice.offer().linked(), "nothing of the provider's is linked when EVP serves SM3");
            assertNull(BackendChoice.offer().copies());
            return;
        }
        long version = OpenSSL.OpenSSL_version_num();
        boolean offered = version >= OPENSSL_3_5;
        assertEquals(offered, ProviderBackend.Functions.COPYCTX != null, LibCrypto.version() + ": copyctx linked");
        DirectSm3.Copies expected = offered ? DirectSm3.Copies.COPYCTX
                : DirectSm3.hasSm3Ctx(version) ? DirectSm3.Copies.STATE_BYTES : DirectSm3.Copies.DUPCTX;
        assertEquals(expected, BackendChoice.offer().copies(), BackendChoice.selected().description());
        Class<?> calls = switch (BackendChoice.offer().copies()) {
            case COPYCTX -> ProviderBackend.Copyctx.class;
            case STATE_BYTES -> ProviderBackend.StateBytes.class;
            case DUPCTX -> ProviderBackend.Dupctx.class;
        };
        assertInstanceOf(calls, Faults.chosen());
        if (DirectSm3.hasSm3Ctx(version)) {
            assertTrue(Sm3CtxLayout.proved(BackendChoice.offer().linked()), "the provider's contexts read as OpenSSL's SM3_CTX");
        }
    }

    /** Contexts are copied as bytes only for OpenSSL 3.0 to 3.4, named by the release number, not its text. */
    @Test
    void stateBytesOnlyForOpenSsl30To34() {
        assertTrue(DirectSm3.hasSm3Ctx(0x3000_0130L), "3.0.19");
        assertTrue(DirectSm3.hasSm3Ctx(0x3000_0000L), "3.0.0");
        assertTrue(DirectSm3.hasSm3Ctx(0x3040_0010L), "3.4.1");
        assertFalse(DirectSm3.hasSm3Ctx(0x3050_0000L), "3.5.0");
        assertFalse(DirectSm3.hasSm3Ctx(0x3060_0000L), "3.6.0");
        assertFalse(DirectSm3.hasSm3Ctx(0x4000_0020L), "4.0.2");
        assertFalse(DirectSm3.hasSm3Ctx(0x1010_117fL), "1.1.1w");
    }

    /** The byte copy alone can be turned off: SM3 is still called directly, its contexts copied by dupctx. */
    @Test
    void stateCopyHasASwitchOfItsOwn() throws Exception {
        ChildJvm.Result r = ChildJvm.run(Map.of(), List.of("-D" + DirectSm3.STATE_COPY_PROPERTY + "=false"),
                PathProbe.class);
        assertEquals(0, r.exitCode(), r.output());
        assertTrue(r.output().contains("copy ok"), r.output());
        assertFalse(r.output().contains("-byte states"), r.output());
        // What the child finds, whatever this JVM's own backend: it runs with the direct path on.
        Found found = ProviderLookup.find(LibCrypto.fetchedSm3(), null);
        assumeTrue(found.reason() == null, "the provider's functions are not used here: " + found.reason());
        String copies = found.copyctx() != null ? "by its copyctx" : "by its dupctx";
        assertTrue(r.output().contains("called directly; contexts copied " + copies), r.output());
    }

    /** Child-JVM entry point: prints how SM3 is computed, then that a digest is right. */
    public static final class PathProbe {
        public static void main(String[] args) throws Exception {
            System.out.println(BackendChoice.selected().description());
            DigestStream sm3 = Algorithm.sm3Stream();
            byte[] clone = new byte[1000];
            sm3.update(clone, 0, clone.length);
            var copy = sm3.copy();
            System.out.println(java.util.Arrays.equals(sm3.finish(), copy.finish()) ? "copy ok" : "copy WRONG");
        }
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
            // The choice first: it loads libcrypto, whose symbols EVP's handles are linked from.
            DirectSm3.Offer offer = BackendChoice.offer();
            Message m = new Message(arena, prefix, suffix, other);
            List<Backend> ways = new ArrayList<>(List.of(new EvpBackend("test")));
            if (offer.direct()) {
                ways.add(new ProviderBackend.Dupctx("test"));
                if (offer.copies() == DirectSm3.Copies.COPYCTX) {
                    ways.add(new ProviderBackend.Copyctx("test"));
                } else if (offer.copies() == DirectSm3.Copies.STATE_BYTES) {
                    ways.add(new ProviderBackend.StateBytes("test"));
                }
            }
            for (Backend calls : ways) {
                assertCopy(m, calls, expected, sourceExpected, calls::copy, !(calls instanceof ProviderBackend.Dupctx));
                assertOneMessageCopy(m, calls, suffix, expected, sourceExpected);
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
        MemorySegment source(Backend calls) {
            MemorySegment ctx = calls.newContext();
            calls.init(ctx);
            calls.update(ctx, prefix, prefix.byteSize());
            return ctx;
        }

        /** A context in the middle of another message, which a copy into it must overwrite entirely. */
        MemorySegment busy(Backend calls) {
            MemorySegment ctx = calls.newContext();
            calls.init(ctx);
            calls.update(ctx, other, other.byteSize());
            calls.update(ctx, suffix, 3);
            return ctx;
        }

        byte[] finish(Backend calls, MemorySegment ctx, MemorySegment last) {
            calls.update(ctx, last, last.byteSize());
            calls.finalInto(ctx, out, outl);
            return out.toArray(JAVA_BYTE);
        }
    }

    private static void assertCopy(Message m, Backend calls, byte[] expected, byte[] sourceExpected,
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
    private static void assertOneMessageCopy(Message m, Backend calls, byte[] suffix, byte[] expected,
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
