package io.github.sm3ffm.internal.libcrypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Copies of an SM3 stream whose message has reached a native context. Where the backend's states are plain
 * bytes (the provider's functions on OpenSSL 3.0 to 3.4), a copy keeps the state on the heap and claims no
 * context until it needs one; elsewhere it claims one holding a copy. Either way each copy continues on its
 * own, through short and long updates, copies of copies and resets, as the message would.
 */
class StreamCopyTest {
    private final Random random = new Random(38);

    @Test
    void aCopyContinuesOnItsOwnAndClaimsAContextOnlyWhereStatesAreNotBytes() throws Exception {
        byte[] head = bytes(1_000);
        DigestStream source = Algorithm.sm3Stream();
        // At or above the staging size: fed in place, so the message is in a claimed context.
        source.update(head, 0, head.length);
        assertTrue(source.holdsContext(), "the source's message is in a context");
        var copy = source.copy();
        boolean onHeap = Faults.chosen() instanceof ProviderBackend.StateBytes;
        assertEquals(!onHeap, copy.holdsContext(), "the copy claimed a context; " + BackendChoice.selected().description());

        byte[] tail = bytes(37);
        byte[] longTail = bytes(3_000);
        var copyOfCopy = copy.copy();
        assertEquals(!onHeap, copyOfCopy.holdsContext(), "the copy's copy claimed a context");

        source.update(longTail, 0, longTail.length);
        copy.update(tail, 0, tail.length);
        copy.update((byte) 7);
        copyOfCopy.update(longTail, 0, longTail.length);
        copyOfCopy.update(tail, 0, tail.length);

        assertArrayEquals(References.sm3(head, longTail), source.finish(), "the source");
        assertArrayEquals(References.sm3(head, tail, new byte[] {7}), copy.finish(), "the copy, short updates");
        assertArrayEquals(References.sm3(head, longTail, tail), copyOfCopy.finish(), "the copy's copy, a long update first");
        // Each is an empty stream again, and reusable.
        assertArrayEquals(References.sm3(), copy.finish(), "the copy after its digest");
    }

    @Test
    void aResetCopyForgetsTheSourcesState() throws Exception {
        byte[] head = bytes(700);
        DigestStream source = Algorithm.sm3Stream();
        source.update(head, 0, head.length);
        var copy = source.copy();
        copy.reset();
        byte[] fresh = bytes(20);
        copy.update(fresh, 0, fresh.length);
        assertArrayEquals(References.sm3(fresh), copy.finish());
        assertArrayEquals(References.sm3(head), source.finish());
    }

    @Test
    void copiesOfCopiesAtEveryLength() throws Exception {
        for (int n = 500; n < 700; n += 13) {
            byte[] head = bytes(n);
            byte[] tail = bytes(n % 97);
            DigestStream source = Algorithm.sm3Stream();
            source.update(head, 0, head.length);
            var copy = source.copy().copy();
            copy.update(tail, 0, tail.length);
            assertArrayEquals(References.sm3(head, tail), copy.finish(), "after " + n + " bytes");
            assertArrayEquals(References.sm3(head), source.finish(), "source after " + n + " bytes");
        }
    }

    /**
     * {@code c1 = s.copy(); c2 = c1.copy(); c1.reset()}: each copy owns its state, parked on the heap or in a
     * context, so what one copy drops or zeroes, the other still has; for a digest and for a keyed MAC.
     */
    @Test
    void aCopyOfACopyOwnsItsStateWhenTheCopyBetweenIsResetOrGoesOn() throws Exception {
        byte[] key = bytes(20);
        byte[] head = bytes(1_000);
        byte[] tail = bytes(45);
        byte[] other = bytes(2_000);
        for (boolean isMac : new boolean[] {false, true}) {
            String kind = isMac ? "MAC" : "digest";
            MessageStream<?> source = isMac ? keyedMac(key) : Algorithm.sm3Stream();
            source.update(head, 0, head.length);
            MessageStream<?> c1 = source.copy();
            MessageStream<?> c2 = c1.copy();
            c1.reset();
            c1.update(other, 0, other.length);
            assertArrayEquals(expected(isMac, key, other), c1.finish(), kind + ": the reset copy, a new message");
            MessageStream<?> c3 = c2.copy();
            c2.update(tail, 0, tail.length);
            assertArrayEquals(expected(isMac, key, head, tail), c2.finish(), kind + ": the copy of the copy");
            // The copy between goes on with a message of its own while the last one is still unfinished.
            c2.update(other, 0, other.length);
            c3.update(tail, 0, tail.length);
            assertArrayEquals(expected(isMac, key, head, tail), c3.finish(), kind + ": the copy of the copy of the copy");
            assertArrayEquals(expected(isMac, key, other), c2.finish(), kind + ": the copy's next message");
            assertArrayEquals(expected(isMac, key, head), source.finish(), kind + ": the source");
        }
    }

    /**
     * Where the backend's states are plain bytes a copy parks its state on the heap: the array, which holds up to a
     * block of the message, is zeroed once the state is in a context, and when the copy is reset unused.
     */
    @Test
    void aParkedStateIsZeroedOnceRestoredAndWhenDropped() throws Exception {
        assumeTrue(Faults.chosen() instanceof ProviderBackend.StateBytes,
                "states are bytes only on " + BackendChoice.selected().description());
        byte[] head = bytes(1_000);
        DigestStream source = Algorithm.sm3Stream();
        source.update(head, 0, head.length);
        for (boolean restore : new boolean[] {true, false}) {
            DigestStream copy = source.copy();
            byte[] parked = copy.snapshot().parked();
            assertTrue(parked != null && !allZero(parked), "the copy parked the source's state");
            byte[] tail = bytes(600);
            if (restore) {
                // At or above the staging size: in place, so the parked state goes into a context first.
                copy.update(tail, 0, tail.length);
                assertTrue(copy.holdsContext());
            } else {
                copy.reset();
            }
            assertNull(copy.snapshot().parked(), "the parked state is dropped");
            assertTrue(allZero(parked), (restore ? "restored" : "reset") + ": the parked array is zeroed");
            if (restore) {
                assertArrayEquals(References.sm3(head, tail), copy.finish());
            }
        }
        assertArrayEquals(References.sm3(head), source.finish());
    }

    private static MacStream keyedMac(byte[] key) throws Exception {
        MacStream m = Algorithm.hmacStream();
        m.init(key);
        return m;
    }

    private static byte[] expected(boolean isMac, byte[] key, byte[]... parts) {
        return isMac ? References.hmac(key, parts) : References.sm3(parts);
    }

    private static boolean allZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }
}
