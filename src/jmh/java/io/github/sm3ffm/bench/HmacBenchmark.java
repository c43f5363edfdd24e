package io.github.sm3ffm.bench;

import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * How fast is HMAC-SM3 with a {@code Mac} that is initialised once and reused, by message size? Runs only
 * for implementations that offer {@code Mac.HmacSM3}. Short messages are {@link CallPatternBenchmark#reusedMac}.
 */
public class HmacBenchmark extends ProviderBenchmark {
    @Param({"1024", "65536"})
    public int size;

    private Mac mac;
    private byte[] message;

    @Setup
    public void setUp() throws GeneralSecurityException {
        mac = Mac.getInstance("HmacSM3", Providers.create(provider));
        mac.init(new SecretKeySpec(Providers.message(32), "HmacSM3"));
        message = Providers.message(size);
    }

    @Benchmark
    public byte[] doFinal() {
        return mac.doFinal(message);
    }
}
