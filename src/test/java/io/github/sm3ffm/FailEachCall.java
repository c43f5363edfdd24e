package io.github.sm3ffm;

import io.github.sm3ffm.internal.libcrypto.Faults;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A row whose native calls fail one at a time, each time followed by the rows after it: for the 1st, 2nd, ...
 * failable native call that the row makes ({@link Faults}), that call fails, and then
 * <ul>
 * <li>the row either threw the caller's own error ({@code engineError}: a {@code TrinoException}, the exception
 * a Spark task fails with, the library's {@code ProviderException}), or gave the right value (a failure that
 * hit the clearing of a context after the result was made);</li>
 * <li>{@code nextRows} runs, and throws if any of its rows, computed on the same thread, is wrong.</li>
 * </ul>
 * {@code nextRows} should compute this row again too, so that the pools are as they were when its calls were
 * counted. The engines' tests use it through the library's test jar. The caller's JVM must have called
 * {@link Faults#install()} before its first native call.
 */
public final class FailEachCall {
    /** What failing each call of one row gave. */
    public record Outcome(String row, int points, int failedRows, int rightAnyway, int unreached,
                          Set<String> failedCalls) {
        @Override
        public String toString() {
            return row + ": " + points + " failure points, " + failedRows + " rows failed with the engine's error, "
                    + rightAnyway + " right anyway" + (unreached == 0 ? "" : ", " + unreached + " not reached")
                    + "; failed calls " + failedCalls + "; every next row right";
        }
    }

    private FailEachCall() {
    }

    /**
     * Fails each failable native call of {@code row} in turn.
     *
     * @param name        the row, for the report
     * @param row         computes the row (its raw 32 bytes), as the engine calls the function
     * @param expected    the row's right value
     * @param engineError whether a thrown exception is the one the engine should see
     * @param nextRows    computes the rows after it and throws if one is wrong
     */
    public static Outcome run(String name, Supplier<byte[]> row, byte[] expected,
                              Predicate<RuntimeException> engineError, Runnable nextRows) {
        int points = Faults.count(row::get);
        if (points == 0) {
            throw new AssertionError(name + ": no failable native call");
        }
        int failed = 0;
        int right = 0;
        int unreached = 0;
        Set<String> calls = new TreeSet<>();
        for (int n = 1; n <= points; n++) {
            String call;
            try (Faults.Armed armed = Faults.failNth(n)) {
                try {
                    byte[] value = row.get();
                    if (!Arrays.equals(expected, value)) {
                        throw new AssertionError(name + ", call " + n + " (" + armed.failedCall() + ") armed: gave "
                                + HexFormat.of().formatHex(value) + ", not " + HexFormat.of().formatHex(expected));
                    }
                    right++;
                } catch (RuntimeException e) {
                    if (!engineError.test(e)) {
                        throw new AssertionError(name + ", call " + n + " (" + armed.failedCall() + ") armed: "
                                + "not the engine's error", e);
                    }
                    failed++;
                }
                call = armed.injected() ? armed.failedCall() : null;
            }
            if (call == null) {
                // The row took a shorter path than when counted (a pool's state differs): nothing failed.
                unreached++;
            } else {
                calls.add(call);
            }
            try {
                nextRows.run();
            } catch (RuntimeException | AssertionError e) {
                throw new AssertionError(name + ": after call " + n + " (" + call + ") failed, a next row", e);
            }
        }
        if (failed == 0) {
            throw new AssertionError(name + ": no failure reached the caller");
        }
        return new Outcome(name, points, failed, right, unreached, calls);
    }
}
