package io.github.sm3ffm.migrating;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.sm3ffm.SM3Provider;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Random;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.KeyParameter;

/** The recipes' inputs, and their expected results from BouncyCastle's lightweight SM3, outside the JCA. */
final class Expected {
    static final byte[] KEY = "a key for HmacSM3".getBytes(StandardCharsets.US_ASCII);

    private Expected() {
    }

    static byte[] random(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    static byte[] sm3(byte[] data) {
        SM3Digest bc = new SM3Digest();
        bc.update(data, 0, data.length);
        return doFinal(bc);
    }

    static byte[] hmacSm3(byte[] key, byte[] data) {
        HMac hmac = new HMac(new SM3Digest());
        hmac.init(new KeyParameter(key));
        hmac.update(data, 0, data.length);
        byte[] tag = new byte[hmac.getMacSize()];
        hmac.doFinal(tag, 0);
        return tag;
    }

    /** A provider-less SM3 and HmacSM3, as a migrated service asks: SM3FFM serves both, with BouncyCastle's results. */
    static void servedBySm3ffm(byte[] data) throws GeneralSecurityException {
        MessageDigest digest = MessageDigest.getInstance("SM3");
        Mac mac = Mac.getInstance("HmacSM3");
        mac.init(new SecretKeySpec(KEY, "HmacSM3"));
        assertEquals(SM3Provider.NAME, digest.getProvider().getName());
        assertEquals(SM3Provider.NAME, mac.getProvider().getName());
        assertArrayEquals(sm3(data), digest.digest(data));
        assertArrayEquals(hmacSm3(KEY, data), mac.doFinal(data));
    }

    static byte[] doFinal(SM3Digest bc) {
        byte[] out = new byte[bc.getDigestSize()];
        bc.doFinal(out, 0);
        return out;
    }
}
