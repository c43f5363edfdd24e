package io.github.sm3ffm.spark;

import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.util.encoders.Hex;

/** The reference every value is checked against: BouncyCastle's SM3 and HMAC over it, as hex. */
final class BouncyCastleSM3 {
    private BouncyCastleSM3() {
    }

    static String sm3(byte[] message) {
        SM3Digest digest = new SM3Digest();
        digest.update(message, 0, message.length);
        byte[] out = new byte[digest.getDigestSize()];
        digest.doFinal(out, 0);
        return Hex.toHexString(out);
    }

    static String hmacSm3(byte[] key, byte[] message) {
        HMac mac = new HMac(new SM3Digest());
        mac.init(new KeyParameter(key));
        mac.update(message, 0, message.length);
        byte[] out = new byte[mac.getMacSize()];
        mac.doFinal(out, 0);
        return Hex.toHexString(out);
    }
}
