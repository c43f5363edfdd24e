package io.github.sm3ffm.internal.libcrypto;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.github.sm3ffm.bench.PerMessageBenchmark;
import io.github.sm3ffm.bench.Providers;
import io.github.sm3ffm.bench.TimedBenchmark;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What is the least a short digest, or a clone-then-finish, can cost through FFM? sm3-ffm's own downcall handles to
 * the provider's SM3 functions ({@link ProviderBackend.Functions}), alone, from and into native memory, with no JCA
 * and no copies: the floors under {@link io.github.sm3ffm.bench.CallPatternBenchmark#reusedDigest} and
 * {@link PerMessageBenchmark#cloneThenFinish1061B}.
 */
public class BareCallsBenchmark extends TimedBenchmark {
    /** A provider SM3 context that has hashed a message held in native memory, and room for a digest. */
    @State(Scope.Thread)
    public abstract static class Context {
        final Arena arena = Arena.ofConfined();
        final MemorySegment out = arena.allocate(32);
        final MemorySegment outl = arena.allocate(JAVA_LONG);
        MemorySegment ctx;
        MemorySegment message;
        /** A second context, where a benchmark needs one. */
        MemorySegment into;

        void start(int size) throws Throwable {
            if (!BackendChoice.offer().direct()) {
                throw new IllegalStateException("sm3-ffm does not call this libcrypto's SM3 provider directly");
            }
            ctx = BackendChoice.selected().newContext();
            message = arena.allocate(size).copyFrom(MemorySegment.ofArray(Providers.message(size)));
            int rc = (int) ProviderBackend.Functions.INIT.invokeExact(ctx, MemorySegment.NULL);
            if (rc != 1 || (int) ProviderBackend.Functions.UPDATE.invokeExact(ctx, message, (long) size) != 1) {
                throw new IllegalStateException("SM3 init or update failed");
            }
        }

        @TearDown
        public void tearDown() throws Throwable {
            ProviderBackend.Functions.FREECTX.invokeExact(ctx);
            if (into != null) {
                ProviderBackend.Functions.FREECTX.invokeExact(into);
            }
            arena.close();
        }
    }

    /** A short message, hashed again and again on one context. */
    public static class Message extends Context {
        @Param({"16", "64"})
        public int size;

        @Setup
        public void setUp() throws Throwable {
            start(size);
        }
    }

    /** A TLCP handshake's transcript, cloned and finished again and again, and a context to clone it into. */
    public static class Transcript extends Context {
        @Setup
        public void setUp() throws Throwable {
            start(PerMessageBenchmark.TRANSCRIPT);
            into = BackendChoice.selected().newContext();
        }
    }

    /** init, update and final: the digest in native memory, or NULL when a call failed. */
    @Benchmark
    public MemorySegment threeCalls(Message m) throws Throwable {
        int rc = (int) ProviderBackend.Functions.INIT.invokeExact(m.ctx, MemorySegment.NULL);
        rc &= (int) ProviderBackend.Functions.UPDATE.invokeExact(m.ctx, m.message, m.message.byteSize());
        rc &= (int) ProviderBackend.Functions.FINAL.invokeExact(m.ctx, m.out, m.outl, 32L);
        return rc == 1 ? m.out : MemorySegment.NULL;
    }

    /**
     * A clone's and its digest()'s calls where a pooled context takes the copy: the copy into it as the backend
     * makes it (the state's bytes on OpenSSL 3.0 to 3.4, copyctx from 3.5; dupctx and freectx with
     * {@code -Dsm3ffm.sm3.stateCopy=false} before 3.5), and final.
     */
    @Benchmark
    public MemorySegment copyIntoThenFinal(Transcript t) throws Throwable {
        t.into = BackendChoice.selected().copy(t.ctx, t.into);
        int rc = (int) ProviderBackend.Functions.FINAL.invokeExact(t.into, t.out, t.outl, 32L);
        return rc == 1 ? t.out : MemorySegment.NULL;
    }
}
