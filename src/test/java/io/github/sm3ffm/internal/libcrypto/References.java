package io.github.sm3ffm.internal.libcrypto;

import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.KeyParameter;

/** SM3 and HMAC-SM3 by BouncyCastle: the answers the facade's tests check against. */
final class References {
    private References() {
    }

    static byte[] sm3(byte[]... parts) {
        SM3Digest d = new SM3Digest();
        for (byte[] p : parts) {
            d.update(p, 0, p.length);
        }
        byte[] out = new byte[32];
        d.doFinal(out, 0);
        return out;
    }

    static byte[] hmac(byte[] key, byte[]... parts) {
        HMac m = new HMac(new SM3Digest());
        m.init(new KeyParameter(key));
        for (byte[] p : parts) {
            m.update(p, 0, p.length);
        }
        byte[] out = new byte[32];
        m.doFinal(out, 0);
        return out;
    }
}
