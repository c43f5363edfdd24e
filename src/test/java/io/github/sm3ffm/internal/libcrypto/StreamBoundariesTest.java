package io.github.sm3ffm.internal.libcrypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.ProviderException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.crypto.generators.KDF2BytesGenerator;
import org.bouncycastle.crypto.generators.PKCS5S2ParametersGenerator;
import org.bouncycastle.crypto.params.KDFParameters;
import org.bouncycastle.crypto.params.KeyParameter;
import org.junit.jupiter.api.Test;

/**
 * Where a message stops waiting on the heap and reaches a native context: exactly at the staging size, whatever
 * the updates that bring it there; where a keyed MAC is copied in the middle of a message; the KDFs over inputs
 * that take the long paths (more than one critical chunk); and what a KDF leaves when a block fails.
 */
class StreamBoundariesTest {
    private static final int STAGING = PooledContext.STAGING_SIZE;
    private final Random random = new Random(61);

    @Test
    void singleBytesWaitOnTheHeapUpToTheStagingSizeAndTheNextReachesAContext() throws Exception {
        byte[] message = bytes(STAGING + 1);
        DigestStream s = Algorithm.sm3Stream();
        for (int i = 0; i < STAGING; i++) {
            s.update(message[i]);
            assertFalse(s.holdsContext(), "after " + (i + 1) + " bytes");
        }
        s.update(message[STAGING]);
        assertTrue(s.holdsContext(), "the byte past the staging size needs OpenSSL");
        assertArrayEquals(References.sm3(message), s.finish());
    }

    @Test
    void updatesThatFillEachSizeOfTheHeapArrayExactlyKeepTheMessageOnTheHeap() throws Exception {
        // 32, 64, 128, 256 and 512 bytes: each size the pending array grows to, reached exactly.
        int[] updates = {32, 32, 64, 128, 256};
        List<byte[]> parts = new ArrayList<>();
        DigestStream s = Algorithm.sm3Stream();
        for (int n : updates) {
            feed(s, n, parts);
            assertFalse(s.holdsContext(), "after an update of " + n);
        }
        feed(s, 1, parts);
        assertTrue(s.holdsContext(), "one byte past the staging size");
        assertArrayEquals(References.sm3(parts.toArray(byte[][]::new)), s.finish());
    }

    @Test
    void anUpdateBelowTheStagingSizeWaitsAndOneOfItGoesInPlace() throws Exception {
        for (int n : new int[] {STAGING - 1, STAGING}) {
            byte[] message = bytes(n);
            DigestStream s = Algorithm.sm3Stream();
            s.update(message, 0, n);
            assertEquals(n >= STAGING, s.holdsContext(), "an update of " + n);
            assertArrayEquals(References.sm3(message), s.finish(), "an update of " + n);
        }
    }

    @Test
    void anUpdateThatFitsTheRestOfTheArrayWaitsAndOneByteMoreDoesNot() throws Exception {
        for (int extra : new int[] {0, 1}) {
            byte[] head = bytes(STAGING - 12);
            byte[] tail = bytes(12 + extra);
            DigestStream s = Algorithm.sm3Stream();
            s.update(head, 0, head.length);
            s.update(tail, 0, tail.length);
            assertEquals(extra > 0, s.holdsContext(), "a tail of " + tail.length + " after " + head.length);
            assertArrayEquals(References.sm3(head, tail), s.finish(), "a tail of " + tail.length);
        }
    }

    @Test
    void updatesThatOverrunTheHeapArrayKeepWhatWaitsInIt() throws Exception {
        // Each update past the room left in the array, so that it grows with bytes already waiting; the last but one
        // past what the heap may hold at all (175 waiting in an array of 256, then 400).
        int[] updates = {30, 5, 40, 100, 400, 130};
        List<byte[]> parts = new ArrayList<>();
        DigestStream s = Algorithm.sm3Stream();
        for (int n : updates) {
            feed(s, n, parts);
            byte[] pending = s.snapshot().pending();
            assertTrue(pending == null || pending.length <= STAGING, "the heap array outgrew the staging size: "
                    + (pending == null ? 0 : pending.length));
        }
        assertArrayEquals(References.sm3(parts.toArray(byte[][]::new)), s.finish());
        assertTrue(s.snapshot().pending().length <= STAGING);
    }

