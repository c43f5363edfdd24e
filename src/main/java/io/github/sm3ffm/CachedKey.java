package io.github.sm3ffm;

import io.github.sm3ffm.internal.concurrent.StripedSlots;
import java.util.Arrays;
import java.util.List;
import javax.crypto.Mac;

/** One key of a {@link KeyCache}: a copy kept to compare rows' keys with, its tag, and its idle keyed {@code Mac}s. */
final class CachedKey {
    final byte[] key;
    final long tag;
    private final StripedSlots<Mac> idle;
    private volatile boolean evicted;

    /** {@code idleMacs}: a power of two, every one of which a thread may look at. */
    CachedKey(byte[] key, long tag, int idleMacs) {
        this.key = key;
        this.tag = tag;
        this.idle = new StripedSlots<>(idleMacs, idleMacs);
    }

    /** An idle {@code Mac} holding this key's pads, or null. */
    Mac take() {
        return idle.take();
    }

    /** Keeps a {@code Mac} that finished cleanly for the next row, unless evicted or full: then forgets it. */
    void giveBack(Mac mac) {
        if (evicted || !idle.give(mac)) {
            RowKey.forget(mac);
        } else if (evicted) {
            // Evicted while it went in: the eviction's drain may have run before it.
            drain();
        }
    }

    /** Zeroes the key's copy; the caller holds the cache's write lock, so no lookup can trust what it read. */
    void evict() {
        evicted = true;
        Arrays.fill(key, (byte) 0);
    }

    /** Forgets every idle {@code Mac}: nothing of the key stays referenced from here. */
    void drain() {
        idle.drain(RowKey::forget);
    }

    boolean isEvicted() {
        return evicted;
    }

    /** The idle {@code Mac}s, for tests. */
    List<Mac> idleMacs() {
        return idle.snapshot();
    }
}
