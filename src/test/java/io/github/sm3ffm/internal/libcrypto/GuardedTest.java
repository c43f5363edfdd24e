package io.github.sm3ffm.internal.libcrypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A stream's guard ({@link Guarded}): a thread that uses a stream while another holds its guard waits until the guard
 * is let go, past the spins and into the parked waits, and then runs on the stream as it is; for every operation
 * that touches a stream's state, of both kinds.
 */
class GuardedTest {
    private static final byte[] MESSAGE = new byte[1000];
    private static final byte[] KEY = new byte[20];

    static {
        for (int i = 0; i < MESSAGE.length; i++) {
            MESSAGE[i] = (byte) (i * 3 + 1);
        }
        Arrays.fill(KEY, (byte) 0x0b);
    }

    @Test
    void aDigestsOperationsWaitForTheHolderOfTheGuard() throws Exception {
        byte[] whole = References.sm3(MESSAGE);
        byte[] head = References.sm3(Arrays.copyOf(MESSAGE, 100));
        waitsForTheGuard("update", digest(), s -> {
            s.update(MESSAGE, 100, MESSAGE.length - 100);
            return s.finish();
        }, whole);
        waitsForTheGuard("finish", digest(), MessageStream::finish, head);
        waitsForTheGuard("copy", digest(), s -> s.copy().finish(), head);
        waitsForTheGuard("reset", digest(), s -> {
            s.reset();
            s.update(MESSAGE, 0, MESSAGE.length);
            return s.finish();
        }, whole);
    }

    @Test
    void aMacsOperationsWaitForTheHolderOfTheGuard() throws Exception {
        byte[] head = References.hmac(KEY, Arrays.copyOf(MESSAGE, 100));
        byte[] other = References.hmac(MESSAGE, MESSAGE);
        waitsForTheGuard("finish", mac(), MessageStream::finish, head);
        waitsForTheGuard("copy", mac(), s -> s.copy().finish(), head);
        waitsForTheGuard("init", mac(), s -> {
            s.init(MESSAGE);
            s.update(MESSAGE, 0, MESSAGE.length);
            return s.finish();
        }, other);
    }

    private static DigestStream digest() throws Exception {
        DigestStream s = Algorithm.sm3Stream();
        s.update(MESSAGE, 0, 100);
        return s;
    }

    private static MacStream mac() throws Exception {
        MacStream s = Algorithm.hmacStream();
        s.init(KEY);
        s.update(MESSAGE, 0, 100);
        return s;
    }

    private static <S extends MessageStream<?>> void waitsForTheGuard(String operation, S stream,
                                                                       Function<S, byte[]> use, byte[] expected)
            throws Exception {
        stream.enter();
        CompletableFuture<byte[]> other;
        try {
            other = CompletableFuture.supplyAsync(() -> use.apply(stream));
            // Long enough for the waiting thread to spin and park several times; it cannot finish before exit.
            Thread.sleep(100);
            assertFalse(other.isDone(), operation + " ran on the stream while another thread held its guard");
        } finally {
            stream.exit();
        }
        assertArrayEquals(expected, other.get(30, TimeUnit.SECONDS), operation);
    }
}
