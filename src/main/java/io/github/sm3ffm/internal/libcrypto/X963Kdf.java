package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;

import java.util.Arrays;

/**
 * The ANSI X9.63 KDF with SM3, which is the SM2 KDF (GM/T 0003-2012 5.4.3): SM3(Z || counter || SharedInfo)
 * for counter = 1, 2, ... (32 bits, big-endian), cut to the length asked. Computed here on the library's
 * pooled SM3 contexts ({@link Sm3Context}), not by OpenSSL's {@code EVP_KDF} "X963KDF": OpenSSL 3.0 cannot
 * copy that KDF's context, so every derivation would set it up anew and look SM3 up by name, which costs
 * several times as much as hashing a short shared secret.
 *
 * <p>A derivation borrows one pooled context for its whole length, as {@link Hkdf} does; {@link ContextPool#giveBack} resets the context and zeroes its staging buffer,
 * as it does for every context. The heap
 * copies of Z and of each block are zeroed here. Handed out by {@code Algorithm.x963Kdf()} once the KDF has
 * passed its self-test.
 */
public final class X963Kdf {
    static final X963Kdf INSTANCE = new X963Kdf(Scratch.NONE);
    private static final int COUNTER_LENGTH = 4;

    private final Scratch scratch;

    X963Kdf(Scratch scratch) {
        this.scratch = scratch;
    }

    /** {@code length} bytes from the shared secret Z and the SharedInfo (which may be empty). */
    public byte[] derive(byte[] sharedSecret, byte[] sharedInfo, int length) {
        int counterAt = sharedSecret.length;
        byte[] message = scratch.held(new byte[counterAt + COUNTER_LENGTH + sharedInfo.length]);
        System.arraycopy(sharedSecret, 0, message, 0, counterAt);
        System.arraycopy(sharedInfo, 0, message, counterAt + COUNTER_LENGTH, sharedInfo.length);
        Sm3Context c = Sm3Context.POOL.borrow();
        boolean intact = false;
        try {
            byte[] out = DerivedBlocks.derive(new byte[length], scratch, (counter, into) -> {
                message[counterAt] = (byte) (counter >>> 24);
                message[counterAt + 1] = (byte) (counter >>> 16);
                message[counterAt + 2] = (byte) (counter >>> 8);
                message[counterAt + 3] = (byte) counter;
                c.start();
                c.updateArray(message, 0, message.length);
                c.finish(into, 0);
            });
            intact = true;
            return out;
        } finally {
            Arrays.fill(message, (byte) 0);
            Sm3Context.POOL.giveBack(c, intact);
        }
    }
}
