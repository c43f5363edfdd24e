package io.github.sm3ffm.bench;

import java.security.Provider;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * What every comparison shares: average time per operation in nanoseconds, a fork with native access
 * (sm3-ffm and Kona's JNI path both need it on the class path), and the implementation under test as the
 * {@code provider} parameter, so one run measures them all side by side.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public abstract class ProviderBenchmark {
    @Param({Providers.SM3FFM, Providers.BC, Providers.KONA, Providers.KONA_NATIVE})
    public String provider;

    /** A new instance of the implementation under test (see {@link Providers#create}). */
    Provider implementation() {
        return Providers.create(provider);
    }
}
