package io.github.sm3ffm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.crypto.SecretKey;

/**
 * A RAW key that keeps every copy of its bytes it hands out ({@link #getEncoded}), so that a test can read them after
 * an engine is done with them: a copy the engine read a secret from should be zeros by then.
 */
public final class HandedOutKey implements SecretKey {
    private final byte[] bytes;
    private final List<byte[]> copies = new ArrayList<>();

    public HandedOutKey(byte[] bytes) {
        this.bytes = bytes.clone();
    }

    @Override
    public String getAlgorithm() {
        return "Generic";
    }

    @Override
    public String getFormat() {
        return "RAW";
    }

    @Override
    public synchronized byte[] getEncoded() {
        byte[] copy = bytes.clone();
        copies.add(copy);
        return copy;
    }

    /** The copies handed out so far that still hold a non-zero byte; at least one copy must have been handed out. */
    public synchronized List<byte[]> notZeroed() {
        if (copies.isEmpty()) {
            throw new AssertionError("the key's bytes were never read");
        }
        return copies.stream().filter(c -> Arrays.mismatch(c, new byte[c.length]) != -1).toList();
    }
}