    @Test
    void aMessageIsOnTheHeapThenInAContextThenOnTheHeapAgain() throws Exception {
        DigestStream s = Algorithm.sm3Stream();
        assertEquals(HeapBytes.Phase.HEAP, s.snapshot().phase(), "a new stream");
        s.update(bytes(STAGING), 0, STAGING - 1);
        assertEquals(HeapBytes.Phase.HEAP, s.snapshot().phase(), "bytes that wait");
        s.update(bytes(2), 0, 2);
        assertEquals(HeapBytes.Phase.NATIVE, s.snapshot().phase(), "past the staging size");
        s.finish();
        assertEquals(HeapBytes.Phase.HEAP, s.snapshot().phase(), "after a digest");
    }

    @Test
    void aReusedDigestStagesUpToTheLastByteOfTheStagingBuffer() throws Exception {
        for (int onHeap : new int[] {0, 5}) {
            DigestStream s = (DigestStream) reusedDigest();
            byte[] first = bytes(100);
            s.update(first, 0, first.length);
            assertEquals(first.length, s.snapshot().staged(), "staged in the claimed context");
            byte[] waiting = bytes(onHeap);
            s.update(waiting, 0, onHeap);
            assertEquals(onHeap, s.snapshot().pendingLen(), "short bytes wait on the heap");
            byte[] last = bytes(STAGING - first.length - onHeap);
            s.update(last, 0, last.length);
            assertEquals(STAGING, s.snapshot().staged(), onHeap + " on the heap: the buffer filled exactly");
            assertEquals(0, s.snapshot().pendingLen(), onHeap + " on the heap: what waited went first");
            assertArrayEquals(References.sm3(first, waiting, last), s.finish(), onHeap + " on the heap");
        }
    }

    @Test
    void aCopysHeapArrayIsNoLargerThanTheBytesItHoldsNeed() throws Exception {
        DigestStream s = (DigestStream) reusedDigest();
        int sourceArray = s.snapshot().pending().length;
        byte[] staged = bytes(40);
        byte[] waiting = bytes(sourceArray - staged.length);
        s.update(staged, 0, staged.length);
        s.update(waiting, 0, waiting.length);
        assertEquals(staged.length, s.snapshot().staged());
        assertEquals(waiting.length, s.snapshot().pendingLen());
        DigestStream copy = s.copy();
        assertEquals(sourceArray, copy.snapshot().pendingLen(), "the copy holds the staged and waiting bytes");
        assertEquals(sourceArray, copy.snapshot().pending().length, "in an array of the source's size, which fits them");
        assertArrayEquals(References.sm3(staged, waiting), copy.finish());
        assertArrayEquals(References.sm3(staged, waiting), s.finish());
    }

    @Test
    void aReusedStreamHashesAcrossTheBoundaryAgainAndAgain() throws Exception {
        DigestStream s = Algorithm.sm3Stream();
        for (int n : new int[] {STAGING, STAGING - 1, STAGING + 1, 0, 3 * STAGING + 7, 31, 32, 33}) {
            byte[] message = bytes(n);
            s.update(message, 0, n);
            assertArrayEquals(References.sm3(message), s.finish(), "a message of " + n);
        }
    }

