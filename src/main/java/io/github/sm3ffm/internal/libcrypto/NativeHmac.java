package io.github.sm3ffm.internal.libcrypto;

import java.util.Arrays;

/**
 * An HMAC-SM3 message stream (see {@link NativeStream}) over pooled {@link HmacContext}s: what the {@code Mac}
 * engine calls. Handed out by {@code Algorithm.hmacStream()} once HMAC-SM3 has passed its self-test.
 *
 * <p>The key and its pads wait on the Java heap, as the JDK's own HMAC keeps its pads there. A message
 * that a context serves alone (the first message of a stream: a new {@code Mac}) starts from the pads; a
 * reused stream loads the key into its claimed context once ({@link HmacContext#key}), and each message
 * starts from a copy of the keyed state. The pool clears a context of all of it when it comes back.
 */
public final class NativeHmac extends NativeStream<HmacContext> {
    private byte[] key;
    /** The key's pads (see {@link HmacContext#padsOf}), computed when a message first needs them. */
    private byte[] pads;
    /** Whether the claimed context, if any, holds this key's pads. */
    private boolean keyLoaded;

    NativeHmac() {
    }

    @Override
    ContextPool<HmacContext> pool() {
        return ContextPool.HMAC;
    }

    /** Drops any message in progress and starts over with a copy of {@code key}; the caller clears its array. */
    public void init(byte[] key) {
        enter();
        try {
            zero(this.key);
            zero(pads);
            this.key = key.clone();
            pads = null;
            keyLoaded = false;
            endMessage();
        } finally {
            exit();
        }
    }

    private static void zero(byte[] secret) {
        if (secret != null) {
            Arrays.fill(secret, (byte) 0);
        }
    }

    /** An independent copy: the key and the message so far. */
    public NativeHmac copy() {
        NativeHmac n = new NativeHmac();
        copyTo(n);
        return n;
    }

    @Override
    void copyKeyTo(NativeStream<HmacContext> that) {
        NativeHmac n = (NativeHmac) that;
        n.key = key == null ? null : key.clone();
        n.pads = pads == null ? null : pads.clone();
        // A copied context holds what this one holds; a new one is loaded when claimed.
        n.keyLoaded = keyLoaded;
    }

    @Override
    void start(HmacContext c, boolean fresh) {
        if (key == null) {
            throw new IllegalStateException("HmacSM3 has no key");
        }
        if (pads == null) {
            pads = c.padsOf(key);
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
