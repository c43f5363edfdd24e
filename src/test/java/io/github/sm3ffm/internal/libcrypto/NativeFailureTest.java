package io.github.sm3ffm.internal.libcrypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.SM3Provider;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.ProviderException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.macs.HMac;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every native call that can fail, failed in turn, in every operation of every service: for each operation, the
 * 1st, 2nd, 3rd, ... call that can fail returns what OpenSSL returns on failure (0, or NULL from an allocation),
 * through the decorator that {@link Faults} puts around the backend, until the operation completes without reaching the call chosen. After each failure:
 * <ul>
 * <li>the caller got a {@code ProviderException} naming the call, never a result; or the failure hit the clearing
 * of a context on its way back to the pool after the result was made, and the result is right;</li>
 * <li>the context the call failed on was freed, not kept;</li>
 * <li>the object gives right answers afterwards: a message that lost input is refused until it is ended, a failed
 * digest or MAC ends its message, and the source of a failed clone continues as if nothing happened;</li>
 * <li>the pool's books balance: every live context is idle or claimed, none twice, and the claims counted are the
 * claims held.</li>
 * </ul>
 * Runs only in the build's executions that switch injection on (with the provider's functions, and through EVP);
 * the default test run leaves it out.
 */
class NativeFailureTest {
    static {
        // Before anything chooses the backend; this class runs in JVMs of its own (the build's executions).
        Faults.install();
    }

    private static final SM3Provider PROVIDER = new SM3Provider();
    /** Native objects that other tests of this JVM made outside any pooled context before this class ran. */
    private static Set<Long> othersRaw = Set.of();
    private static final Random RANDOM = new Random(42);
    private static final List<String> REPORT = Collections.synchronizedList(new ArrayList<>());

    @BeforeAll
    static void injectionIsOnAndSelfTestsHaveRun() throws Exception {
        assertInstanceOf(Faults.FailingBackend.class, BackendChoice.selected());
        aSelfTestThatCouldNotRunRunsAgain();
        for (Algorithm a : Algorithm.values()) {
            a.check();
        }
        Set<Long> raw = new java.util.HashSet<>(Faults.liveNative());
        raw.removeAll(held());
        othersRaw = raw;
    }

    /**
     * The first use of each algorithm runs its known-answer self-test; a native call that fails there leaves the
     * algorithm unavailable for that use only (a wrong answer would disable it for good). Runs first in this JVM.
     */
    private static void aSelfTestThatCouldNotRunRunsAgain() {
        for (Algorithm a : Algorithm.values()) {
            if (a.decided()) {
                // Another test of this JVM used it first (a run that mixes test classes, as PIT's does).
                continue;
            }
            try (Faults.Armed armed = Faults.failNth(1)) {
                java.util.Optional<LibCryptoUnavailableException> first = a.unavailability();
                assertTrue(armed.injected(), a + ": its self-test made no native call");
                assertTrue(first.isPresent(), a + ": available although its self-test failed to run");
                assertTrue(first.get().getMessage().contains("could not run")
                        && first.get().getMessage().contains(armed.failedCall() + " failed: injected failure"),
                        first.get().getMessage());
            }
            assertTrue(a.unavailability().isEmpty(), a + ": still unavailable after a self-test that could not run");
        }
    }

    @AfterAll
    static void report() {
        int operations = REPORT.size();
        int points = REPORT.stream().mapToInt(line -> Integer.parseInt(line.replaceAll(".*: (\\d+) points.*", "$1")))
                .sum();
        System.out.println("Native failures injected (" + BackendChoice.selected().description() + "): " + operations
                + " operations, " + points + " injection points");
        REPORT.forEach(line -> System.out.println("  " + line));
        Backend real = ((Faults.FailingBackend) BackendChoice.selected()).real;
        // Failed here all the same, so that the callers' failure paths run on every backend.
        String cannotFail = real instanceof ProviderBackend.StateBytes
                ? "copy, clear, save and restore (Java copies of the proved bytes)"
                : real instanceof ProviderBackend.Copyctx ? "copy (copyctx returns nothing)" : "none";
        System.out.println("  counted although OpenSSL cannot fail them on this backend: " + cannotFail);
    }

