package io.github.sm3ffm.trino;

import static io.github.sm3ffm.trino.BouncyCastleSM3.hmac;
import static io.github.sm3ffm.trino.BouncyCastleSM3.sm3;
import static io.trino.spi.StandardErrorCode.FUNCTION_IMPLEMENTATION_ERROR;
import static io.trino.spi.StandardErrorCode.INVALID_FUNCTION_ARGUMENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.github.sm3ffm.FailEachCall;
import io.github.sm3ffm.internal.libcrypto.Faults;
import io.trino.spi.TrinoException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code sm3} and {@code hmac_sm3} called row after row on one thread, as a Trino driver calls them, while the
 * library's native calls fail one at a time (the library's test seam, {@link Faults}): every failable call a row
 * makes, each followed by the next rows (the same value and key, another key, {@code sm3}) checked against
 * BouncyCastle. A failed row must be a {@link TrinoException} naming the function. Runs in a Surefire execution
 * of its own, since the failing backend must be installed before anything in the JVM loads libcrypto.
 */
class SM3FunctionsFailuresTest {
    private static final byte[] SOURCE = new byte[1 << 14];
    private static final int[] LENGTHS = {0, 16, 64, 1000, 5000};

    @BeforeAll
    static void installFaults() {
        Faults.install();
        new Random(476).nextBytes(SOURCE);
    }

    /** A value at an offset of a larger array, as a Slice of a page's block usually is. */
    private static Slice slice(int offset, int length) {
        return Slices.wrappedBuffer(SOURCE, offset, length);
    }

    private static byte[] bytes(int offset, int length) {
        return Arrays.copyOfRange(SOURCE, offset, offset + length);
    }

    private static boolean isFunctionError(RuntimeException e, String function) {
        return e instanceof TrinoException t && t.getErrorCode().equals(FUNCTION_IMPLEMENTATION_ERROR.toErrorCode())
                && t.getMessage().startsWith(function + ": ");
    }

    @Test
    void everyFailedNativeCallFailsItsRowOnlyAndTheNextRowsAreRight() {
        Slice key = slice(100, 32);
        Slice longKey = slice(200, 100);
        Slice otherKey = slice(400, 16);
        List<FailEachCall.Outcome> outcomes = new ArrayList<>();
        for (int length : LENGTHS) {
            Slice value = slice(7, length);
            // Warm: the library loaded, and the keys of the cached cases cached, as when their calls are counted.
            nextRows(value, key, otherKey);
            nextRows(value, longKey, otherKey);
            outcomes.add(FailEachCall.run("sm3, " + length + " B", () -> SM3Functions.sm3(value).getBytes(),
                    sm3(bytes(7, length)), e -> isFunctionError(e, "sm3"),
                    () -> nextRows(value, key, otherKey)));
            for (Slice k : List.of(key, longKey)) {
                outcomes.add(FailEachCall.run("hmac_sm3, " + length + " B, " + k.length() + "-byte key",
                        () -> SM3Functions.hmacSm3(value, k).getBytes(), hmac(k.getBytes(), bytes(7, length)),
                        e -> isFunctionError(e, "hmac_sm3"), () -> nextRows(value, k, otherKey)));
            }
            // A key the library has not cached: each attempt keys a new Mac (a long key is hashed while keying).
            flushKeys();
            outcomes.add(FailEachCall.run("hmac_sm3, " + length + " B, a 100-byte key not cached",
                    () -> SM3Functions.hmacSm3(value, longKey).getBytes(), hmac(longKey.getBytes(), bytes(7, length)),
                    e -> isFunctionError(e, "hmac_sm3"), () -> {
                        nextRows(value, longKey, otherKey);
                        flushKeys();
                    }));
        }
        outcomes.forEach(o -> System.out.println("SM3FunctionsFailuresTest: " + o));
        assertThat(outcomes.stream().mapToInt(FailEachCall.Outcome::failedRows).sum()).isPositive();
    }

    /** Rows under enough other keys that the library's cache of keys holds none of the test's keys. */
    private static void flushKeys() {
        Slice value = slice(9, 20);
        for (int k = 0; k < 20; k++) {
            Slice key = slice(8000 + 40 * k, 8 + k);
            assertThat(SM3Functions.hmacSm3(value, key).getBytes()).isEqualTo(hmac(key.getBytes(), value.getBytes()));
        }
    }

    /** The same row twice, {@code sm3} of it, and another key, each against BouncyCastle. */
    private static void nextRows(Slice value, Slice key, Slice otherKey) {
        byte[] v = value.getBytes();
        for (int i = 0; i < 2; i++) {
            assertThat(SM3Functions.sm3(value).getBytes()).isEqualTo(sm3(v));
            assertThat(SM3Functions.hmacSm3(value, key).getBytes()).isEqualTo(hmac(key.getBytes(), v));
        }
        assertThat(SM3Functions.hmacSm3(value, otherKey).getBytes()).isEqualTo(hmac(otherKey.getBytes(), v));
    }

    /**
     * Key A in use, then key B refused by a failure inside {@code Mac.init} (B is longer than a block, so the
     * library hashes it natively while keying): the row fails with a {@code TrinoException}, and the next rows
     * give A's and B's tags, not a stale key's.
     */
    @Test
    void aKeyRefusedByOpenSSLLeavesNoStaleKey() {
        Slice a = slice(1000, 24);
        Slice b = slice(2000, 90);
        Slice value = slice(3000, 64);
        assertThat(SM3Functions.hmacSm3(value, a).getBytes()).isEqualTo(hmac(a.getBytes(), value.getBytes()));
        try (Faults.Armed armed = Faults.failNth(1)) {
            assertThatThrownBy(() -> SM3Functions.hmacSm3(value, b))
                    .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(isFunctionError(e, "hmac_sm3")).isTrue());
            assertThat(armed.injected()).isTrue();
        }
        for (int i = 0; i < 3; i++) {
            Slice v = slice(3000 + i, 64);
            assertThat(SM3Functions.hmacSm3(v, a).getBytes()).isEqualTo(hmac(a.getBytes(), v.getBytes()));
            assertThat(SM3Functions.hmacSm3(v, b).getBytes()).isEqualTo(hmac(b.getBytes(), v.getBytes()));
        }
    }

    @Test
    void anEmptyKeyFailsItsRowOnly() {
        Slice a = slice(1000, 24);
        Slice value = slice(3000, 64);
        assertThatThrownBy(() -> SM3Functions.hmacSm3(value, slice(5, 0)))
                .isInstanceOfSatisfying(TrinoException.class,
                        e -> assertThat(e.getErrorCode()).isEqualTo(INVALID_FUNCTION_ARGUMENT.toErrorCode()));
        assertThat(SM3Functions.hmacSm3(value, a).getBytes()).isEqualTo(hmac(a.getBytes(), value.getBytes()));
    }
}
