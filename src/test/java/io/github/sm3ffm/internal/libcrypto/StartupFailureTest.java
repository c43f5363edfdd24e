package io.github.sm3ffm.internal.libcrypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.SM3Provider;
import io.github.sm3ffm.internal.openssl.OpenSSL;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.ProviderException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.junit.jupiter.api.Test;

/**
 * Every call made before a backend exists, failed in turn: the loader's result, the lookup of the provider's
 * functions, their linking, and each call of the "abc" check, the layout proof and the copy check. A check that
 * could not run is no verdict: the choice throws, keeps nothing and frees every context it made, and the next
 * choice lands where an undisturbed one does. Then the same through a user's first use, which the gate fails as
 * "could not run" without keeping it, until a use that runs to its end keeps the backend an undisturbed JVM keeps.
 * Runs in JVMs of its own (the build's startup-failures executions, with the provider's functions and through EVP),
 * before anything has chosen a backend.
 */
class StartupFailureTest {
    static {
        Faults.install();
    }

    private static final boolean DIRECT = !"false".equalsIgnoreCase(System.getProperty(DirectSm3.PROPERTY));

    @Test
    void everyCallBeforeTheBackendFailsInTurnAndTheNextChoiceIsUndisturbed() throws Throwable {
        assertFalse(BackendChoice.made(), "runs before anything in its JVM has chosen a backend");
        Startup steps = BackendChoice.steps();
        Set<Long> before = Faults.liveNative();
        DirectSm3.Offer[] undisturbed = new DirectSm3.Offer[1];
        int points = Faults.count(() -> undisturbed[0] = offerThrough(steps));
        Set<String> failed = new TreeSet<>();
        for (int n = 1; n <= points; n++) {
            String call;
            try (Faults.Armed armed = Faults.failNth(n)) {
                ProviderException e = assertThrows(ProviderException.class, () -> BackendChoice.offer(steps));
                assertTrue(armed.injected(), "call " + n);
                call = armed.failedCall();
                assertEquals(call + " failed: injected failure", e.getMessage());
            }
            failed.add(call);
            assertEquals(before, Faults.liveNative(), "call " + n + " (" + call + "): every context made was freed");
            assertSame(undisturbed[0], offerThrough(steps), "the choice after call " + n + " (" + call + ") failed");
        }
        assertFalse(BackendChoice.made(), "trying the steps keeps nothing");
        // dupctx is called by the layout proof and the copy check, which run only where states are copied as bytes.
        Set<String> expected = new TreeSet<>(DIRECT ? Set.of("load", "find", "link", "provider newctx",
                "provider init", "provider update", "provider final") : Set.of("load", "find"));
        if (expectedBackend() == ProviderBackend.StateBytes.class) {
            expected.add("provider dupctx");
        }
        assertEquals(expected, failed, points + " failure points");
        System.out.println("Before the backend (" + BackendChoice.backendFor(undisturbed[0]).description() + "): "
                + points + " failure points, calls " + failed);

        aFirstUseThatCouldNotChooseIsNotKept(points);
        byte[] abc = "abc".getBytes(StandardCharsets.US_ASCII);
        assertArrayEquals(bouncyCastle(abc), MessageDigest.getInstance("SM3", new SM3Provider()).digest(abc));
        assertTrue(BackendChoice.made());
        assertSame(undisturbed[0], BackendChoice.offer(), "the kept choice");
        assertEquals(expectedBackend(), Faults.chosen().getClass(), Faults.chosen().description());
        assertEquals(BackendChoice.backendFor(undisturbed[0]).description(), Faults.chosen().description());
    }

    /** Each point failed in a user's first use: unavailable for that use only, nothing chosen or kept. */
    private static void aFirstUseThatCouldNotChooseIsNotKept(int points) {
        for (int n = 1; n <= points; n++) {
            try (Faults.Armed armed = Faults.failNth(n)) {
                Optional<LibCryptoUnavailableException> first = Algorithm.SM3.unavailability();
                assertTrue(armed.injected(), "call " + n);
                assertEquals("SM3 known-answer self-test could not run: java.security.ProviderException: "
                        + armed.failedCall() + " failed: injected failure", first.orElseThrow().getMessage());
            }
            assertFalse(BackendChoice.made(), "call " + n + ": a choice that could not run is not kept");
            assertFalse(Algorithm.SM3.decided(), "call " + n + ": nor is the gate's outcome");
        }
    }

    private static DirectSm3.Offer offerThrough(Startup steps) {
        try {
            return BackendChoice.offer(steps);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    private static void assertSame(DirectSm3.Offer expected, DirectSm3.Offer actual, String what) {
        assertEquals(List.of(String.valueOf(expected.reason()), String.valueOf(expected.provider()),
                        String.valueOf(expected.copies()), String.valueOf(expected.linked() != null)),
                List.of(String.valueOf(actual.reason()), String.valueOf(actual.provider()),
                        String.valueOf(actual.copies()), String.valueOf(actual.linked() != null)), what);
    }

    /** From the switch and the release alone, as an undisturbed JVM chooses. */
    private static Class<?> expectedBackend() {
        if (!DIRECT) {
            return EvpBackend.class;
        }
        long version = OpenSSL.OpenSSL_version_num();
        return version >= 0x3050_0000L ? ProviderBackend.Copyctx.class
                : DirectSm3.hasSm3Ctx(version) ? ProviderBackend.StateBytes.class : ProviderBackend.Dupctx.class;
    }

    private static byte[] bouncyCastle(byte[] message) {
        SM3Digest d = new SM3Digest();
        d.update(message, 0, message.length);
        byte[] out = new byte[d.getDigestSize()];
        d.doFinal(out, 0);
        return out;
    }
}
