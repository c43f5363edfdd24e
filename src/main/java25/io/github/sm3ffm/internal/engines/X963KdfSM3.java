package io.github.sm3ffm.internal.engines;

import io.github.sm3ffm.X963KDFParameterSpec;
import io.github.sm3ffm.internal.libcrypto.Algorithm;
import io.github.sm3ffm.internal.libcrypto.LibCryptoUnavailableException;
import io.github.sm3ffm.internal.libcrypto.X963Kdf;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Arrays;
import javax.crypto.KDFParameters;

/**
 * {@code KDF} "X963KDF-SM3", alias "SM2KDF": the ANSI X9.63 KDF with SM3 (the SM2 KDF of GM/T 0003-2012) over
 * the library's own SM3 (the facade's {@code X963Kdf} says why not by OpenSSL's {@code EVP_KDF}
 * "X963KDF"), from an {@link X963KDFParameterSpec}. Refusals follow the JDK's HKDF:
 * another spec, or a shared secret that is not a RAW key, is an {@link InvalidAlgorithmParameterException}.
 */
final class X963KdfSM3 extends Sm3Kdf {
    private final X963Kdf kdf;

    X963KdfSM3(KDFParameters parameters) throws InvalidAlgorithmParameterException, LibCryptoUnavailableException {
        super(parameters, "X963KDF-SM3");
        kdf = Algorithm.x963Kdf();
    }

    @Override
    protected byte[] engineDeriveData(AlgorithmParameterSpec spec) throws InvalidAlgorithmParameterException {
        if (!(spec instanceof X963KDFParameterSpec x)) {
            throw new InvalidAlgorithmParameterException("an X9.63 derivation requires an X963KDFParameterSpec");
        }
        byte[] secret;
        try {
            secret = rawBytes(x.sharedSecret());
        } catch (InvalidKeyException e) {
            throw new InvalidAlgorithmParameterException("the shared secret cannot be used", e);
        }
        try {
            return kdf.derive(secret, x.sharedInfo(), x.length());
        } finally {
            Arrays.fill(secret, (byte) 0);
        }
    }
}
