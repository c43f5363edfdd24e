package io.github.sm3ffm.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.infra.Blackhole;

/**
 * How much does the harness itself allocate? JMH's {@code gc} profiler counts every thread's allocation,
 * its own bookkeeping included: a roughly fixed number of bytes per iteration that adds hundreds of bytes
 * per operation to operations as long as hashing 1 MiB. This benchmark allocates nothing and takes about as
 * long as those, so its {@code gc.alloc.rate.norm} is that share alone; the report subtracts it, scaled by
 * time per operation, from every other allocation figure.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class BaselineBenchmark {
    static final long TOKENS = 1_000_000;

    @Benchmark
    public void spin() {
        Blackhole.consumeCPU(TOKENS);
    }
}