    @Test
    void whatAReusedDigestStagesAndWhatWaitsOnTheHeapBehindItFitTheStagingBufferTogether() throws Exception {
        // A reused digest copies updates of STAGED_MIN bytes or more into its claimed context; shorter ones wait on
        // the heap behind them. At each amount staged, heap bytes up to and past what the buffer has left, then a
        // copy (which takes both onto its heap) and the original both finished.
        MessageStream<?> s = reusedDigest();
        for (int staged : new int[] {DigestStream.STAGED_MIN, 100, STAGING - 32, STAGING - 12, STAGING - 1}) {
            for (int onHeap : new int[] {1, 11, 12, 13, 31, 100, STAGING}) {
                byte[] first = bytes(staged);
                byte[] rest = bytes(onHeap);
                s.update(first, 0, staged);
                // Odd counts as single bytes only; even ones as single bytes and short arrays in turn.
                for (int at = 0; at < onHeap; at += 7) {
                    if (at % 2 == 0 || onHeap % 2 == 1) {
                        s.update(rest[at]);
                        for (int k = at + 1; k < Math.min(at + 7, onHeap); k++) {
                            s.update(rest[k]);
                        }
                    } else {
                        s.update(rest, at, Math.min(7, onHeap - at));
                    }
                }
                byte[] expected = References.sm3(first, rest);
                var copy = s.copy();
                assertArrayEquals(expected, copy.finish(), staged + " staged, " + onHeap + " on the heap: the copy");
                assertArrayEquals(expected, s.finish(), staged + " staged, " + onHeap + " on the heap");

                // A first message that went in place holds a context before it has any heap array.
                DigestStream fresh = Algorithm.sm3Stream();
                byte[] inPlace = bytes(STAGING);
                fresh.update(inPlace, 0, STAGING);
                fresh.update(first, 0, staged);
                fresh.update(rest, 0, onHeap);
                byte[] whole = References.sm3(inPlace, first, rest);
                assertArrayEquals(whole, fresh.copy().finish(),
                        staged + " staged after a first update in place: the copy");
                assertArrayEquals(whole, fresh.finish(), staged + " staged after a first update in place");
            }
        }
    }

    @Test
    void aCopyHashesTheStagedWholeBlocksOnceForBothAndTheOldContextGoesBackCleared() throws Exception {
        MessageStream<?> s = reusedDigest();
        for (int staged : new int[] {DigestStream.STAGED_MIN, 63, 64, 65, 128, 300, STAGING - 5}) {
            for (int onHeap : new int[] {0, 5}) {
                byte[] first = bytes(staged);
                byte[] rest = bytes(onHeap);
                s.update(first, 0, staged);
                s.update(rest, 0, onHeap);
                String what = staged + " staged, " + onHeap + " on the heap";
                assertEquals(staged, s.snapshot().staged(), what + ": staged before the copy");
                PooledContext old = s.snapshot().claimed();
                int claims = Sm3Context.POOL.claimedCount();

                var copy = s.copy();
                int left = staged % 64;
                assertEquals(left, s.snapshot().staged(), what + ": still staged in the source");
                assertEquals(left + onHeap, copy.snapshot().pendingLen(), what + ": waiting in the copy");
                boolean replaced = staged >= 64;
                assertEquals(replaced, s.snapshot().claimed() != old, what + ": the source's context replaced");
                if (replaced && copy.snapshot().claimed() != old) {
                    // Where the copy claims a context (contexts copied natively) it may be the old one, given back
                    // and lent again.
                    assertTrue(old.claim() == null && (old.primed() || !PooledContext.all().contains(old)),
                            what + ": the old context is idle (cleared) or freed, and no one's");
                }
                assertEquals(claims + (copy.holdsContext() ? 1 : 0), Sm3Context.POOL.claimedCount(),
                        what + ": claims counted");

                byte[] more = bytes(70);
                copy.update(more, 0, more.length);
                assertArrayEquals(References.sm3(first, rest, more), copy.finish(), what + ": the copy");
                s.update(rest, 0, onHeap);
                assertArrayEquals(References.sm3(first, rest, rest), s.finish(), what + ": the source");
            }
        }
    }

    @Test
    void shortBytesOnTheHeapGoAheadOfTheNextUpdateAReusedDigestStages() throws Exception {
        // Heap bytes, then an update of STAGED_MIN bytes or more: the heap's move into the staging buffer first
        // where both fit behind what is staged, else both reach OpenSSL first.
        MessageStream<?> s = reusedDigest();
        for (int before : new int[] {0, 40}) {
            for (int onHeap : new int[] {1, 10, 31}) {
                for (int next : new int[] {DigestStream.STAGED_MIN, 100, STAGING - before - 40, STAGING - before - 33,
                        STAGING - 1}) {
                    byte[] first = bytes(before);
                    byte[] heap = bytes(onHeap);
                    byte[] staged = bytes(next);
                    byte[] tail = bytes(5);
                    s.update(first, 0, before);
                    s.update(heap, 0, onHeap);
                    s.update(staged, 0, next);
                    s.update(tail, 0, 5);
                    byte[] expected = References.sm3(first, heap, staged, tail);
                    String what = before + " staged, " + onHeap + " on the heap, then " + next;
                    assertArrayEquals(expected, s.copy().finish(), what + ": the copy");
                    assertArrayEquals(expected, s.finish(), what);
                }
            }
        }
    }

