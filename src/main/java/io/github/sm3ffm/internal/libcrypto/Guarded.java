package io.github.sm3ffm.internal.libcrypto;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Reference;
import java.util.concurrent.locks.LockSupport;

/**
 * A stream's guard: every native call and every change of its context runs between {@link #enter} and
 * {@link #exit}. A field of the stream itself, so that taking it touches no other object.
 */
public abstract sealed class Guarded permits HeapBytes {
    private static final VarHandle BUSY;

    static {
        try {
            BUSY = MethodHandles.lookup().findVarHandle(Guarded.class, "busy", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** 1 while a thread holds the guard. */
    @SuppressWarnings("unused")
    private int busy;

    Guarded() {
    }

    /**
     * Takes this stream's guard: every native call and every change of context runs under it. A CAS and a
     * releasing store, cheaper than a monitor on a short digest. Only threads that race on one engine, which the
     * JCA does not allow, ever wait here.
     */
    final void enter() {
        if (!BUSY.compareAndSet(this, 0, 1)) {
            for (int spins = 0; !BUSY.compareAndSet(this, 0, 1); spins++) {
                if (spins < 64) {
                    Thread.onSpinWait();
                } else {
                    // The holder may be hashing a long input: wait without burning a CPU.
                    LockSupport.parkNanos(50_000);
                }
            }
        }
    }

    final void exit() {
        BUSY.setRelease(this, 0);
        Reference.reachabilityFence(this);
    }
}
