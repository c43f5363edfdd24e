package io.github.sm3ffm.internal;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.KeySpec;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;
import javax.crypto.SecretKey;
import javax.crypto.SecretKeyFactorySpi;
import javax.crypto.interfaces.PBEKey;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * {@code SecretKeyFactory} "PBKDF2WithHmacSM3": PBKDF2 (RFC 8018) with HMAC-SM3 as its PRF, all
 * iterations in one call to OpenSSL's {@code EVP_KDF} "PBKDF2" (see {@link NativePbkdf2}). What it
 * accepts and refuses, and with which exception, follows the JDK's {@code PBKDF2WithHmacSHA256}
 * ({@code com.sun.crypto.provider.PBKDF2Core}) call for call.
 */
public final class PBKDF2HmacSM3 extends SecretKeyFactorySpi {
    private final MemorySegment kdf;

    public PBKDF2HmacSM3() throws LibCryptoUnavailableException {
        this.kdf = LibCrypto.pbkdf2();
    }

    @Override
    protected SecretKey engineGenerateSecret(KeySpec keySpec) throws InvalidKeySpecException {
        if (keySpec instanceof PBEKeySpec spec) {
            return PBKDF2HmacSM3Key.derive(kdf, spec);
        }
        throw new InvalidKeySpecException("Only PBEKeySpec is accepted");
    }

    @Override
    protected KeySpec engineGetKeySpec(SecretKey key, Class<?> keySpec) throws InvalidKeySpecException {
        if (!(key instanceof PBEKey pbeKey)) {
            throw new InvalidKeySpecException("Only PBEKey is accepted");
        }
        if (keySpec == null || !keySpec.isAssignableFrom(PBEKeySpec.class)) {
            throw new InvalidKeySpecException("Only PBEKeySpec is accepted");
        }
        char[] password = pbeKey.getPassword();
        byte[] encoded = pbeKey.getEncoded();
        try {
            return new PBEKeySpec(password, pbeKey.getSalt(), pbeKey.getIterationCount(), encoded.length * 8);
        } finally {
            if (password != null) {
                Arrays.fill(password, '\0');
            }
            Arrays.fill(encoded, (byte) 0);
        }
    }

    /** Keys of this factory pass as they are; other PBKDF2WithHmacSM3 PBE keys are derived again. */
    @Override
    protected SecretKey engineTranslateKey(SecretKey key) throws InvalidKeyException {
        if (key == null || !key.getAlgorithm().equalsIgnoreCase(PBKDF2HmacSM3Key.ALGORITHM)
                || !key.getFormat().equalsIgnoreCase("RAW")) {
            throw new InvalidKeyException("Only " + PBKDF2HmacSM3Key.ALGORITHM + " key with RAW format is accepted");
        }
        if (key instanceof PBKDF2HmacSM3Key) {
            return key;
        }
        if (!(key instanceof PBEKey pbeKey)) {
            throw new InvalidKeyException("Only PBEKey is accepted");
        }
        char[] password = pbeKey.getPassword();
        byte[] encoded = pbeKey.getEncoded();
        PBEKeySpec spec = new PBEKeySpec(password, pbeKey.getSalt(), pbeKey.getIterationCount(),
                encoded.length * 8);
        try {
            return PBKDF2HmacSM3Key.derive(kdf, spec);
        } catch (InvalidKeySpecException e) {
            throw new InvalidKeyException("Invalid key component(s)", e);
        } finally {
            if (password != null) {
                Arrays.fill(password, '\0');
                spec.clearPassword();
            }
            Arrays.fill(encoded, (byte) 0);
        }
    }

    private static final class Availability {
        static final LibCryptoUnavailableException FAILURE = check();
    }

    /**
     * Why PBKDF2WithHmacSM3 cannot be handed out: HMAC-SM3 or PBKDF2 unavailable, or a failed self-test.
     * Checked once, before the first instance; empty when it is usable.
     */
    public static Optional<LibCryptoUnavailableException> unavailability() {
        return Optional.ofNullable(Availability.FAILURE);
    }

    private static LibCryptoUnavailableException check() {
        Optional<LibCryptoUnavailableException> hmac = HmacSM3.unavailability();
        if (hmac.isPresent()) {
            return hmac.get();
        }
        MemorySegment kdf;
        try {
            kdf = LibCrypto.pbkdf2();
        } catch (LibCryptoUnavailableException e) {
            return e;
        }
        String problem = selfTest(kdf);
        return problem == null ? null
                : new LibCryptoUnavailableException("PBKDF2WithHmacSM3 self-test failed: " + problem, null);
    }

    /**
     * Derives 40 bytes (two blocks, the second cut short) with two iterations in OpenSSL, and again by the
     * definition in RFC 8018 section 5.2 from HMAC-SM3, which has passed its known-answer test. A PBKDF2
     * that ignored the digest parameter, or the block counter, would disagree. Returns null when they
     * agree, else what went wrong.
     */
    private static String selfTest(MemorySegment kdf) {
        byte[] password = "password".getBytes(StandardCharsets.US_ASCII);
        byte[] salt = "salt".getBytes(StandardCharsets.US_ASCII);
        int length = 40;
        try {
            byte[] derived = NativePbkdf2.derive(kdf, password, salt, 2, length);
            HmacSM3 prf = new HmacSM3();
            prf.engineInit(new SecretKeySpec(password, "HmacSM3"), null);
            byte[] expected = new byte[length];
            for (int block = 1; (block - 1) * HmacSM3.MAC_LENGTH < length; block++) {
                prf.engineUpdate(salt, 0, salt.length);
                prf.engineUpdate(new byte[] {0, 0, 0, (byte) block}, 0, 4);
                byte[] u1 = prf.engineDoFinal();
                prf.engineUpdate(u1, 0, u1.length);
                byte[] u2 = prf.engineDoFinal();
                int offset = (block - 1) * HmacSM3.MAC_LENGTH;
                for (int i = 0; i < HmacSM3.MAC_LENGTH && offset + i < length; i++) {
                    expected[offset + i] = (byte) (u1[i] ^ u2[i]);
                }
            }
            if (!Arrays.equals(derived, expected)) {
                HexFormat hex = HexFormat.of();
                return "OpenSSL gave " + hex.formatHex(derived) + ", HMAC-SM3 gives " + hex.formatHex(expected);
            }
            return null;
        } catch (Exception e) {
            return e.toString();
        }
    }
}