    /**
     * A context whose making fails part way (its staging buffer, or any of its SM3 states) frees what it made
     * before, and the failure is the caller's; nothing of it stays in native memory.
     */
    @org.junit.jupiter.api.Test
    void aContextWhoseMakingFailsFreesWhatItMade() {
        for (ContextPool.Kind<?> kind : List.of(Sm3Context.KIND, HmacContext.KIND)) {
            int calls = Faults.count(() -> kind.make().free());
            assertEquals(kind == Sm3Context.KIND ? 2 : 4, calls, kind.type() + ": a buffer and its SM3 states");
            for (int n = 1; n <= calls; n++) {
                Set<Long> before = Faults.liveNative();
                long live = PooledContext.live();
                try (Faults.Armed armed = Faults.failNth(n)) {
                    assertThrows(ProviderException.class, kind::make, kind.type() + ", call " + n);
                    assertTrue(armed.injected());
                }
                assertEquals(before, Faults.liveNative(), kind.type() + ", call " + n + ": left in native memory");
                assertEquals(live, PooledContext.live(), kind.type() + ", call " + n + ": a context counted");
            }
        }
    }

    /** Deciding again while a call of the self-test fails: unavailable for now, and not kept. */
    @org.junit.jupiter.api.Test
    void aSelfTestThatCannotRunIsNotAFinalDecision() {
        for (Algorithm a : Algorithm.values()) {
            Algorithm.Decision d;
            String failed;
            // Contexts of streams that died holding them (other tests leave some) first: a stream reclaims them
            // before it borrows, and the clearing would take the failure, which the pool absorbs.
            reclaimDead(Sm3Context.POOL);
            reclaimDead(HmacContext.POOL);
            try (Faults.Armed armed = Faults.failNth(1)) {
                d = a.decide();
                failed = armed.failedCall();
            }
            assertTrue(d.problem() != null && !d.kept(), a.toString());
            assertEquals(a.displayName() + " known-answer self-test could not run: java.security.ProviderException: "
                    + failed + " failed: injected failure", d.problem().getMessage());
            Algorithm.Decision again = a.decide();
            assertTrue(again.problem() == null && again.kept(), a.toString());
        }
    }

    private static <C extends PooledContext> void reclaimDead(ContextPool<C> pool) {
        for (C dead; (dead = pool.takeDead()) != null; ) {
            pool.giveBack(dead, true);
        }
    }

    /** One operation, set up afresh before each injection, then run with the failure armed. */
    private interface Case {
        /** The operation itself, run with a failure armed. */
        void act() throws Exception;

        /** After the operation completed: its result and what follows are right. */
        void afterSuccess() throws Exception;

        /** After the operation threw: the objects give right answers, or refuse clearly. */
        void afterFailure() throws Exception;
    }

    private interface Setup {
        Case prepare() throws Exception;
    }

    @TestFactory
    List<DynamicTest> everyFailureIsReportedAndSurvived() {
        List<DynamicTest> tests = new ArrayList<>();
        digestCases().forEach((name, setup) -> tests.add(DynamicTest.dynamicTest(name, () -> run(name, setup))));
        macCases().forEach((name, setup) -> tests.add(DynamicTest.dynamicTest(name, () -> run(name, setup))));
        kdfCases().forEach((name, setup) -> tests.add(DynamicTest.dynamicTest(name, () -> run(name, setup))));
        return tests;
    }

