package io.github.sm3ffm.trino;

import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.KeyParameter;

/** The reference every value is checked against: BouncyCastle's SM3 and HMAC-SM3. */
final class BouncyCastleSM3 {
    private BouncyCastleSM3() {
    }

    static byte[] sm3(byte[] value) {
        SM3Digest d = new SM3Digest();
        d.update(value, 0, value.length);
        byte[] out = new byte[32];
        d.doFinal(out, 0);
        return out;
    }

    static byte[] hmac(byte[] key, byte[] value) {
        HMac m = new HMac(new SM3Digest());
        m.init(new KeyParameter(key));
        m.update(value, 0, value.length);
        byte[] out = new byte[32];
        m.doFinal(out, 0);
        return out;
    }
}
