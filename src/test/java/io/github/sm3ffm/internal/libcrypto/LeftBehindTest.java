package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.BLOCK_SIZE;
import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.SM3Provider;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.junit.jupiter.api.Test;

/**
 * What a user leaves in the library's memory, read in this JVM after each use: every context the pool holds idle
 * must hold nothing of anyone's. Its staging buffer is all zeros; each of its SM3 states, copied and finished,
 * gives SM3 of the empty message (it is started and empty); where states are plain bytes, their raw bytes are
 * exactly what init leaves. No 16-byte window of any message, key or derived key is anywhere in a context's raw
 * bytes, idle or claimed. A stream's heap copy of its message is zeroed when the message ends, and a reused
 * {@code Mac} given a new key keeps nothing of the old one.
 */
class LeftBehindTest {
    private static final SM3Provider PROVIDER = new SM3Provider();

    @Test
    void aDigestLeavesNothingInThePoolNorOnTheHeap() throws Exception {
        for (int length : new int[] {16, 100, 511, 1000, 70_000}) {
            byte[] message = bytes(length, length);
            MessageDigest md = MessageDigest.getInstance("SM3", PROVIDER);
            md.update(message);
            assertArrayEquals(sm3(message), md.digest());
            assertNothingLeft("digest of " + length, List.of(message));
            // The engine's stream, as the engine uses it: its heap copy of a message is zeroed when it ends.
            DigestStream stream = Algorithm.sm3Stream();
            stream.update(message, 0, Math.min(length, 300));
            assertArrayEquals(sm3(Arrays.copyOf(message, Math.min(length, 300))), stream.finish());
            assertHeapMessageZeroed("digest of " + length, stream);
            stream.update(message, 0, Math.min(length, 200));
            stream.reset();
            assertHeapMessageZeroed("reset after " + length, stream);
        }
        // Short updates that fill the heap array, which is handed to OpenSSL on the way (and then zeroed).
        byte[] message = bytes(1000, 7);
        DigestStream chunked = Algorithm.sm3Stream();
        for (int at = 0; at < message.length; at += 100) {
            chunked.update(message, at, 100);
        }
        // In the middle of the message too: only its last bytes wait (on the heap, or staged in the claimed
        // context); those handed to OpenSSL on the way are not left staged.
        int waiting = chunked.snapshot().staged() + chunked.snapshot().pendingLen();
        assertTrue(waiting > 0 && waiting <= PooledContext.STAGING_SIZE, "bytes waiting: " + waiting);
        assertNothingLeft("1000 bytes in updates of 100, before the final",
                List.of(Arrays.copyOf(message, message.length - waiting)));
        assertArrayEquals(sm3(message), chunked.finish());
        assertHeapMessageZeroed("1000 bytes in updates of 100", chunked);
        assertNothingLeft("1000 bytes in updates of 100", List.of(message));
    }

    @Test
    void aReusedDigestsStagedMessageIsZeroedWhenTheMessageEnds() throws Exception {
        byte[] message = bytes(300, 0x33);
        DigestStream stream = Algorithm.sm3Stream();
        // The second message claims a context, which a reused stream keeps.
        for (int i = 0; i < 2; i++) {
            stream.update(message, 0, 64);
            assertArrayEquals(sm3(Arrays.copyOf(message, 64)), stream.finish());
        }
        assertTrue(stream.holdsContext(), "a reused stream holds a context");
        stream.update(message, 0, 100);
        PooledContext claimed = stream.snapshot().claimed();
        assertTrue(containsWindow(claimed.staging().toArray(JAVA_BYTE), Arrays.copyOf(message, 100)),
                "the reading sees the message waiting in the claimed context's staging buffer");
        stream.reset();
        assertNothingLeft("a reused digest reset", List.of(message));

        // Staged bytes, then short ones on the heap behind them, then a digest.
        stream.update(message, 0, 100);
        stream.update(message, 100, 5);
        stream.update(message[105]);
        assertArrayEquals(sm3(Arrays.copyOf(message, 106)), stream.finish());
        assertNothingLeft("a reused digest", List.of(message));
        assertStagingZeros("a reused digest's result", stream);
        assertHeapMessageZeroed("a reused digest", stream);

        // A copy takes what waits staged onto its own heap, ahead of the heap bytes.
        stream.update(message, 0, 200);
        stream.update(message, 200, 10);
        var copy = stream.copy();
        assertArrayEquals(sm3(Arrays.copyOf(message, 210)), copy.finish());
        assertArrayEquals(sm3(Arrays.copyOf(message, 210)), stream.finish());
        assertNothingLeft("a reused digest and its copy", List.of(message));
    }