    private static void run(String name, Setup setup) throws Exception {
        int failures = 0;
        int absorbed = 0;
        Map<String, Integer> failedCalls = new java.util.TreeMap<>();
        for (int n = 1; ; n++) {
            assertTrue(n < 1_000, name + ": the operation never completed");
            Case c = setup.prepare();
            Throwable thrown = null;
            boolean injected;
            String failedCall;
            String at = name + ", failing call " + n;
            try (Faults.Armed armed = Faults.failNth(n)) {
                try {
                    c.act();
                } catch (Throwable t) {
                    thrown = t;
                }
                injected = armed.injected();
                failedCall = armed.failedCall();
                assertTrue(armed.failedContextFreed(), at + ": the context whose " + failedCall
                        + " failed was not freed");
            }
            if (!injected) {
                if (thrown != null) {
                    throw new AssertionError(at + " was not reached, yet the operation threw", thrown);
                }
                c.afterSuccess();
                assertBooksBalance(at);
                REPORT.add(name + ": " + (n - 1) + " points, " + failures + " reported, " + absorbed
                        + " on the way back to the pool; " + failedCalls);
                return;
            }
            failedCalls.merge(failedCall, 1, Integer::sum);
            if (thrown == null) {
                // Only clearing a context on its way back may fail after the result is made: it is freed instead.
                assertEquals("clear", failedCall, at + ": a failure that did not reach the caller");
                c.afterSuccess();
                absorbed++;
            } else {
                assertInstanceOf(ProviderException.class, thrown, at);
                // The caller is told which call failed, in OpenSSL's words (here the injected ones).
                assertEquals(failedCall + " failed: injected failure", thrown.getMessage(), at);
                c.afterFailure();
                failures++;
            }
            assertBooksBalance(at);
        }
    }

    /** Every live context is idle or claimed (nothing borrowed is left out), none twice. */
    private static void assertBooksBalance(String at) {
        Set<PooledContext> live = PooledContext.all();
        for (ContextPool<?> pool : List.of(Sm3Context.POOL, HmacContext.POOL)) {
            Class<?> kind = pool == Sm3Context.POOL ? Sm3Context.class : HmacContext.class;
            List<? extends PooledContext> idle = pool.idleContexts();
            Set<PooledContext> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
            distinct.addAll(idle);
            assertEquals(idle.size(), distinct.size(), at + ": a context idle twice");
            for (PooledContext c : idle) {
                assertTrue(live.contains(c), at + ": an idle context was freed");
                assertNull(c.claim(), at + ": an idle context is still claimed");
                assertTrue(c.staging().asByteBuffer().equals(ByteBuffer.allocate(PooledContext.STAGING_SIZE)),
                        at + ": an idle context's staging buffer holds bytes");
            }
            long claimed = live.stream().filter(c -> kind.isInstance(c) && c.claim() != null).count();
            assertEquals(claimed, pool.claimedCount(), at + ": claims counted");
            long all = live.stream().filter(kind::isInstance).count();
            assertEquals(all, idle.size() + claimed, at + ": a context neither idle nor claimed was lost");
        }
        // Every native context and buffer the backend made is one that a live pooled context holds.
        Set<Long> made = new java.util.HashSet<>(Faults.liveNative());
        made.removeAll(othersRaw);
        assertEquals(held(), made, at + ": native memory made and not held (a leak) or held and freed");
    }

    private static Set<Long> held() {
        Set<Long> held = new java.util.HashSet<>();
        for (PooledContext c : PooledContext.all()) {
            held.add(c.ctx().address());
            held.add(c.staging().address());
            if (c instanceof HmacContext h) {
                held.add(h.states().get(1).address());
                held.add(h.states().get(2).address());
            }
        }
        return held;
    }

