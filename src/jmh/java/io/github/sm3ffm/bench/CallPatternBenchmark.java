package io.github.sm3ffm.bench;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.Provider;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * What does a short message cost in the ways services call the JCA? A reused {@code MessageDigest} or
 * {@code Mac} beside a new one per message (from {@code getInstance}, for the {@code Mac} also
 * {@code init}), at the sizes of IDs, tokens and signature inputs. {@link BareCallsBenchmark} at the same
 * sizes is the floor: the three downcalls alone; the digests with {@code -p provider=NoHash}
 * ({@link Providers#NO_HASH}) are what the JDK charges, for a new {@code MessageDigest} on top of reusing one.
 */
public class CallPatternBenchmark extends ProviderBenchmark {
    @Param({"16", "64"})
    public int size;

    private Provider jcaProvider;
    private byte[] message;
    private MessageDigest md;
    private Mac mac;
    private SecretKeySpec key;

    @Setup
    public void setUp() throws GeneralSecurityException {
        jcaProvider = Providers.create(provider);
        message = Providers.message(size);
        md = MessageDigest.getInstance("SM3", jcaProvider);
        key = new SecretKeySpec(Providers.message(32), "HmacSM3");
        if (jcaProvider.getService("Mac", "HmacSM3") != null) {
            mac = Mac.getInstance("HmacSM3", jcaProvider);
            mac.init(key);
        }
    }

    @Benchmark
    public byte[] reusedDigest() {
        return md.digest(message);
    }

    @Benchmark
    public byte[] newDigest() throws GeneralSecurityException {
        return MessageDigest.getInstance("SM3", jcaProvider).digest(message);
    }

    @Benchmark
    public byte[] reusedMac() {
        return mac.doFinal(message);
    }

    @Benchmark
    public byte[] newMac() throws GeneralSecurityException {
        Mac m = Mac.getInstance("HmacSM3", jcaProvider);
        m.init(key);
        return m.doFinal(message);
    }
}
