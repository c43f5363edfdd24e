package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;

import java.util.Arrays;

/**
 * The ANSI X9.63 KDF with SM3, which is the SM2 KDF (GM/T 0003-2012 5.4.3): SM3(Z || counter || SharedInfo)
 * for counter = 1, 2, ... (32 bits, big-endian), cut to the length asked. Computed here over the library's
 * pooled SM3 contexts ({@link NativeSm3}), not by OpenSSL's {@code EVP_KDF} "X963KDF": OpenSSL 3.0 cannot
 * copy that KDF's context, so every derivation would set it up anew and look SM3 up by name, which costs
 * several times as much as hashing a short shared secret.
 *
 * <p>A derivation borrows one pooled context for its whole length, as {@link NativeHkdf} does, and hands it
 * back reset, with its staging buffer zeroed; the heap copies of Z and of each block are zeroed too.
 */
public final class NativeX963Kdf {
    private static final NativeX963Kdf INSTANCE = new NativeX963Kdf();
    private static final int COUNTER_LENGTH = 4;

    private NativeX963Kdf() {
    }

    /** The X9.63 KDF with SM3, or why libcrypto cannot give it. */
    public static NativeX963Kdf create() throws LibCryptoUnavailableException {
        NativeSm3.create();
        return INSTANCE;
    }

    /** {@code length} bytes from the shared secret Z and the SharedInfo (which may be empty). */
    public byte[] derive(byte[] sharedSecret, byte[] sharedInfo, int length) {
        NativeSm3 sm3;
        try {
            sm3 = NativeSm3.create();
        } catch (LibCryptoUnavailableException e) {
            // Not reached: this object exists only when SM3 is available.
            throw new IllegalStateException(e);
        }
        byte[] out = new byte[length];
        int counterAt = sharedSecret.length;
        byte[] message = new byte[counterAt + COUNTER_LENGTH + sharedInfo.length];
        System.arraycopy(sharedSecret, 0, message, 0, counterAt);
        System.arraycopy(sharedInfo, 0, message, counterAt + COUNTER_LENGTH, sharedInfo.length);
        byte[] block = new byte[DIGEST_LENGTH];
        NativeSm3.Context c = sm3.pool().acquire();
        boolean reset = false;
        try {
            for (int counter = 1, at = 0; at < length; counter++, at += DIGEST_LENGTH) {
                message[counterAt] = (byte) (counter >>> 24);
                message[counterAt + 1] = (byte) (counter >>> 16);
                message[counterAt + 2] = (byte) (counter >>> 8);
                message[counterAt + 3] = (byte) counter;
                sm3.start(c, true);
                sm3.feedArray(c, message, 0, message.length);
                sm3.finalInto(c, block, 0);
                System.arraycopy(block, 0, out, at, Math.min(DIGEST_LENGTH, length - at));
            }
            // A new message zeroes the state before it sets the IV.
            sm3.start(c, true);
            c.staging.fill((byte) 0);
            reset = true;
            return out;
        } finally {
            Arrays.fill(message, (byte) 0);
            Arrays.fill(block, (byte) 0);
            if (reset) {
                sm3.pool().release(c);
            } else {
                Arrays.fill(out, (byte) 0);
                // A native call failed, or the context may still hold secrets: freeing clears it.
                c.free();
            }
        }
    }
}
