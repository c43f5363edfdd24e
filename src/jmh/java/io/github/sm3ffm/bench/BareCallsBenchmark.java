package io.github.sm3ffm.bench;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What is the least a whole short digest can cost through FFM? The provider's SM3 {@code init},
 * {@code update} and {@code final} ({@link ProviderSm3}) on one reused context, from and into native memory,
 * with no JCA and no copies: the floor under {@link CallPatternBenchmark#reusedDigest} at the same size.
 */
public class BareCallsBenchmark extends TimedBenchmark {
    @Param({"16", "64"})
    public int size;

    private Arena arena;
    private MemorySegment ctx;
    private MemorySegment message;
    private MemorySegment out;
    private MemorySegment outl;

    @Setup(Level.Trial)
    public void setUp() throws Throwable {
        ctx = (MemorySegment) ProviderSm3.NEWCTX.invokeExact(ProviderSm3.PROVIDER_CTX);
        arena = Arena.ofConfined();
        message = arena.allocate(size);
        message.copyFrom(MemorySegment.ofArray(Providers.message(size)));
        out = arena.allocate(32);
        outl = arena.allocate(JAVA_LONG);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Throwable {
        ProviderSm3.FREECTX.invokeExact(ctx);
        arena.close();
    }

    /** The sum of the three return codes (3 when all succeed); the digest is in {@code out}. */
    @Benchmark
    public int threeCalls() throws Throwable {
        int rc = (int) ProviderSm3.INIT.invokeExact(ctx, MemorySegment.NULL);
        rc += (int) ProviderSm3.UPDATE.invokeExact(ctx, message, (long) size);
        rc += (int) ProviderSm3.FINAL.invokeExact(ctx, out, outl, 32L);
        return rc;
    }

    MemorySegment out() {
        return out;
    }
}
