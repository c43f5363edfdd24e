package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * PBKDF2 (RFC 8018 section 5.2) with HMAC-SM3, computed on the library's own HMAC-SM3 contexts
 * ({@link HmacContext}): the password's inner and outer states are absorbed once, and each iteration
 * U_j = HMAC(P, U_{j-1}) is two SM3 compressions from copies of them, with no allocation and nothing but SM3
 * calls in the loop. OpenSSL's {@code EVP_KDF} "PBKDF2", which this replaces, re-initialises its
 * {@code EVP_MAC} HMAC for every iteration through all of EVP's layers (docs/design-notebook.md has the figures).
 *
 * <p>Every native call in the loop is a short critical one (32 bytes, at most two compressions), so however
 * many iterations a derivation runs, GC never waits for more than one of them; a password longer than a
 * block is hashed in critical calls of at most {@value PooledContext#CRITICAL_CHUNK} bytes. A derivation
 * borrows one pooled context and gives it back through {@link ContextPool#giveBack}, which clears the
 * password's keyed states and the staging buffer; the pads and the block on the heap are zeroed here, and
 * so is the output when a call fails. Handed out by {@code Algorithm.pbkdf2()} once its self-test has passed.
 */
public final class Pbkdf2 {
    static final Pbkdf2 INSTANCE = new Pbkdf2(Scratch.NONE);
    private static final int INDEX_LENGTH = 4;

    private final Scratch scratch;

    Pbkdf2(Scratch scratch) {
        this.scratch = scratch;
    }

    /**
     * Derives {@code length} bytes. The caller has checked the arguments as the JDK's PBKDF2 does (at least
     * one iteration); PKCS #5 and the JDK accept salts, counts and lengths below SP 800-132's bounds, and so
     * does this.
     */
    public byte[] derive(byte[] password, byte[] salt, int iterations, int length) {
        if (length == 0) {
            return new byte[0];
        }
        // S || INT(i)
        byte[] first = Arrays.copyOf(salt, salt.length + INDEX_LENGTH);
        HmacContext c = HmacContext.POOL.borrow();
        boolean intact = false;
        byte[] pads = null;
        try {
            byte[] p = pads = scratch.held(c.padsOf(password));
            c.key(p);
            byte[] out = DerivedBlocks.derive(new byte[length], scratch, (i, block) -> {
                for (int k = 0; k < INDEX_LENGTH; k++) {
                    first[salt.length + k] = (byte) (i >>> (24 - 8 * k));
                }
                blockInto(c, p, first, iterations, block);
            });
            intact = true;
            return out;
        } finally {
            if (pads != null) {
                Arrays.fill(pads, (byte) 0);
            }
            HmacContext.POOL.giveBack(c, intact);
        }
    }

    /**
     * T_i = U_1 XOR U_2 XOR ... XOR U_c into {@code block}, on {@code c} keyed with the password. Each U_j
     * stays where the final wrote it, in the output region of the staging buffer, and is fed from there to the next
     * HMAC; T is kept in four longs, in the buffer's byte order, so XOR-ing a U costs four reads.
     */
    private static void blockInto(HmacContext c, byte[] pads, byte[] first, int iterations, byte[] block) {
        MemorySegment u = c.output();
        c.begin(pads);
        c.updateArray(first, 0, first.length);
        c.finish(pads, null, 0);
        long t0 = u.get(JAVA_LONG_UNALIGNED, 0);
        long t1 = u.get(JAVA_LONG_UNALIGNED, 8);
        long t2 = u.get(JAVA_LONG_UNALIGNED, 16);
        long t3 = u.get(JAVA_LONG_UNALIGNED, 24);
        for (int j = 1; j < iterations; j++) {
            c.begin(pads);
            c.updateWithOutput();
            c.finish(pads, null, 0);
            t0 ^= u.get(JAVA_LONG_UNALIGNED, 0);
            t1 ^= u.get(JAVA_LONG_UNALIGNED, 8);
            t2 ^= u.get(JAVA_LONG_UNALIGNED, 16);
            t3 ^= u.get(JAVA_LONG_UNALIGNED, 24);
        }
        MemorySegment t = MemorySegment.ofArray(block);
        t.set(JAVA_LONG_UNALIGNED, 0, t0);
        t.set(JAVA_LONG_UNALIGNED, 8, t1);
        t.set(JAVA_LONG_UNALIGNED, 16, t2);
        t.set(JAVA_LONG_UNALIGNED, 24, t3);
    }
}
