package io.github.sm3ffm.internal.libcrypto;

/**
 * Names each heap array in which a KDF holds a secret (a PRK, pads, the previous block, a copy of a shared secret),
 * all of which the KDF zeroes before it returns. The KDFs handed out pass them through ({@link #NONE}); a test builds
 * a KDF over a scratch that remembers them, and reads them after the call, which is how a missed zeroing shows.
 */
class Scratch {
    static final Scratch NONE = new Scratch();

    Scratch() {
    }

    /** {@code array}, which holds a secret that its user zeroes before the derivation returns. */
    byte[] held(byte[] array) {
        return array;
    }
}