    @Test
    void aMacLeavesNothingAndANewKeyTakesTheOldKeysStatesAway() throws Exception {
        byte[] keyA = bytes(37, 0x11);
        byte[] keyB = bytes(20, 0x51);
        byte[] message = bytes(300, 3);
        Mac mac = Mac.getInstance("HmacSM3", PROVIDER);
        mac.init(new SecretKeySpec(keyA, "HmacSM3"));
        mac.doFinal(message);
        // Reused: the key's inner and outer states are loaded into a claimed context.
        mac.doFinal(message);
        byte[] innerA = sm3(pad(keyA, 0x36));
        byte[] outerA = sm3(pad(keyA, 0x5c));
        assertTrue(finishedStates().stream().anyMatch(s -> Arrays.equals(s, innerA)),
                "the reading sees the keyed states of a Mac in use");
        mac.init(new SecretKeySpec(keyB, "HmacSM3"));
        for (byte[] state : finishedStates()) {
            assertFalse(Arrays.equals(state, innerA) || Arrays.equals(state, outerA),
                    "the old key's states outlived Mac.init with a new key");
        }
        assertNothingLeft("Mac re-keyed", List.of(keyA, pad(keyA, 0x36), pad(keyA, 0x5c), message));
        // A long update loads the new key's pads into the claimed context, then feeds the input in place: the pads
        // absorbed are not left staged while the message goes on.
        byte[] longInput = bytes(1000, 5);
        mac.update(longInput);
        assertNothingLeft("Mac in the middle of a message", List.of(keyB, pad(keyB, 0x36), pad(keyB, 0x5c)));
        mac.reset();
        mac.doFinal(message);
        assertNothingLeft("Mac", List.of(keyB, pad(keyB, 0x36), pad(keyB, 0x5c), message));
        Mac once = Mac.getInstance("HmacSM3", PROVIDER);
        byte[] longKey = bytes(100, 0x71);
        once.init(new SecretKeySpec(longKey, "HmacSM3"));
        // Hashed on a borrowed context, which went back before the next message could overwrite its buffer.
        assertNothingLeft("Mac.init with a long key", List.of(longKey, sm3(longKey)));
        once.doFinal(message);
        assertNothingLeft("Mac with a long key", List.of(longKey, message));
    }

    @Test
    void aDerivationLeavesNothing() throws Exception {
        char[] password = "a password of some length".toCharArray();
        byte[] salt = bytes(16, 9);
        byte[] derived = SecretKeyFactory.getInstance("PBKDF2WithHmacSM3", PROVIDER)
                .generateSecret(new PBEKeySpec(password, salt, 3, 512)).getEncoded();
        byte[] passwordBytes = new String(password).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertNothingLeft("PBKDF2", List.of(derived, Arrays.copyOf(passwordBytes, 16)));
    }

