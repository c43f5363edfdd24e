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
 * sizes is the floor: the three downcalls alone; {@link JcaFloorBenchmark} is what the JDK charges for a
 * new {@code MessageDigest} on top of reusing one.
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
        jcaProvider = implementation();
        message = Providers.message(size);
        md = MessageDigest.getInstance("SM3", jcaProvider);
        key = new SecretKeySpec(Providers.message(32), "HmacSM3");
        if (Providers.offers(jcaProvider, Providers.HMAC)) {
            mac = Mac.getInstance("HmacSM3", jcaProvider);
            mac.init(key);
        }
    }

    @Benchmark
    public byte[] reusedDigest() {
        return md.digest(message);
    }

    // Kona's JNI contexts wait for the GC, and each of its pauses here takes 150-270 ms: its fork means at 64 B
    // ran 1079-4578 ns in 4 x 200 ms (8 forks) and 1817-3842 ns in 4 x 600 ms (15 forks), as one to four pauses
    // fell in a fork. Longer forks keep that per-fork rhythm (2108-2704 ns in 4 x 2 s), so at 64 B six forks a
    // round average it.
    @Benchmark
    @Settle(forks = 6, longer = 3, sizes = "64")
    @Settle(longer = 3)
    public byte[] newDigest() throws GeneralSecurityException {
        return MessageDigest.getInstance("SM3", jcaProvider).digest(message);
    }

    // Kona's JNI forks at 64 B averaged 798-863 ns in every round of one run and 927-1094 ns in four rounds of the
    // next, with no GC; three forks a round dilute such a round.
    @Benchmark
    @Settle(forks = 3, sizes = "64")
    public byte[] reusedMac() {
        return mac.doFinal(message);
    }

    @Benchmark
    @Settle(longer = 3)
    public byte[] newMac() throws GeneralSecurityException {
        Mac m = Mac.getInstance("HmacSM3", jcaProvider);
        m.init(key);
        return m.doFinal(message);
    }
}
