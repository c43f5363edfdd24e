package io.github.sm3ffm.bench;

import cn.hutool.crypto.GlobalBouncyCastleProvider;
import cn.hutool.crypto.SmUtil;
import cn.hutool.crypto.digest.SM3;
import io.github.sm3ffm.SM3Provider;
import java.security.Security;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What does a Hutool user gain from SM3FFM? Hutool's own SM3 calls, unchanged: {@code SmUtil.sm3().digest(m)}
 * (a new digester per message, as Hutool's examples write it) and one digester reused. {@code sm3=BC} is
 * Hutool's default (it pins BouncyCastle's provider); {@code sm3=SM3FFM} registers SM3FFM first and turns
 * Hutool's switch off, the two lines of docs/hutool.md.
 */
public class HutoolBenchmark extends TimedBenchmark {
    @Param({Providers.SM3FFM, Providers.BC})
    public String sm3;

    @Param({"64", "1048576"})
    public int size;

    private byte[] message;
    private SM3 digester;

    @Setup
    public void setUp() {
        if (sm3.equals(Providers.SM3FFM)) {
            Security.insertProviderAt(new SM3Provider(), 1);
            GlobalBouncyCastleProvider.setUseBouncyCastle(false);
        }
        digester = SmUtil.sm3();
        String chosen = digester.getDigest().getProvider().getName();
        if (!chosen.equals(sm3)) {
            throw new IllegalStateException("Hutool's SM3 comes from " + chosen + ", not " + sm3);
        }
        message = Providers.message(size);
    }

    @TearDown
    public void tearDown() {
        GlobalBouncyCastleProvider.setUseBouncyCastle(true);
        Security.removeProvider(SM3Provider.NAME);
    }

    @Benchmark
    public byte[] newDigester() {
        return SmUtil.sm3().digest(message);
    }

    @Benchmark
    public byte[] reusedDigester() {
        return digester.digest(message);
    }
}