    private static Map<String, Setup> digestCases() {
        Map<String, Setup> cases = new LinkedHashMap<>();
        // Updates on a stream whose pending bytes fill the array (the update flushes them) or whose message is in
        // a claimed context; single bytes, short and long arrays, heap, read-only and direct buffers.
        for (int prefix : new int[] {512, 1_000}) {
            cases.put("MessageDigest.update(byte) after " + prefix, digestUpdate(prefix, 1, (md, x) -> md.update(x[0])));
            cases.put("MessageDigest.update(10 bytes) after " + prefix, digestUpdate(prefix, 10, MessageDigest::update));
            cases.put("MessageDigest.update(70,000 bytes) after " + prefix,
                    digestUpdate(prefix, 70_000, MessageDigest::update));
            cases.put("MessageDigest.update(heap ByteBuffer, 10,000) after " + prefix,
                    digestUpdate(prefix, 10_000, (md, x) -> md.update(ByteBuffer.wrap(x))));
            cases.put("MessageDigest.update(read-only ByteBuffer, 70,000) after " + prefix,
                    digestUpdate(prefix, 70_000, (md, x) -> md.update(ByteBuffer.wrap(x).asReadOnlyBuffer())));
            cases.put("MessageDigest.update(direct ByteBuffer, 100) after " + prefix,
                    digestUpdate(prefix, 100, (md, x) -> md.update(direct(x))));
            cases.put("MessageDigest.update(direct ByteBuffer, 70,000) after " + prefix,
                    digestUpdate(prefix, 70_000, (md, x) -> md.update(direct(x))));
        }
        for (int prefix : new int[] {0, 100, 1_000}) {
            cases.put("MessageDigest.digest() of " + prefix, digestDigest(prefix, false));
            cases.put("MessageDigest.digest() of " + prefix + ", reused", digestDigest(prefix, true));
        }
        // A digest holding a context stages updates of 32 bytes or more in it, short ones waiting on the heap behind
        // them: they reach OpenSSL in one update, or two where the heap's last word would not fit behind them.
        for (int[] waiting : new int[][] {{100, 0}, {100, 10}, {500, 12}}) {
            cases.put("MessageDigest.digest() of " + waiting[0] + " staged and " + waiting[1] + " on the heap, reused",
                    digestStaged(waiting[0], waiting[1], 0));
        }
        cases.put("MessageDigest.update(100 bytes) after 480 staged, reused", digestStaged(480, 0, 100));
        cases.put("MessageDigest.update(100 bytes) after 400 staged and 20 on the heap, reused",
                digestStaged(400, 20, 100));
        for (int prefix : new int[] {100, 1_010}) {
            cases.put("MessageDigest.clone() of " + prefix, digestClone(prefix, false));
            cases.put("MessageDigest.clone() of a clone of " + prefix, digestClone(prefix, true));
        }
        cases.put("MessageDigest.clone() of 1,100, 90 bytes staged", digestClone(1_100, false));
        cases.put("MessageDigest.reset() of 1,000", () -> {
            MessageDigest md = sm3();
            md.update(bytes(1_000));
            return new Case() {
                @Override
                public void act() {
                    md.reset();
                }

                @Override
                public void afterSuccess() {
                    assertCorrect(md, bytes(77));
                }

                @Override
                public void afterFailure() {
                    assertCorrect(md, bytes(77));
                }
            };
        });
        return cases;
    }

    private interface Feed {
        void feed(MessageDigest md, byte[] input);
    }

    private static Setup digestUpdate(int prefixLength, int length, Feed feed) {
        return () -> {
            byte[] prefix = bytes(prefixLength);
            byte[] input = bytes(length);
            MessageDigest md = sm3();
            feedPrefix(prefix, md::update, md::update);
            return new Case() {
                @Override
                public void act() {
                    feed.feed(md, input);
                }

                @Override
                public void afterSuccess() {
                    byte[] suffix = bytes(33);
                    md.update(suffix);
                    assertArrayEquals(reference(prefix, input, suffix), md.digest());
                }

                @Override
                public void afterFailure() {
                    // The message lost input: refused, never finished with a wrong value; a digest ends it. An
                    // update of nothing does nothing at all, refused or not, from an array or a direct buffer.
                    md.update(new byte[3], 1, 0);
                    md.update(ByteBuffer.allocateDirect(8).position(8));
                    assertThrows(IllegalStateException.class, () -> md.update(new byte[3]));
                    assertThrows(IllegalStateException.class, md::digest);
                    assertCorrect(md, bytes(600));
                    md.update((byte) 1);
                    md.reset();
                    assertCorrect(md, bytes(5));
                }
            };
        };
    }

