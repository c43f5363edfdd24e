package io.github.sm3ffm.internal.libcrypto;

import java.util.Arrays;

/**
 * An HMAC-SM3 message stream (see {@link NativeStream}) over pooled {@link HmacContext}s: what the {@code Mac}
 * engine calls. Handed out by {@code Algorithm.hmacStream()} once HMAC-SM3 has passed its self-test.
 *
 * <p>Only the key's pads are kept, on the Java heap, as the JDK's own HMAC ({@code HmacCore}) keeps them; the
 * key is turned into pads at {@link #init} and not kept. A message that a context serves alone (the first
 * message of a stream: a new {@code Mac}) starts from the pads; a reused stream loads them into its claimed
 * context once ({@link HmacContext#key}), and each message starts from a copy of the keyed state. The pool
 * clears a context of all of it when it comes back, and a new key zeroes the old pads.
 */
public final class NativeHmac extends NativeStream<HmacContext> {
    /** The key's pads (see {@link HmacContext#padsOf}); null until a key is set. */
    private byte[] pads;
    /** Whether the claimed context, if any, holds these pads. */
    private boolean keyLoaded;

    NativeHmac() {
    }

    @Override
    ContextPool<HmacContext> pool() {
        return ContextPool.HMAC;
    }

    /**
     * Drops any message in progress and starts over with {@code key}, of which only the pads are kept; the caller
     * clears its array. A key longer than a block is hashed here, natively.
     */
    public void init(byte[] key) {
        enter();
        try {
            if (pads != null) {
                Arrays.fill(pads, (byte) 0);
                pads = null;
            }
            keyLoaded = false;
            endMessage();
            // The old key's states leave with the context, which the pool clears before anyone else has it.
            giveBackClaimed();
            // A key that fails to become pads leaves none: the stream then refuses until a key is set.
            pads = HmacContext.pads(key);
        } finally {
            exit();
        }
    }

    /** An independent copy: the key's pads and the message so far. */
    public NativeHmac copy() {
        NativeHmac n = new NativeHmac();
        copyTo(n);
        return n;
    }

    @Override
    void copyKeyTo(NativeStream<HmacContext> that) {
        NativeHmac n = (NativeHmac) that;
        n.pads = pads == null ? null : pads.clone();
        // A copied context holds what this one holds; a new one is loaded when claimed.
        n.keyLoaded = keyLoaded;
    }

    @Override
    void start(HmacContext c, boolean fresh) {
        if (pads == null) {
            throw new IllegalStateException("HmacSM3 has no key");
        }
        if (isReused() && (fresh || !keyLoaded)) {
            c.key(pads);
            keyLoaded = true;
        }
        c.start(pads);
    }

    @Override
    void finish(HmacContext c) {
        c.finish(pads);
    }
}