    @Test
    void aCopyOfAKeyedMacInTheMiddleOfAMessageFinishesOnItsOwn() throws Exception {
        byte[] key = bytes(32);
        MacStream mac = Algorithm.hmacStream();
        mac.init(key);
        byte[] first = bytes(40);
        mac.update(first, 0, first.length);
        assertArrayEquals(References.hmac(key, first), mac.finish(), "the first message");
        // A reused stream loads the key into keyed states when it claims a context: the long head does.
        byte[] head = bytes(700);
        mac.update(head, 0, head.length);
        assertTrue(mac.holdsContext());
        var copy = mac.copy();
        byte[] tail = bytes(9);
        byte[] otherTail = bytes(600);
        mac.update(tail, 0, tail.length);
        // The source's next message must not disturb the copy's keyed states.
        assertArrayEquals(References.hmac(key, head, tail), mac.finish(), "the source");
        mac.update(first, 0, first.length);
        assertArrayEquals(References.hmac(key, first), mac.finish(), "the source's next message");
        copy.update(otherTail, 0, otherTail.length);
        assertArrayEquals(References.hmac(key, head, otherTail), copy.finish(), "the copy");
        copy.update(first, 0, first.length);
        assertArrayEquals(References.hmac(key, first), copy.finish(), "the copy's next message, from its own keyed states");
    }

    @Test
    void keysOfABlockAreUsedAsTheyAreAndLongerOnesHashed() throws Exception {
        byte[] message = bytes(50);
        for (int keyLength : new int[] {63, 64, 65}) {
            byte[] key = bytes(keyLength);
            MacStream mac = Algorithm.hmacStream();
            mac.init(key);
            mac.update(message, 0, message.length);
            assertArrayEquals(References.hmac(key, message), mac.finish(), "a key of " + keyLength + " bytes");
            // The pads as HKDF asks for them, without the stream's own shortcut for short keys.
            HmacContext c = HmacContext.POOL.borrow();
            try {
                byte[] k0 = keyLength <= 64 ? key : References.sm3(key);
                assertArrayEquals(HmacContext.padsOfBlock(k0), c.padsOf(key), "the pads of a key of " + keyLength);
            } finally {
                HmacContext.POOL.giveBack(c, true);
            }
        }
    }

    @Test
    void x963WithSharedInfoLongerThanACriticalChunkMatchesBouncyCastle() throws Exception {
        byte[] z = bytes(32);
        for (int infoLength : new int[] {0, STAGING, PooledContext.CRITICAL_CHUNK + 1000}) {
            byte[] info = bytes(infoLength);
            byte[] expected = new byte[70];
            KDF2BytesGenerator bc = new KDF2BytesGenerator(new SM3Digest());
            bc.init(new KDFParameters(z, info));
            bc.generateBytes(expected, 0, expected.length);
            assertArrayEquals(expected, Algorithm.x963Kdf().derive(z, info, expected.length), "SharedInfo of " + infoLength);
        }
    }

    @Test
    void pbkdf2MatchesBouncyCastleAndGivesNothingForNoLength() throws Exception {
        byte[] password = bytes(100);
        byte[] salt = bytes(16);
        PKCS5S2ParametersGenerator bc = new PKCS5S2ParametersGenerator(new SM3Digest());
        bc.init(password, salt, 3);
        byte[] expected = ((KeyParameter) bc.generateDerivedParameters(8 * 40)).getKey();
        assertArrayEquals(expected, Algorithm.pbkdf2().derive(password, salt, 3, 40));
        assertArrayEquals(new byte[0], Algorithm.pbkdf2().derive(password, salt, 3, 0));
    }