    /**
     * The heap arrays a stream lets go of while its message goes on, or when it ends, are zeroed first: the pending
     * array it outgrows, the old key's pads at a new key, a copy's parked state at its reset. Read through
     * references taken before, as a heap dump would find the arrays until they are collected.
     */
    @Test
    void heapArraysAStreamLetsGoOfAreZeroed() throws Exception {
        DigestStream growing = Algorithm.sm3Stream();
        byte[] message = bytes(100, 21);
        growing.update(message, 0, 20);
        byte[] small = growing.snapshot().pending();
        growing.update(message, 20, 80);
        assertTrue(small != growing.snapshot().pending(), "the pending array grew");
        assertArrayEquals(new byte[small.length], small, "the outgrown pending array was not zeroed");
        assertArrayEquals(sm3(message), growing.finish());

        MacStream keyed = Algorithm.hmacStream();
        keyed.init(bytes(32, 22));
        byte[] oldPads = keyed.snapshot().pads();
        keyed.init(bytes(32, 23));
        assertArrayEquals(new byte[oldPads.length], oldPads, "the old key's pads outlived the new key");

        DigestStream started = Algorithm.sm3Stream();
        byte[] longMessage = bytes(1000, 24);
        started.update(longMessage, 0, longMessage.length);
        var copy = started.copy();
        byte[] parked = copy.snapshot().parked();
        if (parked != null) {
            // Where states are bytes (StateBytes), a copy keeps the state on the heap until it needs a context.
            copy.reset();
            assertArrayEquals(new byte[parked.length], parked, "a dropped copy's parked state was not zeroed");
        }
        assertArrayEquals(sm3(longMessage), started.finish());
    }

    /** Idle contexts hold nothing; no context, idle or claimed, holds a 16-byte window of {@code secrets}. */
    private static void assertNothingLeft(String what, List<byte[]> secrets) {
        byte[] empty = sm3(new byte[0]);
        for (ContextPool<?> pool : List.of(Sm3Context.POOL, HmacContext.POOL)) {
            for (PooledContext c : pool.idleContexts()) {
                assertTrue(c.staging().asByteBuffer().equals(java.nio.ByteBuffer.allocate(PooledContext.STAGING_SIZE)),
                        () -> what + ": an idle context's staging buffer holds bytes: "
                                + java.util.HexFormat.of().formatHex(c.staging().toArray(JAVA_BYTE)));
                assertTrue(c.primed(), what + ": an idle context is not left started");
                assertArrayEquals(empty, finished(c.ctx()), what + ": an idle context's message state is not empty");
                assertFalse(c instanceof HmacContext h && h.keyed(), what + ": an idle context holds keyed states");
                if (Faults.chosen() instanceof ProviderBackend.StateBytes) {
                    for (MemorySegment state : states(c)) {
                        byte[] raw = state.reinterpret(Sm3CtxLayout.SM3_CTX_BYTES).toArray(JAVA_BYTE);
                        // Started and empty, or (keyed states never used) never written.
                        assertTrue(Arrays.equals(initImage(), raw) || Arrays.equals(new byte[raw.length], raw),
                                what + ": an idle state's bytes are neither init's nor untouched");
                    }
                }
            }
        }
        for (PooledContext c : PooledContext.all()) {
            String where = c.getClass().getSimpleName() + (pool(c).idleContexts().contains(c) ? " idle" : c.claim() != null ? " claimed" : " borrowed");
            // A claimed context's states hold its user's message in progress, and a digest's staging buffer the
            // part of it not yet handed to OpenSSL; callers leave out what may wait there.
            List<byte[]> raw = new ArrayList<>(List.of(c.staging().toArray(JAVA_BYTE)));
            for (byte[] secret : secrets) {
                for (int k = 0; k < raw.size(); k++) {
                    assertFalse(containsWindow(raw.get(k), secret), what + ": 16 bytes of a secret or message remain in "
                            + where + (k == 0 ? " staging" : " state " + k) + ": " + java.util.HexFormat.of().formatHex(raw.get(k)));
                }
            }
        }
    }

    /**
     * The claimed context of a stream whose message ended holds nothing staged, not even the result, which the
     * final wrote there before it was copied out.
     */
    private static void assertStagingZeros(String what, MessageStream<?> stream) throws Exception {
        PooledContext claimed = stream.snapshot().claimed();
        assertTrue(claimed != null, what + ": a reused stream holds a context");
        byte[] staging = claimed.staging().toArray(JAVA_BYTE);
        assertArrayEquals(new byte[staging.length], staging, what + ": left in the claimed context's staging buffer");
    }