    private static Setup digestDigest(int prefixLength, boolean reused) {
        return () -> {
            byte[] prefix = bytes(prefixLength);
            MessageDigest md = sm3();
            if (reused) {
                md.update(bytes(2_000));
                md.digest();
            }
            md.update(prefix);
            return new Case() {
                byte[] result;

                @Override
                public void act() {
                    result = md.digest();
                }

                @Override
                public void afterSuccess() {
                    assertArrayEquals(reference(prefix), result);
                    assertCorrect(md, bytes(700));
                }

                @Override
                public void afterFailure() {
                    assertCorrect(md, bytes(700));
                    assertCorrect(md, bytes(7));
                }
            };
        };
    }

    /**
     * A reused digest with {@code staged} bytes staged in its context and {@code onHeap} short ones behind them; the
     * operation is its digest, or an update of {@code more} bytes that the staging buffer has no room for.
     */
    private static Setup digestStaged(int staged, int onHeap, int more) {
        return () -> {
            MessageDigest md = sm3();
            // The second message claims a context, which a reused digest keeps.
            for (int i = 0; i < 2; i++) {
                md.update(bytes(64));
                md.digest();
            }
            byte[] first = bytes(staged);
            byte[] rest = bytes(onHeap);
            byte[] input = bytes(more);
            md.update(first);
            for (byte b : rest) {
                md.update(b);
            }
            return new Case() {
                byte[] result;

                @Override
                public void act() {
                    if (more == 0) {
                        result = md.digest();
                    } else {
                        md.update(input);
                    }
                }

                @Override
                public void afterSuccess() {
                    assertArrayEquals(reference(first, rest, input), more == 0 ? result : md.digest());
                    assertCorrect(md, bytes(70));
                }

                @Override
                public void afterFailure() {
                    if (more != 0) {
                        // The message lost input: refused until a digest (which reports it) ends it.
                        assertThrows(IllegalStateException.class, md::digest);
                    }
                    assertCorrect(md, bytes(70));
                    assertCorrect(md, bytes(7));
                }
            };
        };
    }

    private static Setup digestClone(int prefixLength, boolean ofClone) {
        return () -> {
            byte[] prefix = bytes(prefixLength);
            MessageDigest first = sm3();
            // Past 1,010 bytes, what follows the first 1,000 is staged in the context they claimed.
            int inPlace = prefixLength > 1_010 ? 1_000 : prefixLength - 10;
            first.update(prefix, 0, inPlace);
            first.update(prefix, inPlace, prefixLength - 10 - inPlace);
            MessageDigest md = ofClone ? (MessageDigest) first.clone() : first;
            // Ten bytes wait on the heap behind the state.
            md.update(prefix, prefixLength - 10, 10);
            return new Case() {
                MessageDigest copy;

                @Override
                public void act() throws CloneNotSupportedException {
                    copy = (MessageDigest) md.clone();
                }

                @Override
                public void afterSuccess() {
                    byte[] other = bytes(900);
                    copy.update(other);
                    afterFailure();
                    assertArrayEquals(reference(prefix, other), copy.digest());
                }

                @Override
                public void afterFailure() {
                    byte[] suffix = bytes(1_500);
                    md.update(suffix);
                    assertArrayEquals(reference(prefix, suffix), md.digest(), "the source is unchanged");
                }
            };
        };
    }

