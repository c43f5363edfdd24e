package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.openssl.OpenSSL.OpenSSL_version_num;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.security.ProviderException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The steps before a backend exists ({@link BackendChoice#offer}), each run again on the loaded libcrypto
 * whatever backend this JVM chose: the lookup of the provider's SM3 functions behind the fetched SM3, their linking,
 * the known-answer and copy checks, and the offer they make. The JVM's own choice ran once, at its first use; these
 * tests call each step as a function of the previous step's result, as the choice does, and judge what it returns.
 */
class StartupStepsTest {
    private static MemorySegment md;

    @BeforeAll
    static void loaded() {
        assumeTrue(LibCrypto.isAvailable(), "libcrypto with SM3 is not loaded");
        md = Startup.NATIVE.loaded();
        assertNotEquals(MemorySegment.NULL, md, "the loader fetched SM3");
        assertEquals(LibCrypto.fetchedSm3(), md);
    }

    private static boolean copyctxExpected() {
        return OpenSSL_version_num() >= 0x3050_0000L;
    }

    @Test
    void theLookupFindsTheDefaultProvidersFunctions() {
        Found found = ProviderLookup.find(md, null);
        assertNull(found.reason(), "why not: " + found.reason());
        assertEquals("default", found.provider());
        assertNotEquals(MemorySegment.NULL, found.providerCtx());
        List<MemorySegment> functions = List.of(found.newctx(), found.init(), found.update(), found.fin(),
                found.freectx(), found.dupctx());
        Set<Long> addresses = new HashSet<>();
        for (MemorySegment f : functions) {
            assertNotNull(f);
            assertNotEquals(MemorySegment.NULL, f);
            addresses.add(f.address());
        }
        assertEquals(6, addresses.size(), "six different functions");
        assertEquals(copyctxExpected(), found.copyctx() != null, "copyctx exactly from OpenSSL 3.5 on");
        assertEquals(found, ProviderLookup.find(md, "true"), "any other setting looks the functions up too");
    }

    @Test
    void theLookupSaysWhyItFindsNothing() {
        assertEquals(DirectSm3.PROPERTY + "=false", ProviderLookup.find(md, "false").reason());
        assertEquals(DirectSm3.PROPERTY + "=false", ProviderLookup.find(md, "FALSE").reason());
        assertEquals("SM3 is unavailable", ProviderLookup.find(MemorySegment.NULL, null).reason());
        Found no = ProviderLookup.find(MemorySegment.NULL, null);
        assertNull(no.provider());
        assertNull(no.newctx());
        // The setting the library reads is this JVM's.
        String setting = System.getProperty(DirectSm3.PROPERTY);
        assertEquals(ProviderLookup.find(md, setting), Startup.NATIVE.find(md));
    }

    @Test
    void theLinkedFunctionsHashAsSm3() throws Throwable {
        Linked linked = Startup.NATIVE.link(ProviderLookup.find(md, null));
        assertSame(linked, Startup.NATIVE.calls(linked), "the checks call the linked functions themselves");
        assertEquals(copyctxExpected(), linked.copyInto() != null);
        byte[] message = new byte[300];
        for (int i = 0; i < message.length; i++) {
            message[i] = (byte) (i * 13 + 5);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment in = arena.allocateFrom(JAVA_BYTE, message);
            MemorySegment out = arena.allocate(Sm3Sizes.DIGEST_LENGTH);
            MemorySegment outl = arena.allocate(JAVA_LONG);
            MemorySegment ctx = linked.newctxOrThrow();
            MemorySegment dup = MemorySegment.NULL;
            try {
                for (int n : new int[] {0, 3, 64, 300}) {
                    linked.initOrThrow(ctx);
                    linked.updateOrThrow(ctx, in, n);
                    linked.finOrThrow(ctx, out, outl);
                    assertEquals(Sm3Sizes.DIGEST_LENGTH, outl.get(JAVA_LONG, 0));
                    assertArrayEquals(References.sm3(java.util.Arrays.copyOf(message, n)), out.toArray(JAVA_BYTE),
                            n + " bytes");
                }
                // Through the ordinary update, and a dupctx taken halfway.
                MethodHandle ordinary = linked.ordinaryUpdate();
                linked.initOrThrow(ctx);
                assertEquals(1, (int) ordinary.invokeExact(ctx, in, 100L));
                dup = linked.dupctxOrThrow(ctx);
                assertEquals(1, (int) ordinary.invokeExact(dup, in.asSlice(100), 200L));
                linked.finOrThrow(dup, out, outl);
                assertArrayEquals(References.sm3(message), out.toArray(JAVA_BYTE), "the copy went on");
                linked.finOrThrow(ctx, out, outl);
                assertArrayEquals(References.sm3(java.util.Arrays.copyOf(message, 100)), out.toArray(JAVA_BYTE),
                        "the source kept its own state");
            } finally {
                linked.freeIfMade(dup);
                linked.freectx(ctx);
            }
        }
    }

    @Test
    void theChecksPassOnTheRealFunctionsAndTheOfferSaysHowToCopy() throws Throwable {
        Found found = ProviderLookup.find(md, null);
        Linked linked = Linked.of(found);
        assertNull(DirectSm3.abcCheck(linked), "the standard's \"abc\" digest");
        if (DirectSm3.hasSm3Ctx(OpenSSL_version_num())) {
            assertTrue(DirectSm3.copyCheck(linked), "OpenSSL's SM3_CTX copies as its 108 bytes");
        }
        DirectSm3.Offer offer = DirectSm3.offer(found, linked, linked);
        assertTrue(offer.direct());
        assertNull(offer.reason());
        assertEquals("default", offer.provider());
        assertSame(linked, offer.linked());
        DirectSm3.Copies expected = copyctxExpected() ? DirectSm3.Copies.COPYCTX
                : "false".equalsIgnoreCase(System.getProperty(DirectSm3.STATE_COPY_PROPERTY))
                ? DirectSm3.Copies.DUPCTX : DirectSm3.Copies.STATE_BYTES;
        assertEquals(expected, offer.copies());
    }

    /** Functions that give a wrong digest: the offer is EVP's, and says what they gave. */
    @Test
    void aWrongAbcMakesTheOfferEvps() throws Throwable {
        Found found = ProviderLookup.find(md, null);
        Linked linked = Linked.of(found);
        ProviderCalls wrong = new Wrapped(linked) {
            @Override
            public int fin(MemorySegment ctx, MemorySegment out, MemorySegment outl) throws Throwable {
                int r = super.fin(ctx, out, outl);
                out.set(JAVA_BYTE, 31, (byte) (out.get(JAVA_BYTE, 31) ^ 1));
                return r;
            }
        };
        String why = DirectSm3.abcCheck(wrong);
        assertEquals(List.of("newctx", "init", "update", "fin", "freectx"), ((Wrapped) wrong).called,
                "one context, freed");
        assertNotNull(why);
        assertTrue(why.startsWith("the provider's SM3 functions gave SM3(\"abc\") = 66c7f0f4"), why);
        assertFalse(why.endsWith(KnownAnswers.SM3_ABC), why);
        DirectSm3.Offer offer = DirectSm3.offer(found, linked, wrong);
        assertFalse(offer.direct());
        assertEquals(why, offer.reason());
        assertNull(offer.linked());

        ProviderCalls shortLength = new Wrapped(linked) {
            @Override
            public int fin(MemorySegment ctx, MemorySegment out, MemorySegment outl) throws Throwable {
                int r = super.fin(ctx, out, outl);
                outl.set(JAVA_LONG, 0, 31);
                return r;
            }
        };
        assertNotNull(DirectSm3.abcCheck(shortLength), "a digest of the wrong length");
    }

    /** A failed call is no verdict: the check throws, frees what it made, and the offer decides nothing. */
    @Test
    void aCheckThatCouldNotRunThrows() {
        Linked linked = Linked.of(ProviderLookup.find(md, null));
        Wrapped failingUpdate = new Wrapped(linked) {
            @Override
            public int update(MemorySegment ctx, MemorySegment data, long len) throws Throwable {
                super.update(ctx, data, len);
                return 0;
            }
        };
        assertThrows(ProviderException.class, () -> DirectSm3.abcCheck(failingUpdate));
        assertEquals("freectx", failingUpdate.called.get(failingUpdate.called.size() - 1));
        assertThrows(ProviderException.class,
                () -> DirectSm3.offer(ProviderLookup.find(md, null), linked, failingUpdate));
    }

    /** The steps in order, each from the previous one's result, as the choice runs them. */
    @Test
    void theChoiceRunsTheStepsInOrderAndStopsAtAReason() throws Throwable {
        List<String> steps = new ArrayList<>();
        DirectSm3.Offer direct = BackendChoice.offer(new Recording(steps, null));
        assertEquals(List.of("loaded", "find", "link", "calls"), steps);
        assertTrue(direct.direct(), "why not: " + direct.reason());
        assertEquals("default", direct.provider());
        assertNotNull(direct.linked());

        steps.clear();
        DirectSm3.Offer evp = BackendChoice.offer(new Recording(steps, "off for this test"));
        assertEquals(List.of("loaded", "find"), steps, "nothing is linked for functions not found");
        assertFalse(evp.direct());
        assertEquals("off for this test", evp.reason());
        assertNull(evp.linked());

        Startup throwing = new Recording(steps, null) {
            @Override
            public Found find(MemorySegment fetched) {
                throw new ProviderException("a failed call");
            }
        };
        assertThrows(ProviderException.class, () -> BackendChoice.offer(throwing));
    }

    /** The JVM's own choice: made once, kept, and the same backend at every call. */
    @Test
    void theKeptChoiceIsOneBackend() {
        Backend backend = BackendChoice.selected();
        assertTrue(BackendChoice.made());
        assertSame(backend, BackendChoice.selected());
        DirectSm3.Offer offer = BackendChoice.offer();
        assertSame(offer, BackendChoice.offer());
        boolean direct = !"false".equalsIgnoreCase(System.getProperty(DirectSm3.PROPERTY));
        assertEquals(direct, offer.direct(), "the offer follows " + DirectSm3.PROPERTY);
        assertEquals(!direct, backend.description().startsWith("EVP ("), backend.description());
        if (offer.direct()) {
            assertSame(offer.linked(), ChosenFunctions.linked(), "the chosen functions are the offer's");
            // It says whose functions it calls and how it copies their contexts.
            String how = switch (offer.copies()) {
                case COPYCTX -> "by its copyctx";
                case STATE_BYTES -> "as " + Sm3CtxLayout.SM3_CTX_BYTES + "-byte states";
                case DUPCTX -> "by its dupctx";
            };
            assertEquals("SM3 functions of OpenSSL's \"" + offer.provider() + "\" provider, called directly; contexts"
                    + " copied " + how, Faults.chosen().description());
        } else {
            assertEquals("EVP (" + offer.reason() + ")", Faults.chosen().description());
        }
        assertThrows(IllegalStateException.class, () -> BackendChoice.decorate(s -> s, b -> b));
    }

    /** The steps, recording their order; {@code reason} non-null makes the lookup find nothing. */
    private static class Recording implements Startup {
        final List<String> steps;
        final String reason;

        Recording(List<String> steps, String reason) {
            this.steps = steps;
            this.reason = reason;
        }

        @Override
        public MemorySegment loaded() {
            steps.add("loaded");
            return Startup.NATIVE.loaded();
        }

        @Override
        public Found find(MemorySegment fetched) {
            steps.add("find");
            assertEquals(md, fetched, "the lookup gets what the loader fetched");
            return reason != null ? Found.no(reason) : ProviderLookup.find(fetched, null);
        }

        @Override
        public Linked link(Found found) {
            steps.add("link");
            assertNull(found.reason());
            return Linked.of(found);
        }

        @Override
        public ProviderCalls calls(Linked linked) {
            steps.add("calls");
            return linked;
        }
    }

    /** The linked functions, recording which are called. */
    private static class Wrapped implements ProviderCalls {
        final ProviderCalls real;
        final List<String> called = new ArrayList<>();

        Wrapped(ProviderCalls real) {
            this.real = real;
        }

        @Override
        public MemorySegment newctx() throws Throwable {
            called.add("newctx");
            return real.newctx();
        }

        @Override
        public int init(MemorySegment ctx) throws Throwable {
            called.add("init");
            return real.init(ctx);
        }

        @Override
        public int update(MemorySegment ctx, MemorySegment data, long len) throws Throwable {
            called.add("update");
            return real.update(ctx, data, len);
        }

        @Override
        public MemorySegment dupctx(MemorySegment ctx) throws Throwable {
            called.add("dupctx");
            return real.dupctx(ctx);
        }

        @Override
        public int fin(MemorySegment ctx, MemorySegment out, MemorySegment outl) throws Throwable {
            called.add("fin");
            return real.fin(ctx, out, outl);
        }

        @Override
        public void freectx(MemorySegment ctx) throws Throwable {
            called.add("freectx");
            real.freectx(ctx);
        }
    }
}