    @Test
    void aReusedMacsResultIsNotLeftStaged() throws Exception {
        byte[] message = bytes(100, 0x42);
        for (int keyLength : new int[] {16, 100}) {
            byte[] key = bytes(keyLength, 0x24);
            MacStream mac = new MacStream();
            mac.init(key);
            for (int i = 0; i < 3; i++) {
                mac.update(message, 0, message.length);
                byte[] out = new byte[32];
                mac.finish(out, 0);
                assertArrayEquals(References.hmac(key, message), out);
            }
            assertStagingZeros("a reused Mac's result, key of " + keyLength, mac);
        }
    }

    private static void assertHeapMessageZeroed(String what, MessageStream<?> stream) throws Exception {
        byte[] p = stream.snapshot().pending();
        if (p != null) {
            assertTrue(Arrays.equals(p, new byte[p.length]), what + ": the message's bytes remain on the heap");
        }
    }

    private static ContextPool<?> pool(PooledContext c) {
        return c instanceof HmacContext ? HmacContext.POOL : Sm3Context.POOL;
    }

    private static List<MemorySegment> states(PooledContext c) {
        return c instanceof HmacContext h ? List.of(c.ctx(), h.states().get(1), h.states().get(2)) : List.of(c.ctx());
    }

    /** What every live context's states give, copied and finished. */
    private static List<byte[]> finishedStates() {
        List<byte[]> all = new ArrayList<>();
        for (PooledContext c : PooledContext.all()) {
            states(c).forEach(s -> all.add(finished(s)));
        }
        return all;
    }

    /** The digest a copy of {@code state} gives, finished as it is. */
    private static byte[] finished(MemorySegment state) {
        Backend b = BackendChoice.selected();
        MemorySegment copy = b.copy(state, b.newContext());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(DIGEST_LENGTH + JAVA_LONG.byteSize());
            b.finalInto(copy, out, out.asSlice(DIGEST_LENGTH));
            return out.asSlice(0, DIGEST_LENGTH).toArray(JAVA_BYTE);
        } finally {
            b.free(copy);
        }
    }

    /** The 108 bytes init leaves in OpenSSL's SM3_CTX: the IV, then zeros. */
    private static byte[] initImage() {
        MemorySegment image = MemorySegment.ofArray(new byte[(int) Sm3CtxLayout.SM3_CTX_BYTES]);
        for (int i = 0; i < Sm3CtxLayout.IV.length; i++) {
            image.set(JAVA_INT.withByteAlignment(1), 4L * i, Sm3CtxLayout.IV[i]);
        }
        return image.toArray(JAVA_BYTE);
    }

    private static boolean containsWindow(byte[] haystack, byte[] secret) {
        int w = Math.min(16, secret.length);
        java.util.Set<java.nio.ByteBuffer> windows = new java.util.HashSet<>();
        for (int i = 0; i + w <= haystack.length; i++) {
            windows.add(java.nio.ByteBuffer.wrap(Arrays.copyOfRange(haystack, i, i + w)));
        }
        for (int from = 0; from + w <= secret.length; from++) {
            if (windows.contains(java.nio.ByteBuffer.wrap(secret, from, w).slice())) {
                return true;
            }
        }
        return false;
    }

    private static byte[] pad(byte[] key, int pad) {
        byte[] k0 = Arrays.copyOf(key, BLOCK_SIZE);
        for (int i = 0; i < k0.length; i++) {
            k0[i] ^= (byte) pad;
        }
        return k0;
    }

    private static byte[] sm3(byte[] m) {
        SM3Digest d = new SM3Digest();
        d.update(m, 0, m.length);
        byte[] out = new byte[DIGEST_LENGTH];
        d.doFinal(out, 0);
        return out;
    }

    private static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        java.util.Random random = new java.util.Random(seed * 1_000_003L + n);
        for (int i = 0; i < n; i++) {
            b[i] = (byte) random.nextInt();
        }
        return b;
    }

    static {
        assertEquals(32, DIGEST_LENGTH);
    }
}
