package io.github.sm3ffm.bench;

import org.openjdk.jmh.annotations.Param;

/**
 * What every comparison shares: the implementation under test as the {@code provider} parameter, so one run
 * measures them all side by side.
 */
public abstract class ProviderBenchmark extends TimedBenchmark {
    @Param({Providers.SM3FFM, Providers.BC, Providers.KONA, Providers.KONA_NATIVE})
    public String provider;
}
