package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.PooledContext.STAGING_SIZE;
import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.BLOCK_SIZE;

import java.util.Arrays;

/**
 * An HMAC-SM3 message, for the {@code Mac} engine, over what every stream shares ({@link MessageStream}): a key
 * first ({@link #init}), kept as its pads ({@link HmacContext#padsOf}). A first message starts from the pads on the
 * context it is finished on; a reused stream loads the key into its claimed context's keyed states once, and starts
 * every later message from a copy of them.
 */
public final class MacStream extends MessageStream<HmacContext> {
    /** The key as its pads; null until a key is set. */
    private byte[] pads;

    MacStream() {
        super(HmacContext.POOL);
    }

    @Override
    int heapLimit() {
        return STAGING_SIZE;
    }

    @Override
    boolean skipsHeap(int len) {
        return false;
    }

    /** Starts the message: a reused stream's context keyed first, if it is not. */
    @Override
    void open() {
        if (pads == null) {
            throw new IllegalStateException("HmacSM3 has no key");
        }
        if (!opening()) {
            return;
        }
        HmacContext c = context();
        if (reused() && !c.keyed()) {
            c.key(pads);
        }
        c.begin(pads);
    }

    @Override
    void finishInto(byte[] out, int offset) {
        context().finish(pads, out, offset);
    }

    /**
     * An independent copy of this stream: the key and the message so far. This stream is only read: when a native
     * call fails on the way, it is as it was, and only the copy is lost.
     */
    @Override
    public MacStream copy() {
        MacStream that = new MacStream();
        enter();
        try {
            that.pads = pads == null ? null : pads.clone();
            if (isNative()) {
                copyContextTo(that, pool.borrow(), HmacContext::copyTo);
            }
            copyHeapTo(that, context(), 0);
        } finally {
            exit();
        }
        return that;
    }

    /**
     * Drops any message in progress and starts over with {@code key}, of which only the pads are kept; the caller
     * clears its array. A key longer than a block is hashed here, natively, on a context borrowed for that. The old
     * key's pads are zeroed and its keyed states go back to the pool with the context, which clears them, before
     * this returns, whether the new key is taken or not.
     */
    public void init(byte[] key) {
        enter();
        try {
            if (pads != null) {
                Arrays.fill(pads, (byte) 0);
                pads = null;
            }
            pool.giveBack(dropAll(), true);
            if (key.length <= BLOCK_SIZE) {
                pads = HmacContext.padsOfBlock(key);
                return;
            }
            // A key that fails to become pads leaves none: the stream then refuses until a key is set.
            HmacContext c = pool.borrow();
            boolean intact = false;
            try {
                pads = c.padsOf(key);
                intact = true;
            } finally {
                pool.giveBack(c, intact);
            }
        } finally {
            exit();
        }
    }

    @Override
    Snapshot snapshot() {
        return snapshot(0, null, pads);
    }
}
