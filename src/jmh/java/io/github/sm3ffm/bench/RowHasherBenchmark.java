package io.github.sm3ffm.bench;

import io.github.sm3ffm.RowHasher;
import io.github.sm3ffm.SM3Provider;
import java.security.DigestException;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * What does {@link RowHasher}'s one call per row cost against the fastest use of the JCA, a {@code MessageDigest}
 * or {@code Mac} that one thread keeps and reuses (what the SQL functions did before)? Both write into the same
 * output array, at the sizes of IDs, typical rows and large values; the {@code Mac}'s key is the same on every
 * row, as a pseudonymisation key is, so the row hasher finds it cached. The difference is the price of keeping
 * nothing per thread: a pool's take and give-back per row, and for HMAC the key's lookup.
 */
public class RowHasherBenchmark extends TimedBenchmark {
    @Param({"16", "64", "4096"})
    public int size;

    private final RowHasher rows = RowHasher.of();
    private final byte[] out = new byte[RowHasher.DIGEST_LENGTH];
    private byte[] message;
    private byte[] key;
    private MessageDigest md;
    private Mac mac;

    @Setup
    public void setUp() throws GeneralSecurityException {
        message = Providers.message(size);
        key = Providers.message(32);
        SM3Provider provider = new SM3Provider();
        md = MessageDigest.getInstance("SM3", provider);
        mac = Mac.getInstance("HmacSM3", provider);
        mac.init(new SecretKeySpec(key, "HmacSM3"));
    }

    @Benchmark
    public byte[] reusedDigest() throws DigestException {
        md.update(message, 0, message.length);
        md.digest(out, 0, out.length);
        return out;
    }

    @Benchmark
    public byte[] rowHasherSm3() {
        rows.sm3(message, 0, message.length, out, 0);
        return out;
    }

    @Benchmark
    public byte[] reusedMac() throws ShortBufferException {
        mac.update(message, 0, message.length);
        mac.doFinal(out, 0);
        return out;
    }

    @Benchmark
    public byte[] rowHasherHmacSm3() {
        rows.hmacSm3(key, 0, key.length, message, 0, message.length, out, 0);
        return out;
    }
}