    @Test
    void aFailedBlockLeavesTheOutputAndTheBlockZeroed() throws Exception {
        byte[] out = new byte[3 * 32 + 5];
        byte[][] seen = new byte[1][];
        assertThrows(ProviderException.class, () -> DerivedBlocks.derive(out, Scratch.NONE, (i, into) -> {
            seen[0] = into;
            Arrays.fill(into, (byte) i);
            if (i == 3) {
                throw new ProviderException("block " + i + " failed");
            }
        }));
        assertArrayEquals(new byte[out.length], out, "the two blocks derived before the failure");
        assertArrayEquals(new byte[32], seen[0], "the block the failure interrupted");
    }

    @Test
    void blocksAreCutToTheLengthAskedAndNoneIsComputedPastIt() throws Exception {
        for (int length : new int[] {1, 31, 32, 33, 64, 65}) {
            int[] computed = {0};
            byte[] out = DerivedBlocks.derive(new byte[length], Scratch.NONE, (i, into) -> {
                computed[0]++;
                Arrays.fill(into, (byte) i);
            });
            for (int at = 0; at < length; at++) {
                assertEquals((byte) (at / 32 + 1), out[at], "byte " + at + " of " + length);
            }
            assertEquals((length + 31) / 32, computed[0], "blocks computed for " + length + " bytes");
        }
    }

    @Test
    void aStreamThatBorrowsReclaimsTheContextOfOneThatDiedHoldingIt() throws Exception {
        for (String borrower : new String[] {"finish", "update", "copy"}) {
            // A copy borrows a context for the source's staged blocks: the source stages 100 bytes each time.
            MessageStream<?> source = borrower.equals("copy") ? reusedDigest() : null;
            int before = Sm3Context.POOL.claimedCount();
            claimAndDrop();
            assertTrue(Sm3Context.POOL.claimedCount() > before, "the dropped stream held a claimed context");
            int held = Sm3Context.POOL.claimedCount();
            // The GC enqueues the dead stream's claim; the next stream that borrows (at finish for a short message,
            // at update for a long one, which then claims a context of its own and is kept alive here, or at a
            // copy) gives the dead one's context back.
            List<MessageStream<?>> alive = new ArrayList<>();
            for (int i = 0; i < 50 && Sm3Context.POOL.claimedCount() >= held + alive.size(); i++) {
                System.gc();
                Thread.sleep(20);
                if (source != null) {
                    byte[] m = bytes(100);
                    source.update(m, 0, m.length);
                    var copy = source.copy();
                    source.reset();
                    if (copy.holdsContext()) {
                        // Where contexts are copied natively the copy claims one of its own.
                        alive.add(copy);
                    }
                    continue;
                }
                DigestStream next = Algorithm.sm3Stream();
                byte[] m = bytes(borrower.equals("update") ? 600 : 10);
                next.update(m, 0, m.length);
                if (borrower.equals("update")) {
                    alive.add(next);
                } else {
                    next.finish();
                }
            }
            assertTrue(Sm3Context.POOL.claimedCount() < held + alive.size(),
                    borrower + " reclaimed no dead owner's context");
            alive.forEach(MessageStream::reset);
        }
    }

    /** As above for MACs: a copy of a reused, keyed MAC borrows, and gives back a dead MAC's context first. */
    @Test
    void aCopyOfAReusedMacReclaimsTheContextOfOneThatDiedHoldingIt() throws Exception {
        byte[] key = bytes(16);
        MacStream source = Algorithm.hmacStream();
        source.init(key);
        for (int i = 0; i < 2; i++) {
            source.update(bytes(64), 0, 64);
            source.finish();
        }
        assertTrue(source.holdsContext(), "a reused MAC keeps a context");
        int before = HmacContext.POOL.claimedCount();
        claimAndDropMac(key);
        int held = HmacContext.POOL.claimedCount();
        assertTrue(held > before, "the dropped MAC held a claimed context");
        List<MessageStream<?>> alive = new ArrayList<>();
        for (int i = 0; i < 50 && HmacContext.POOL.claimedCount() >= held + alive.size(); i++) {
            System.gc();
            Thread.sleep(20);
            // In place, so the message is in the source's context, which the copy copies into one it borrows.
            byte[] m = bytes(STAGING + 100);
            source.update(m, 0, m.length);
            var copy = source.copy();
            assertTrue(copy.holdsContext(), "the copy claimed a context");
            assertArrayEquals(References.hmac(key, m), copy.finish(), "the copy");
            alive.add(copy);
            source.reset();
        }
        assertTrue(HmacContext.POOL.claimedCount() < held + alive.size(), "a MAC's copy reclaimed no dead owner's context");
        alive.forEach(MessageStream::reset);
    }

