package io.github.sm3ffm.shardingsphere;

import java.nio.charset.StandardCharsets;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.util.encoders.Hex;

/**
 * The values every test checks against, from BouncyCastle. {@link #pluginSm3} is the shardingsphere-plugin
 * repository's {@code SM3MessageDigestAlgorithm.digest} as it computes it: the value's text and the salt
 * concatenated into one array, one {@code SM3Digest} per value, commons-codec's hex (which ShardingSphere
 * brings); the benchmark measures it as it is.
 */
final class BouncyCastleReference {
    private BouncyCastleReference() {
    }

    static String pluginSm3(Object plainValue, String salt) {
        if (plainValue == null) {
            return null;
        }
        byte[] input = String.valueOf(plainValue).getBytes(StandardCharsets.UTF_8);
        byte[] saltBytes = salt.isEmpty() ? new byte[0] : salt.getBytes(StandardCharsets.UTF_8);
        byte[] updateBytes = new byte[input.length + saltBytes.length];
        System.arraycopy(input, 0, updateBytes, 0, input.length);
        System.arraycopy(saltBytes, 0, updateBytes, input.length, saltBytes.length);
        SM3Digest digest = new SM3Digest();
        digest.update(updateBytes, 0, updateBytes.length);
        byte[] result = new byte[digest.getDigestSize()];
        digest.doFinal(result, 0);
        return org.apache.commons.codec.binary.Hex.encodeHexString(result);
    }

    static String hmacSm3(String key, Object plainValue) {
        if (plainValue == null) {
            return null;
        }
        byte[] message = String.valueOf(plainValue).getBytes(StandardCharsets.UTF_8);
        HMac mac = new HMac(new SM3Digest());
        mac.init(new KeyParameter(key.getBytes(StandardCharsets.UTF_8)));
        mac.update(message, 0, message.length);
        byte[] out = new byte[mac.getMacSize()];
        mac.doFinal(out, 0);
        return Hex.toHexString(out);
    }
}