    private static Map<String, Setup> macCases() {
        Map<String, Setup> cases = new LinkedHashMap<>();
        for (int keyLength : new int[] {16, 100}) {
            cases.put("Mac.init(" + keyLength + "-byte key)", () -> {
                byte[] key = bytes(keyLength);
                byte[] oldKey = bytes(20);
                Mac mac = hmac(oldKey);
                mac.update(bytes(1_000));
                return new Case() {
                    @Override
                    public void act() throws Exception {
                        mac.init(new SecretKeySpec(key, "HmacSM3"));
                    }

                    @Override
                    public void afterSuccess() {
                        assertMac(mac, key, bytes(40));
                    }

                    @Override
                    public void afterFailure() throws Exception {
                        // Neither key stays: the Mac refuses until a key is set.
                        assertThrows(IllegalStateException.class, () -> mac.doFinal(bytes(3)));
                        mac.init(new SecretKeySpec(key, "HmacSM3"));
                        assertMac(mac, key, bytes(40));
                    }
                };
            });
        }
        for (int prefix : new int[] {512, 1_000}) {
            for (int length : new int[] {1, 10, 70_000}) {
                cases.put("Mac.update(" + length + " bytes) after " + prefix, () -> {
                    byte[] key = bytes(32);
                    byte[] head = bytes(prefix);
                    byte[] input = bytes(length);
                    Mac mac = hmac(key);
                    feedPrefix(head, mac::update, mac::update);
                    return new Case() {
                        @Override
                        public void act() {
                            mac.update(input);
                        }

                        @Override
                        public void afterSuccess() {
                            assertArrayEquals(referenceMac(key, head, input), mac.doFinal());
                        }

                        @Override
                        public void afterFailure() {
                            assertThrows(IllegalStateException.class, () -> mac.update(new byte[3]));
                            assertThrows(IllegalStateException.class, mac::doFinal);
                            assertMac(mac, key, bytes(100));
                        }
                    };
                });
            }
        }
        for (int length : new int[] {0, 64, 1_000}) {
            for (boolean reused : new boolean[] {false, true}) {
                cases.put("Mac.doFinal() of " + length + (reused ? ", reused" : ""), () -> {
                    byte[] key = bytes(100);
                    byte[] message = bytes(length);
                    Mac mac = hmac(key);
                    if (reused) {
                        mac.doFinal(bytes(3));
                    }
                    mac.update(message);
                    return new Case() {
                        byte[] result;

                        @Override
                        public void act() {
                            result = mac.doFinal();
                        }

                        @Override
                        public void afterSuccess() {
                            assertArrayEquals(referenceMac(key, message), result);
                            assertMac(mac, key, bytes(600));
                        }

                        @Override
                        public void afterFailure() {
                            assertMac(mac, key, bytes(600));
                            assertMac(mac, key, bytes(6));
                        }
                    };
                });
            }
        }
        for (int prefix : new int[] {100, 1_010}) {
            cases.put("Mac.clone() of " + prefix, () -> {
                byte[] key = bytes(32);
                byte[] head = bytes(prefix);
                Mac mac = hmac(key);
                mac.update(head);
                return new Case() {
                    Mac copy;

                    @Override
                    public void act() throws CloneNotSupportedException {
                        copy = (Mac) mac.clone();
                    }

                    @Override
                    public void afterSuccess() {
                        byte[] other = bytes(2_000);
                        copy.update(other);
                        afterFailure();
                        assertArrayEquals(referenceMac(key, head, other), copy.doFinal());
                    }

                    @Override
                    public void afterFailure() {
                        byte[] tail = bytes(30);
                        mac.update(tail);
                        assertArrayEquals(referenceMac(key, head, tail), mac.doFinal(), "the source is unchanged");
                    }
                };
            });
        }
        cases.put("Mac.reset() of 1,000", () -> {
            byte[] key = bytes(32);
            Mac mac = hmac(key);
            mac.update(bytes(1_000));
            return new Case() {
                @Override
                public void act() {
                    mac.reset();
                }

                @Override
                public void afterSuccess() {
                    assertMac(mac, key, bytes(50));
                }

                @Override
                public void afterFailure() {
                    assertMac(mac, key, bytes(50));
                }
            };
        });
        return cases;
    }

