package io.github.sm3ffm.internal.libcrypto;

import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.crypto.generators.HKDFBytesGenerator;
import org.bouncycastle.crypto.generators.KDF2BytesGenerator;
import org.bouncycastle.crypto.generators.PKCS5S2ParametersGenerator;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.HKDFParameters;
import org.bouncycastle.crypto.params.KDFParameters;
import org.bouncycastle.crypto.params.KeyParameter;

/** SM3, HMAC-SM3, PBKDF2, HKDF and the X9.63 KDF by BouncyCastle: the answers the facade's tests check against. */
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

    static byte[] pbkdf2(byte[] password, byte[] salt, int iterations, int length) {
        PKCS5S2ParametersGenerator g = new PKCS5S2ParametersGenerator(new SM3Digest());
        g.init(password, salt, iterations);
        return ((KeyParameter) g.generateDerivedParameters(length * 8)).getKey();
    }

    /** Extract then expand, or expand alone ({@code salt} null: {@code ikm} is the PRK). */
    static byte[] hkdf(byte[] ikm, byte[] salt, byte[] info, int length) {
        HKDFBytesGenerator g = new HKDFBytesGenerator(new SM3Digest());
        g.init(salt == null ? HKDFParameters.skipExtractParameters(ikm, info) : new HKDFParameters(ikm, salt, info));
        byte[] out = new byte[length];
        g.generateBytes(out, 0, length);
        return out;
    }

    static byte[] x963(byte[] z, byte[] info, int length) {
        KDF2BytesGenerator g = new KDF2BytesGenerator(new SM3Digest());
        g.init(new KDFParameters(z, info));
        byte[] out = new byte[length];
        g.generateBytes(out, 0, length);
        return out;
    }
}
