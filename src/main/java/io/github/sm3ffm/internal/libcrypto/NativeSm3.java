package io.github.sm3ffm.internal.libcrypto;

/**
 * An SM3 message stream (see {@link NativeStream}) over pooled {@link Sm3Context}s: what the
 * {@code MessageDigest} engine calls. Handed out by {@code Algorithm.sm3Stream()} once SM3 has passed its
 * self-test.
 */
public final class NativeSm3 extends NativeStream<Sm3Context> {
    NativeSm3() {
    }

    @Override
    ContextPool<Sm3Context> pool() {
        return ContextPool.SM3;
    }

    /** An independent copy of this message so far. */
    public NativeSm3 copy() {
        NativeSm3 n = new NativeSm3();
        copyTo(n);
        return n;
    }

    @Override
    void start(Sm3Context c, boolean fresh) {
        c.start();
    }

    @Override
    void finish(Sm3Context c) {
        c.finish();
    }
}
