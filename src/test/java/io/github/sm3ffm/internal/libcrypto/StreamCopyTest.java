package io.github.sm3ffm.internal.libcrypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.bouncycastle.crypto.digests.SM3Digest;
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

        assertArrayEquals(sm3(head, longTail), source.finish(), "the source");
        assertArrayEquals(sm3(head, tail, new byte[] {7}), copy.finish(), "the copy, short updates");
        assertArrayEquals(sm3(head, longTail, tail), copyOfCopy.finish(), "the copy's copy, a long update first");
        // Each is an empty stream again, and reusable.
        assertArrayEquals(sm3(), copy.finish(), "the copy after its digest");
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
        assertArrayEquals(sm3(fresh), copy.finish());
        assertArrayEquals(sm3(head), source.finish());
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
            assertArrayEquals(sm3(head, tail), copy.finish(), "after " + n + " bytes");
            assertArrayEquals(sm3(head), source.finish(), "source after " + n + " bytes");
        }
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private static byte[] sm3(byte[]... parts) {
        SM3Digest d = new SM3Digest();
        for (byte[] p : parts) {
            d.update(p, 0, p.length);
        }
        byte[] out = new byte[32];
        d.doFinal(out, 0);
        return Arrays.copyOf(out, 32);
    }
}
