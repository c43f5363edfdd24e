package io.github.sm3ffm.bench;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What is the least a clone-then-finish of a 1061-byte transcript can cost through FFM? The provider's SM3
 * {@code dupctx}, {@code final} and {@code freectx} ({@link ProviderSm3}), the native calls of sm3-ffm's clone
 * and {@code digest()}, alone, into native memory: the floor under
 * {@link PerMessageBenchmark#cloneThenFinish1061B}.
 */
public class BareCloneBenchmark extends TimedBenchmark {
    private Arena arena;
    private MemorySegment transcript;
    private MemorySegment out;
    private MemorySegment outl;

    @Setup(Level.Trial)
    public void setUp() throws Throwable {
        arena = Arena.ofConfined();
        MemorySegment in = arena.allocate(PerMessageBenchmark.TRANSCRIPT);
        in.copyFrom(MemorySegment.ofArray(Providers.message(PerMessageBenchmark.TRANSCRIPT)));
        out = arena.allocate(32);
        outl = arena.allocate(JAVA_LONG);
        transcript = (MemorySegment) ProviderSm3.NEWCTX.invokeExact(ProviderSm3.PROVIDER_CTX);
        int rc = (int) ProviderSm3.INIT.invokeExact(transcript, MemorySegment.NULL);
        rc &= (int) ProviderSm3.UPDATE.invokeExact(transcript, in, in.byteSize());
        if (rc != 1) {
            throw new IllegalStateException("SM3 init or update failed");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Throwable {
        ProviderSm3.FREECTX.invokeExact(transcript);
        arena.close();
    }

    /** The digest of the transcript in native memory, or NULL when a call failed. */
    @Benchmark
    public MemorySegment copyThenFinal() throws Throwable {
        MemorySegment copy = (MemorySegment) ProviderSm3.DUPCTX.invokeExact(transcript);
        int rc = (int) ProviderSm3.FINAL.invokeExact(copy, out, outl, 32L);
        ProviderSm3.FREECTX.invokeExact(copy);
        return rc == 1 ? out : MemorySegment.NULL;
    }
}
