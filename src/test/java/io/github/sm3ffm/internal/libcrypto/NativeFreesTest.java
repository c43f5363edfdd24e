package io.github.sm3ffm.internal.libcrypto;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.invoke.MethodHandle;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What the backends and the start-up checks allocate in native memory goes back to malloc: contexts, staging buffers,
 * the contexts the checks make and a copy for one message. Read from glibc's own count of the bytes it has handed
 * out ({@code mallinfo2}, over every arena), around many rounds: a round that kept even one context would leave
 * over 100 bytes each; other threads of the JVM (compilers, GC) allocate too, so each case is the smallest growth of
 * three tries, against a bound of a quarter of the smallest leak.
 */
class NativeFreesTest {
    private static final int ROUNDS = 100_000;
    /** Below the 128-byte chunk of the smallest thing freed here (an SM3 state of 108 bytes). */
    private static final long BOUND = ROUNDS * 32L;
    private static final MemoryLayout MALLINFO2 = MemoryLayout.sequenceLayout(10, JAVA_LONG);
    private static final MethodHandle MALLINFO;

    static {
        Optional<MemorySegment> f = Linker.nativeLinker().defaultLookup().find("mallinfo2");
        MALLINFO = f.map(a -> Linker.nativeLinker().downcallHandle(a,
                FunctionDescriptor.of(MemoryLayout.structLayout(MALLINFO2)))).orElse(null);
    }

    /** Bytes malloc has handed out and not had back: small chunks ({@code uordblks}) and mapped ones. */
    private static long inUse() throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment m = (MemorySegment) MALLINFO.invokeExact((SegmentAllocator) arena);
            return m.getAtIndex(JAVA_LONG, 7) + m.getAtIndex(JAVA_LONG, 4);
        }
    }

    interface Round {
        void run() throws Throwable;
    }

    private static void assertReturned(String what, Round round) throws Throwable {
        assumeTrue(MALLINFO != null, "no mallinfo2 in this C library");
        assumeTrue(LibCrypto.isAvailable(), "libcrypto with SM3 is not loaded");
        for (int i = 0; i < ROUNDS / 10; i++) {
            round.run();
        }
        long least = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 3 && least >= BOUND; attempt++) {
            long before = inUse();
            for (int i = 0; i < ROUNDS; i++) {
                round.run();
            }
            least = Math.min(least, inUse() - before);
        }
        long kept = least;
        assertTrue(kept < BOUND, () -> what + ": " + kept + " bytes still allocated after " + ROUNDS + " rounds");
    }

    @Test
    void contextsAndStagingBuffersAreFreed() throws Throwable {
        Backend backend = Faults.chosen();
        assertReturned("contexts of " + backend.description(), () -> backend.free(backend.newContext()));
        assertReturned("staging buffers", () -> backend.release(backend.allocate(PooledContext.STAGING_SIZE)));
    }

    @Test
    void theContextsOfTheStartUpChecksAreFreed() throws Throwable {
        assumeTrue(LibCrypto.isAvailable(), "libcrypto with SM3 is not loaded");
        Found found = ProviderLookup.find(LibCrypto.fetchedSm3(), null);
        assumeTrue(found.reason() == null, "the provider's functions: " + found.reason());
        Linked linked = Linked.of(found);
        assertReturned("the known-answer check", () -> assertNull(DirectSm3.abcCheck(linked)));
    }

    /** Dupctx's copies allocate: a copy frees the context it replaces, a dropped copy for one message is freed. */
    @Test
    void dupctxCopiesAreFreed() throws Throwable {
        assumeTrue(LibCrypto.isAvailable() && BackendChoice.offer().direct(), "the provider's functions are not used");
        ProviderBackend.Dupctx dupctx = new ProviderBackend.Dupctx(BackendChoice.offer().provider());
        MemorySegment src = dupctx.newContext();
        MemorySegment spare = dupctx.newContext();
        MemorySegment[] into = {dupctx.newContext()};
        try {
            dupctx.init(src);
            assertReturned("copies for one message", () -> dupctx.dropCopy(dupctx.copyForOneMessage(src, spare), spare));
            assertReturned("copies into a context", () -> into[0] = dupctx.copy(src, into[0]));
        } finally {
            dupctx.free(src);
            dupctx.free(spare);
            dupctx.free(into[0]);
        }
    }
}
