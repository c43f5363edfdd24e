package io.github.sm3ffm.internal.libcrypto;

import java.lang.foreign.MemorySegment;

/**
 * Failure injection for tests: makes the Nth native call that can fail (an allocation returning NULL, an SM3
 * call returning 0) fail as OpenSSL reports it, without calling OpenSSL, so that every failure path of the
 * facade can be run. Calls that cannot fail (frees, {@code copyctx}) are not counted.
 *
 * <p>{@link #ON} is a constant: where it is false, as in every production JVM, the JIT drops the check at each
 * call site and the calls compile as if this class did not exist. It is true only when the system property
 * {@value #PROPERTY} is {@code true} and the class {@value #TEST_ONLY_CLASS} can be loaded, which only the
 * library's own test classes provide: no jar carries it, so no setting turns injection on in production.
 */
final class NativeFaults {
    static final String PROPERTY = "sm3ffm.test.nativeFaults";
    static final String TEST_ONLY_CLASS = "io.github.sm3ffm.internal.libcrypto.NativeFailureTest";

    static final boolean ON = armed();

    /** Failable calls seen since {@link #failAt} was last set; only ever touched when {@link #ON}. */
    private static long calls;
    private static long failAt;
    private static boolean injected;
    private static MemorySegment failedOn = MemorySegment.NULL;
    private static boolean failedFreed;

    private NativeFaults() {
    }

    private static boolean armed() {
        if (!Boolean.getBoolean(PROPERTY)) {
            return false;
        }
        try {
            Class.forName(TEST_ONLY_CLASS, false, NativeFaults.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /**
     * Whether the call about to be made on {@code ctx} (NULL for an allocation) is the one to fail; counts it.
     * Callers check {@link #ON} first.
     */
    static synchronized boolean fail(MemorySegment ctx) {
        if (++calls != failAt) {
            return false;
        }
        injected = true;
        failedOn = ctx;
        return true;
    }

    /** Fails the {@code n}th failable call from now on (1 is the next one); 0 fails none. Starts a new count. */
    static synchronized void failAt(long n) {
        if (!ON) {
            throw new IllegalStateException("failure injection is off: -D" + PROPERTY + "=true and the test classes");
        }
        calls = 0;
        failAt = n;
        injected = false;
        failedOn = MemorySegment.NULL;
        failedFreed = false;
    }

    /** Notes that {@code ctx} is being freed. Callers check {@link #ON} first. */
    static synchronized void freeing(MemorySegment ctx) {
        if (injected && !failedOn.equals(MemorySegment.NULL) && ctx.address() == failedOn.address()) {
            failedFreed = true;
        }
    }

    /** Whether the context the failed call was made on has been freed since. */
    static synchronized boolean failedFreed() {
        return failedFreed;
    }

    /** Failable calls counted since the last {@link #failAt}. */
    static synchronized long calls() {
        return calls;
    }

    /** Whether the call chosen by {@link #failAt} was reached and failed. */
    static synchronized boolean injected() {
        return injected;
    }

    /** The context whose state the failed call left unknown; NULL for an allocation or when none failed. */
    static synchronized MemorySegment failedOn() {
        return failedOn;
    }
}
