package io.github.sm3ffm.internal.engines;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;

import io.github.sm3ffm.internal.libcrypto.Algorithm;
import io.github.sm3ffm.internal.libcrypto.LibCryptoUnavailableException;
import io.github.sm3ffm.internal.libcrypto.Hkdf;
import io.github.sm3ffm.internal.libcrypto.Hkdf.Mode;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Arrays;
import java.util.List;
import javax.crypto.KDFParameters;
import javax.crypto.SecretKey;
import javax.crypto.spec.HKDFParameterSpec;

/**
 * {@code KDF} "HKDF-SM3": HKDF (RFC 5869) over the library's own HMAC-SM3 (the facade's {@code Hkdf}
 * says why not by OpenSSL's {@code EVP_KDF} "HKDF"). It takes
 * {@link HKDFParameterSpec} exactly as the JDK's {@code HKDF-SHA256} does, with the same refusals: an
 * output above 255 &times; 32 bytes, a PRK shorter than 32 bytes, key material that is not RAW. Several IKMs
 * or salts are used one after another; no salt means 32 zero bytes, no info an empty one.
 */
final class HkdfSM3 extends Sm3Kdf {
    private static final int MAX_LENGTH = 255 * DIGEST_LENGTH;

    private final Hkdf kdf;

    HkdfSM3(KDFParameters parameters) throws InvalidAlgorithmParameterException, LibCryptoUnavailableException {
        super(parameters, "HmacSM3");
        kdf = Algorithm.hkdf();
    }

    @Override
    protected byte[] engineDeriveData(AlgorithmParameterSpec spec) throws InvalidAlgorithmParameterException {
        if (spec instanceof HKDFParameterSpec.Extract e) {
            return extract(Mode.EXTRACT, e.ikms(), e.salts(), null, DIGEST_LENGTH, "Extract");
        }
        if (spec instanceof HKDFParameterSpec.ExtractThenExpand t) {
            return extract(Mode.EXTRACT_THEN_EXPAND, t.ikms(), t.salts(), t.info(), checked(t.length()),
                    "ExtractThenExpand");
        }
        if (spec instanceof HKDFParameterSpec.Expand x) {
            int length = checked(x.length());
            byte[] prk = x.prk().getEncoded();
            if (prk == null) {
                throw new InvalidAlgorithmParameterException("Cannot retrieve PRK for HKDFParameterSpec.Expand");
            }
            try {
                if (prk.length < DIGEST_LENGTH) {
                    throw new InvalidAlgorithmParameterException(
                            "an HKDF Expand could not be initialized with the given keying material",
                            new InvalidKeyException("prk must be at least " + DIGEST_LENGTH + " bytes"));
                }
                return kdf.derive(Mode.EXPAND, prk, new byte[0], info(x.info()), length);
            } finally {
                Arrays.fill(prk, (byte) 0);
            }
        }
        throw new InvalidAlgorithmParameterException("an HKDF derivation requires a valid HKDFParameterSpec");
    }

    private byte[] extract(Mode mode, List<SecretKey> ikms, List<SecretKey> salts, byte[] info, int length,
                           String what) throws InvalidAlgorithmParameterException {
        byte[] ikm = null;
        byte[] salt = null;
        try {
            ikm = rawBytes(ikms);
            salt = rawBytes(salts);
            return kdf.derive(mode, ikm, salt, info(info), length);
        } catch (InvalidKeyException e) {
            throw new InvalidAlgorithmParameterException(
                    "an HKDF " + what + " could not be initialized with the given key or salt material", e);
        } finally {
            if (ikm != null) {
                Arrays.fill(ikm, (byte) 0);
            }
            if (salt != null) {
                Arrays.fill(salt, (byte) 0);
            }
        }
    }

    private static int checked(int length) throws InvalidAlgorithmParameterException {
        if (length > MAX_LENGTH) {
            throw new InvalidAlgorithmParameterException("Requested length exceeds maximum allowed length");
        }
        return length;
    }

    private static byte[] info(byte[] info) {
        return info == null ? new byte[0] : info;
    }
}
