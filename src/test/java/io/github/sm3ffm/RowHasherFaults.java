package io.github.sm3ffm;

import static io.github.sm3ffm.RowHasherTest.bcHmac;
import static io.github.sm3ffm.RowHasherTest.bcSm3;

import io.github.sm3ffm.internal.libcrypto.Faults;
import java.security.ProviderException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

/**
 * {@link RowHasherFailuresTest}'s child JVM: installs {@link Faults} before anything loads libcrypto, then fails
 * every failable native call of SM3 and HMAC-SM3 rows in turn ({@link FailEachCall}), on the shared hasher (warm
 * pools, a cached key) and on a new one per attempt (every instance made then), and checks the rows after each
 * against BouncyCastle; then a key refused by a failure inside {@code Mac.init}. Prints one line per row and
 * exits 1 on the first wrong one.
 */
public final class RowHasherFaults {
    private static final byte[] SOURCE = new byte[1 << 14];
    private static final int[] LENGTHS = {0, 16, 64, 600, 5000};

    private RowHasherFaults() {
    }

    public static void main(String[] args) {
        Faults.install();
        new Random(4949).nextBytes(SOURCE);
        byte[] shortKey = Arrays.copyOfRange(SOURCE, 100, 132);
        // Longer than a block: Mac.init hashes it natively, so initialising the Mac can fail too.
        byte[] longKey = Arrays.copyOfRange(SOURCE, 200, 300);
        byte[] otherKey = Arrays.copyOfRange(SOURCE, 300, 316);
        // The JVM's first rows load libcrypto and run the self-tests: not what a row costs later.
        nextRows(RowHasher.of(), 10, shortKey, otherKey);
        List<FailEachCall.Outcome> outcomes = new ArrayList<>();
        for (boolean fresh : new boolean[] {false, true}) {
            for (int length : LENGTHS) {
                String state = fresh ? "new hasher" : "shared hasher";
                RowHasher[] rows = {RowHasher.of()};
                Supplier<RowHasher> hasher = () -> fresh ? rows[0] = newHasher() : rows[0];
                outcomes.add(FailEachCall.run("sm3, " + length + " B, " + state,
                        () -> hasher.get().sm3(SOURCE, 1, length), bcSm3(SOURCE, 1, length),
                        e -> e instanceof ProviderException, () -> nextRows(rows[0], length, shortKey, otherKey)));
                for (byte[] key : List.of(shortKey, longKey)) {
                    outcomes.add(FailEachCall.run("hmac_sm3, " + length + " B, " + key.length + "-byte key, " + state,
                            () -> hasher.get().hmacSm3(key, 0, key.length, SOURCE, 1, length),
                            bcHmac(key, 0, key.length, SOURCE, 1, length),
                            e -> e instanceof ProviderException, () -> nextRows(rows[0], length, key, otherKey)));
                }
            }
        }
        outcomes.forEach(o -> System.out.println("RowHasherFaults: " + o));
        refusedKey(shortKey, longKey);
        int points = outcomes.stream().mapToInt(FailEachCall.Outcome::points).sum();
        int failed = outcomes.stream().mapToInt(FailEachCall.Outcome::failedRows).sum();
        System.out.println("RowHasherFaults: " + outcomes.size() + " rows, " + points + " failure points, " + failed
                + " failed rows, every next row right");
    }

    /**
     * Key A cached, then key B refused by a failure inside {@code Mac.init} (B is longer than a block, so init
     * hashes it natively): B is not cached, and A and B both give their own tags afterwards.
     */
    private static void refusedKey(byte[] a, byte[] b) {
        RowHasher rows = newHasher();
        expect(bcHmac(a, 0, a.length, SOURCE, 0, 64), rows.hmacSm3(a, 0, a.length, SOURCE, 0, 64));
        String call;
        try (Faults.Armed armed = Faults.failNth(1)) {
            try {
                rows.hmacSm3(b, 0, b.length, SOURCE, 0, 64);
                throw new AssertionError("key B was not refused");
            } catch (ProviderException expected) {
                call = armed.failedCall();
            }
        }
        boolean cached = rows.macs().snapshot().stream().anyMatch(e -> e.key.length == b.length);
        if (cached) {
            throw new AssertionError("a refused key was cached");
        }
        for (int i = 0; i < 3; i++) {
            expect(bcHmac(a, 0, a.length, SOURCE, i, 64), rows.hmacSm3(a, 0, a.length, SOURCE, i, 64));
            expect(bcHmac(b, 0, b.length, SOURCE, i, 64), rows.hmacSm3(b, 0, b.length, SOURCE, i, 64));
        }
        System.out.println("RowHasherFaults: key B refused (" + call + " failed in Mac.init), not cached; then A and"
                + " B right");
    }

    private static RowHasher newHasher() {
        return new RowHasher(new SM3Provider(), RowHasher.CACHED_KEYS, 4);
    }

    /** The same row twice, then SM3 and another key, each against BouncyCastle. */
    private static void nextRows(RowHasher rows, int length, byte[] key, byte[] otherKey) {
        for (int i = 0; i < 2; i++) {
            expect(bcSm3(SOURCE, 1, length), rows.sm3(SOURCE, 1, length));
            expect(bcHmac(key, 0, key.length, SOURCE, 1, length), rows.hmacSm3(key, 0, key.length, SOURCE, 1, length));
        }
        expect(bcHmac(otherKey, 0, otherKey.length, SOURCE, 2, 70),
                rows.hmacSm3(otherKey, 0, otherKey.length, SOURCE, 2, 70));
    }

    private static void expect(byte[] expected, byte[] actual) {
        if (!Arrays.equals(expected, actual)) {
            throw new AssertionError("a next row is wrong");
        }
    }
}
