package io.github.sm3ffm.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.FailEachCall;
import io.github.sm3ffm.internal.libcrypto.Faults;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.BoundReference;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code sm3} and {@code hmac_sm3} called row after row on one thread, as a task calls them (the hasher that
 * generated code calls, and the expressions' interpreted {@code eval}), while the library's native calls fail one
 * at a time (the library's test seam, {@link Faults}): every failable call a row makes, each followed by the next
 * rows (the same value and key, another key, {@code sm3}) checked against BouncyCastle. A failed row must be the
 * exception that fails the task, naming the function. Runs in a Surefire execution of its own, since the failing
 * backend must be installed before anything in the JVM loads libcrypto.
 */
class SM3RowHasherFailuresTest {
    private static final byte[] SOURCE = new byte[1 << 14];
    private static final int[] LENGTHS = {0, 16, 64, 1000, 5000};
    private static final HexFormat HEX = HexFormat.of();

    @BeforeAll
    static void installFaults() {
        Faults.install();
        new Random(42).nextBytes(SOURCE);
    }

    /** A STRING in the middle of a row's bytes, as Spark's UnsafeRow holds it. */
    private static UTF8String string(int offset, int length) {
        return UTF8String.fromBytes(SOURCE, offset, length);
    }

    private static byte[] bytes(int offset, int length) {
        return Arrays.copyOfRange(SOURCE, offset, offset + length);
    }

    private static boolean isTaskError(RuntimeException e, String function) {
        return e instanceof IllegalStateException && e.getMessage().startsWith(function + ": ");
    }

    /** The interpreted path: an expression over a row's first two columns, BINARY. */
    private static byte[] eval(Expression e, byte[]... values) {
        InternalRow row = new GenericInternalRow(values);
        return HEX.parseHex(e.eval(row).toString());
    }

    @Test
    void everyFailedNativeCallFailsItsRowOnlyAndTheNextRowsAreRight() {
        SM3RowHasher hasher = new SM3RowHasher();
        Expression sm3 = new SM3Expression(new BoundReference(0, DataTypes.BinaryType, false));
        Expression hmac = new HmacSM3Expression(new BoundReference(0, DataTypes.BinaryType, false),
                new BoundReference(1, DataTypes.BinaryType, false));
        UTF8String key = string(100, 32);
        UTF8String longKey = string(200, 100);
        UTF8String otherKey = string(400, 16);
        List<FailEachCall.Outcome> outcomes = new ArrayList<>();
        for (int length : LENGTHS) {
            UTF8String value = string(7, length);
            byte[] v = bytes(7, length);
            byte[] expected = HEX.parseHex(BouncyCastleSM3.sm3(v));
            // Warm: the library loaded, and the keys of the cached cases cached, as when their calls are counted.
            nextRows(hasher, value, key, otherKey);
            nextRows(hasher, value, longKey, otherKey);
            outcomes.add(FailEachCall.run("sm3 of a STRING, " + length + " B", () -> raw(hasher.sm3(value)),
                    expected, e -> isTaskError(e, "sm3"), () -> nextRows(hasher, value, key, otherKey)));
            outcomes.add(FailEachCall.run("sm3 interpreted, " + length + " B", () -> eval(sm3, v), expected,
                    e -> isTaskError(e, "sm3"), () -> nextRows(hasher, value, key, otherKey)));
            for (UTF8String k : List.of(key, longKey)) {
                byte[] tag = HEX.parseHex(BouncyCastleSM3.hmacSm3(k.getBytes(), v));
                outcomes.add(FailEachCall.run("hmac_sm3 of STRINGs, " + length + " B, " + k.numBytes() + "-byte key",
                        () -> raw(hasher.hmacSm3(value, k)), tag, e -> isTaskError(e, "hmac_sm3"),
                        () -> nextRows(hasher, value, k, otherKey)));
                Supplier<byte[]> interpreted = () -> eval(hmac, v, k.getBytes());
                outcomes.add(FailEachCall.run("hmac_sm3 interpreted, " + length + " B, " + k.numBytes()
                        + "-byte key", interpreted, tag, e -> isTaskError(e, "hmac_sm3"),
                        () -> nextRows(hasher, value, k, otherKey)));
            }
            // A key the library has not cached: each attempt keys a new Mac (a long key is hashed while keying).
            flushKeys(hasher);
            outcomes.add(FailEachCall.run("hmac_sm3, " + length + " B, a 100-byte key not cached",
                    () -> raw(hasher.hmacSm3(value, longKey)),
                    HEX.parseHex(BouncyCastleSM3.hmacSm3(longKey.getBytes(), v)), e -> isTaskError(e, "hmac_sm3"),
                    () -> {
                        nextRows(hasher, value, longKey, otherKey);
                        flushKeys(hasher);
                    }));
        }
        outcomes.forEach(o -> System.out.println("SM3RowHasherFailuresTest: " + o));
        assertTrue(outcomes.stream().mapToInt(FailEachCall.Outcome::failedRows).sum() > 0);
    }

    private static byte[] raw(UTF8String hex) {
        return HEX.parseHex(hex.toString());
    }

    /** Rows under enough other keys that the library's cache of keys holds none of the test's keys. */
    private static void flushKeys(SM3RowHasher hasher) {
        UTF8String value = string(9, 20);
        for (int k = 0; k < 20; k++) {
            UTF8String key = string(8000 + 40 * k, 8 + k);
            assertEquals(BouncyCastleSM3.hmacSm3(key.getBytes(), value.getBytes()), hasher.hmacSm3(value, key).toString());
        }
    }

    /** The same row twice (as a STRING and as a BINARY), and another key, each against BouncyCastle. */
    private static void nextRows(SM3RowHasher hasher, UTF8String value, UTF8String key, UTF8String otherKey) {
        byte[] v = value.getBytes();
        for (int i = 0; i < 2; i++) {
            assertEquals(BouncyCastleSM3.sm3(v), hasher.sm3(value).toString());
            assertEquals(BouncyCastleSM3.sm3(v), hasher.sm3(v).toString());
            assertEquals(BouncyCastleSM3.hmacSm3(key.getBytes(), v), hasher.hmacSm3(value, key).toString());
            assertEquals(BouncyCastleSM3.hmacSm3(key.getBytes(), v), hasher.hmacSm3(v, key.getBytes()).toString());
        }
        assertEquals(BouncyCastleSM3.hmacSm3(otherKey.getBytes(), v), hasher.hmacSm3(value, otherKey).toString());
    }

    /**
     * Key A in use, then key B refused by a failure inside {@code Mac.init} (B is longer than a block, so the
     * library hashes it natively while keying): the row fails the task, and the next rows (a retry of the task)
     * give A's and B's tags, not a stale key's.
     */
    @Test
    void aKeyRefusedByOpenSSLLeavesNoStaleKey() {
        SM3RowHasher hasher = new SM3RowHasher();
        UTF8String a = string(1000, 24);
        UTF8String b = string(2000, 90);
        UTF8String value = string(3000, 64);
        assertEquals(BouncyCastleSM3.hmacSm3(a.getBytes(), value.getBytes()), hasher.hmacSm3(value, a).toString());
        try (Faults.Armed armed = Faults.failNth(1)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> hasher.hmacSm3(value, b));
            assertTrue(isTaskError(e, "hmac_sm3"), e.getMessage());
            assertTrue(armed.injected());
        }
        for (int i = 0; i < 3; i++) {
            UTF8String v = string(3000 + i, 64);
            assertEquals(BouncyCastleSM3.hmacSm3(a.getBytes(), v.getBytes()), hasher.hmacSm3(v, a).toString());
            assertEquals(BouncyCastleSM3.hmacSm3(b.getBytes(), v.getBytes()), hasher.hmacSm3(v, b).toString());
        }
    }

    @Test
    void anEmptyKeyFailsItsRowOnly() {
        SM3RowHasher hasher = new SM3RowHasher();
        UTF8String a = string(1000, 24);
        UTF8String value = string(3000, 64);
        assertThrows(IllegalArgumentException.class, () -> hasher.hmacSm3(value, string(5, 0)));
        assertEquals(BouncyCastleSM3.hmacSm3(a.getBytes(), value.getBytes()), hasher.hmacSm3(value, a).toString());
    }
}
