package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.PooledContext.STAGING_SIZE;
import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.BLOCK_SIZE;

import java.lang.foreign.MemorySegment;
import java.security.ProviderException;
import java.util.Arrays;

/**
 * An SM3 message, for the {@code MessageDigest} engine, over what every stream shares ({@link MessageStream}). Two
 * things are a digest's own:
 * <ul>
 * <li>a stream that holds a context copies updates of {@value #STAGED_MIN} bytes or more straight into its staging
 * buffer, where they wait for OpenSSL ahead of any bytes on the heap: no heap copy of them is left to zero. Shorter
 * ones stay on the heap, where a copy costs less than the guard, and move in behind the staged ones before the next
 * such update where they fit;</li>
 * <li>a copy (a clone) first hashes the whole blocks staged in the claimed context, once for both; of a message that
 * has reached a context, it keeps that state on the heap ({@link #parked}) where the backend's states are plain
 * bytes, and claims a context only when it needs one; elsewhere it claims one holding a copy. A parked state is
 * zeroed once it is restored into a context.</li>
 * </ul>
 */
public final class DigestStream extends MessageStream<Sm3Context> {
    static final int STAGED_MIN = 32;

    /**
     * Bytes of the message waiting at the start of the claimed context's staging buffer, ahead of those on the heap.
     * With them, at most {@value PooledContext#STAGING_SIZE}: they all fit there together.
     */
    private short staged;
    /** The message so far as state bytes on the heap, where a copy keeps it; only ever set in the HEAP phase. */
    private byte[] parked;

    DigestStream() {
        super(Sm3Context.POOL);
    }

    @Override
    int heapLimit() {
        return STAGING_SIZE - staged;
    }

    @Override
    boolean skipsHeap(int len) {
        return len >= STAGED_MIN && holdsContext();
    }

    @Override
    long hold(Object src, MemorySegment segment, long end, long len) {
        Sm3Context c = context();
        if (len < STAGED_MIN || c == null) {
            return super.hold(src, segment, end, len);
        }
        int at = staged;
        int n = pendingLength();
        if (n > 0 && at + n + len <= STAGING_SIZE) {
            // Short bytes waiting on the heap go first, behind those staged. The input, of STAGED_MIN bytes or more,
            // then covers the heap's last word.
            c.stageAndZero(pendingBytes(), n, at);
            pendingMoved();
            at += n;
            staged = (short) at;
            n = 0;
        }
        if (n > 0 || len > STAGING_SIZE - at) {
            return len;
        }
        if (segment == null) {
            c.stage((byte[]) src, (int) (end - len), at, (int) len);
        } else {
            c.stage(segment, segment.byteSize() - len, at, (int) len);
        }
        staged = (short) (at + len);
        return 0;
    }

    /** Starts the message: from the parked state, zeroed once it is in the context, or anew. */
    @Override
    void open() {
        if (!opening()) {
            return;
        }
        byte[] p = parked;
        if (p == null) {
            context().start();
            return;
        }
        parked = null;
        try {
            context().restore(p);
        } finally {
            Arrays.fill(p, (byte) 0);
        }
    }

    @Override
    int takeStaged() {
        int m = staged;
        staged = 0;
        return m;
    }

    @Override
    void finishInto(byte[] out, int offset) {
        context().finish(out, offset);
    }

    @Override
    void dropKindWaiting() {
        if (staged > 0) {
            staged = 0;
            context().wipe();
        }
        if (parked != null) {
            Arrays.fill(parked, (byte) 0);
            parked = null;
        }
    }

    /**
     * An independent copy of this stream: the message so far. This stream is only read: when a native call fails on
     * the way, it is as it was, and only the copy is lost.
     */
    @Override
    public DigestStream copy() {
        DigestStream that = new DigestStream();
        enter();
        try {
            if (staged >= BLOCK_SIZE) {
                // The staged whole blocks are hashed now, once, for both: else the copy hashes them, then this stream
                // again (a growing transcript cloned at each step would hash up to 448 bytes twice per clone). They
                // are hashed on a copy of the claimed context, which replaces it only when every call has succeeded.
                Sm3Context n = pool.borrow();
                try {
                    hashStagedBlocks(n);
                } catch (ProviderException e) {
                    pool.giveBack(n, false);
                    throw e;
                }
                // The old context goes back cleared, its staged bytes wiped, before the new one is claimed.
                pool.giveBack(handOver(), true);
                claim(n);
            }
            if (isNative()) {
                // On the heap where the state is plain bytes: the copy claims no context, and one that is dropped
                // unfinished leaves nothing to reclaim.
                byte[] state = context().saveState();
                if (state != null) {
                    that.parked = state;
                } else {
                    copyContextTo(that, pool.borrow(), Sm3Context::copyTo);
                }
            } else if (parked != null) {
                that.parked = parked.clone();
            }
            copyHeapTo(that, context(), staged);
        } finally {
            exit();
        }
        return that;
    }

    /**
     * Puts the message so far and the whole blocks staged into {@code n}, with the rest of the staged bytes at the
     * start of its staging buffer; this stream's state is untouched until the new context replaces the old. Only a digest that
     * holds a context stages, so a message not yet in it has no parked state.
     */
    private void hashStagedBlocks(Sm3Context n) {
        Sm3Context old = context();
        int whole = staged & -BLOCK_SIZE;
        if (isNative()) {
            old.copyTo(n);
        } else {
            n.start();
        }
        n.updateFrom(old, whole);
        n.stageFrom(old, whole, staged - whole);
        staged = (short) (staged - whole);
    }

    @Override
    Snapshot snapshot() {
        return snapshot(staged, parked, null);
    }
}