    private void claimAndDropMac(byte[] key) throws Exception {
        MacStream s = Algorithm.hmacStream();
        s.init(key);
        byte[] head = bytes(STAGING);
        s.update(head, 0, head.length);
        assertTrue(s.holdsContext());
    }

    private void claimAndDrop() throws Exception {
        DigestStream s = Algorithm.sm3Stream();
        byte[] head = bytes(STAGING);
        s.update(head, 0, head.length);
        assertTrue(s.holdsContext());
    }

    /** A digest stream that finished two messages: the second claimed a context, which a reused stream keeps. */
    private MessageStream<?> reusedDigest() throws Exception {
        DigestStream s = Algorithm.sm3Stream();
        for (int i = 0; i < 2; i++) {
            s.update(bytes(64), 0, 64);
            s.finish();
        }
        assertTrue(s.holdsContext(), "a reused stream keeps a context");
        return s;
    }

    /** Updates {@code s} with {@code n} new bytes, added to {@code parts}. */
    private void feed(DigestStream s, int n, List<byte[]> parts) {
        byte[] part = bytes(n);
        parts.add(part);
        s.update(part, 0, n);
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    /**
     * HKDF's messages around the staging buffer: without keyed states, the inner pad and the first bytes go in one
     * call when they fit behind it ({@value PooledContext#STAGING_SIZE} bytes), else the pad, then the bytes in
     * place. An IKM (extract) and an info (one block of expand: T(1) = HMAC(PRK, info || 1)) at each side of that
     * edge, and a long info over several blocks, as BouncyCastle gives them (PRK = HMAC(salt, IKM)).
     */
    @Test
    void hkdfAroundTheStagingBuffer() {
        int edge = PooledContext.STAGING_SIZE - Sm3Sizes.BLOCK_SIZE;
        byte[] salt = bytes(20);
        for (int n : new int[] {0, 1, edge - 1, edge, edge + 1, 5000}) {
            byte[] ikm = bytes(n);
            assertArrayEquals(References.hmac(salt, ikm),
                    Hkdf.INSTANCE.derive(Hkdf.Mode.EXTRACT, ikm, salt, new byte[0], 0), "extract, IKM of " + n);
            byte[] prk = bytes(32);
            byte[] info = bytes(Math.max(0, n - 1));
            for (int length : new int[] {32, 100}) {
                assertArrayEquals(References.hkdf(prk, null, info, length),
                        Hkdf.INSTANCE.derive(Hkdf.Mode.EXPAND, prk, new byte[0], info, length),
                        "expand to " + length + ", info || 1 of " + (info.length + 1));
            }
        }
    }

    /** HKDF's length bounds (RFC 5869: up to 255 blocks): 0 and 255 * 32 bytes as BouncyCastle gives them, beyond refused. */
    @Test
    void hkdfExpandsFromNothingToTwoHundredFiftyFiveBlocks() {
        byte[] prk = new byte[32];
        Arrays.fill(prk, (byte) 0x0b);
        byte[] info = {'i', 'n', 'f', 'o'};
        for (int length : new int[] {0, 255 * 32}) {
            byte[] expected = new byte[length];
            org.bouncycastle.crypto.generators.HKDFBytesGenerator bc =
                    new org.bouncycastle.crypto.generators.HKDFBytesGenerator(new SM3Digest());
            bc.init(org.bouncycastle.crypto.params.HKDFParameters.skipExtractParameters(prk, info));
            bc.generateBytes(expected, 0, length);
            assertArrayEquals(expected, Hkdf.INSTANCE.derive(Hkdf.Mode.EXPAND, prk, new byte[0], info, length),
                    length + " bytes");
        }
        for (int length : new int[] {-1, 255 * 32 + 1}) {
            assertThrows(IllegalArgumentException.class,
                    () -> Hkdf.INSTANCE.derive(Hkdf.Mode.EXPAND, prk, new byte[0], info, length), length + " bytes");
        }
    }
}