    private static Map<String, Setup> kdfCases() {
        Map<String, Setup> cases = new LinkedHashMap<>();
        byte[] pbkdf2Salt = bytes(16);
        for (String password : List.of("password", "a password longer than one SM3 block, which is hashed first: "
                + "0123456789")) {
            cases.put("PBKDF2WithHmacSM3, 2 iterations, 40 bytes, " + password.length() + "-char password",
                    () -> kdf(() -> SecretKeyFactory.getInstance("PBKDF2WithHmacSM3", PROVIDER)
                                    .generateSecret(new PBEKeySpec(password.toCharArray(), pbkdf2Salt, 2, 320)).getEncoded(),
                            referencePbkdf2(password.getBytes(StandardCharsets.UTF_8), pbkdf2Salt, 2, 40)));
        }
        byte[] ikm = bytes(22);
        byte[] info = bytes(10);
        for (byte[] salt : List.of(bytes(13), bytes(100))) {
            cases.put("HKDF-SM3 extract then expand to 64, " + salt.length + "-byte salt",
                    () -> kdf(() -> Algorithm.hkdf().derive(Hkdf.Mode.EXTRACT_THEN_EXPAND, ikm, salt, info, 64),
                            referenceHkdf(ikm, salt, info, 64)));
        }
        byte[] prk = bytes(32);
        cases.put("HKDF-SM3 expand to 32",
                () -> kdf(() -> Algorithm.hkdf().derive(Hkdf.Mode.EXPAND, prk, new byte[0], info, 32),
                        referenceExpand(prk, info, 32)));
        byte[] z = bytes(64);
        cases.put("X9.63 KDF with SM3 to 64",
                () -> kdf(() -> Algorithm.x963Kdf().derive(z, info, 64), referenceX963(z, info, 64)));
        return cases;
    }

    private interface Derivation {
        byte[] derive() throws Exception;
    }

    private static Case kdf(Derivation derivation, byte[] expected) {
        return new Case() {
            byte[] result;

            @Override
            public void act() throws Exception {
                result = derivation.derive();
            }

            @Override
            public void afterSuccess() throws Exception {
                assertArrayEquals(expected, result);
                assertArrayEquals(expected, derivation.derive());
            }

            @Override
            public void afterFailure() throws Exception {
                assertNull(result, "no result after a failure");
                assertArrayEquals(expected, derivation.derive());
            }
        };
    }

    /**
     * Feeds a prefix of 512 bytes as 511 and one, which fills the pending array to the staging size without
     * reaching OpenSSL, so that the next update must flush it; other prefixes in one update.
     */
    private static void feedPrefix(byte[] prefix, java.util.function.Consumer<byte[]> array,
                                   java.util.function.Consumer<Byte> one) {
        if (prefix.length == PooledContext.STAGING_SIZE) {
            array.accept(Arrays.copyOf(prefix, prefix.length - 1));
            one.accept(prefix[prefix.length - 1]);
        } else {
            array.accept(prefix);
        }
    }

    private static MessageDigest sm3() {
        try {
            return MessageDigest.getInstance("SM3", PROVIDER);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static Mac hmac(byte[] key) throws Exception {
        Mac mac = Mac.getInstance("HmacSM3", PROVIDER);
        mac.init(new SecretKeySpec(key, "HmacSM3"));
        return mac;
    }

    private static void assertCorrect(MessageDigest md, byte[] message) {
        md.update(message);
        assertArrayEquals(reference(message), md.digest());
    }

    private static void assertMac(Mac mac, byte[] key, byte[] message) {
        mac.update(message);
        assertArrayEquals(referenceMac(key, message), mac.doFinal());
    }

    private static ByteBuffer direct(byte[] x) {
        ByteBuffer b = ByteBuffer.allocateDirect(x.length);
        b.put(x).flip();
        return b;
    }

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }

    private static byte[] reference(byte[]... parts) {
        return References.sm3(parts);
    }

    private static byte[] referenceMac(byte[] key, byte[]... parts) {
        return References.hmac(key, parts);
    }

    private static byte[] referencePbkdf2(byte[] password, byte[] salt, int iterations, int length) {
        return References.pbkdf2(password, salt, iterations, length);
    }

    private static byte[] referenceHkdf(byte[] ikm, byte[] salt, byte[] info, int length) {
        return References.hkdf(ikm, salt, info, length);
    }

    private static byte[] referenceExpand(byte[] prk, byte[] info, int length) {
        return References.hkdf(prk, null, info, length);
    }

    private static byte[] referenceX963(byte[] z, byte[] info, int length) {
        return References.x963(z, info, length);
    }
}
