package io.github.sm3ffm.kafka;

import org.bouncycastle.crypto.Digest;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.KeyParameter;

/** The reference every value is checked against: BouncyCastle's SM3 and HMAC over it. */
final class BouncyCastleSM3 {
    private BouncyCastleSM3() {
    }

    static byte[] sm3(byte[] message) {
        return sm3(new SM3Digest(), message, 0, message.length);
    }

    /** With a digest the caller keeps across records, as a transform would. */
    static byte[] sm3(Digest digest, byte[] message, int offset, int length) {
        digest.update(message, offset, length);
        byte[] out = new byte[digest.getDigestSize()];
        digest.doFinal(out, 0);
        return out;
    }

    static byte[] hmacSm3(byte[] key, byte[] message) {
        HMac mac = new HMac(new SM3Digest());
        mac.init(new KeyParameter(key));
        mac.update(message, 0, message.length);
        byte[] out = new byte[mac.getMacSize()];
        mac.doFinal(out, 0);
        return out;
    }
}
