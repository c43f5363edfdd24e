package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.openssl.OpenSSL.ERR_clear_error;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_fetch;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.security.ProviderException;
import org.junit.jupiter.api.Test;

/** OpenSSL's failures as exceptions: return codes, NULL allocations, and the thread's error queue in the message. */
class OpenSSLErrorsTest {
    @Test
    void theQueueIsDrainedIntoTheMessage() throws Exception {
        LibCrypto.sm3();
        ERR_clear_error();
        assertEquals("no OpenSSL error queued", OpenSSLErrors.drain());
        try (Arena arena = Arena.ofConfined()) {
            // Fetching an algorithm no provider has queues OpenSSL's own reason.
            MemorySegment md = EVP_MD_fetch(MemorySegment.NULL, arena.allocateFrom("SM3FFM-NO-SUCH-DIGEST"),
                    MemorySegment.NULL);
            assertEquals(MemorySegment.NULL, md);
        }
        ProviderException e = assertThrows(ProviderException.class, () -> OpenSSLErrors.check(0, "EVP_MD_fetch"));
        assertTrue(e.getMessage().startsWith("EVP_MD_fetch failed: error:"), e.getMessage());
        assertTrue(e.getMessage().contains("unsupported"), e.getMessage());
        assertEquals("no OpenSSL error queued", OpenSSLErrors.drain(), "the queue was emptied");
    }

    /**
     * The EVP backend's checks of what OpenSSL returns, with no injected failure: on a context never started,
     * OpenSSL refuses an update and a final (its own return code, not the test decorator's).
     */
    @Test
    void evpCallsThatOpenSSLRefusesAreReportedByName() throws Exception {
        LibCrypto.sm3();
        EvpBackend evp = new EvpBackend("a test's");
        MemorySegment ctx = evp.newContext();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment data = arena.allocate(64);
            ProviderException update = assertThrows(ProviderException.class,
                    () -> evp.update(ctx, MemorySegment.ofArray(new byte[64]), 64));
            assertTrue(update.getMessage().startsWith("EVP_DigestUpdate failed: "), update.getMessage());
            ProviderException updateNative = assertThrows(ProviderException.class,
                    () -> evp.updateNative(ctx, data, 64));
            assertTrue(updateNative.getMessage().startsWith("EVP_DigestUpdate failed: "), updateNative.getMessage());
            ProviderException fin = assertThrows(ProviderException.class,
                    () -> evp.finalInto(ctx, arena.allocate(32), arena.allocate(4)));
            assertTrue(fin.getMessage().startsWith("EVP_DigestFinal_ex failed: "), fin.getMessage());
            // Started, the same context takes them.
            evp.init(ctx);
            evp.update(ctx, MemorySegment.ofArray(new byte[64]), 64);
            evp.updateNative(ctx, data, 64);
            byte[] out = new byte[32];
            evp.finalInto(ctx, MemorySegment.ofArray(out), arena.allocate(4));
            assertArrayEquals(References.sm3(new byte[128]), out);
        } finally {
            evp.free(ctx);
        }
    }

    @Test
    void clearEmptiesAQueueOfSeveralErrors() throws Exception {
        LibCrypto.sm3();
        try (Arena arena = Arena.ofConfined()) {
            for (int i = 0; i < 3; i++) {
                EVP_MD_fetch(MemorySegment.NULL, arena.allocateFrom("SM3FFM-NO-SUCH-DIGEST-" + i), MemorySegment.NULL);
            }
        }
        OpenSSLErrors.clear();
        assertEquals("no OpenSSL error queued", OpenSSLErrors.drain());
    }

    @Test
    void onlyOneIsSuccess() {
        OpenSSLErrors.check(1, "x");
        assertEquals("x failed: no OpenSSL error queued",
                assertThrows(ProviderException.class, () -> OpenSSLErrors.check(2, "x")).getMessage());
        assertEquals("y failed: no OpenSSL error queued",
                assertThrows(ProviderException.class, () -> OpenSSLErrors.check(-1, "y")).getMessage());
    }

    @Test
    void anAllocationIsCheckedForNull() {
        MemorySegment some = MemorySegment.ofAddress(8);
        assertSame(some, OpenSSLErrors.allocated(some, "malloc"));
        assertEquals("malloc failed: no OpenSSL error queued",
                assertThrows(ProviderException.class, () -> OpenSSLErrors.allocated(MemorySegment.NULL, "malloc"))
                        .getMessage());
    }

    @Test
    void whatADowncallThrowsIsRethrownAsIs() {
        IllegalStateException unchecked = new IllegalStateException();
        assertSame(unchecked, OpenSSLErrors.rethrow(unchecked));
        AssertionError error = new AssertionError();
        assertSame(error, assertThrows(AssertionError.class, () -> OpenSSLErrors.rethrow(error)));
        Exception checked = new Exception("checked");
        RuntimeException wrapped = OpenSSLErrors.rethrow(checked);
        assertTrue(wrapped instanceof ProviderException && wrapped.getCause() == checked);
    }
}
