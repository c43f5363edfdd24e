package io.github.sm3ffm.internal.libcrypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A stream's guard ({@link Guarded}): a thread that uses a stream while another holds its guard waits until the guard
 * is let go, past the spins and into the parked waits, and then runs on the stream as it is.
 */
class GuardedTest {
    @Test
    void aThreadWaitsForTheHolderOfTheGuard() throws Exception {
        DigestStream stream = Algorithm.sm3Stream();
        byte[] message = new byte[1000];
        for (int i = 0; i < message.length; i++) {
            message[i] = (byte) (i * 3 + 1);
        }
        stream.update(message, 0, 100);
        stream.enter();
        CompletableFuture<byte[]> other;
        try {
            other = CompletableFuture.supplyAsync(() -> {
                stream.update(message, 100, message.length - 100);
                return stream.finish();
            });
            // Long enough for the waiting thread to spin and park several times; it cannot finish before exit.
            Thread.sleep(200);
            assertFalse(other.isDone(), "a thread ran on the stream while another held its guard");
        } finally {
            stream.exit();
        }
        assertArrayEquals(References.sm3(message), other.get(30, TimeUnit.SECONDS));
    }
}
