package io.github.sm3ffm.internal.engines;

import java.util.List;

/**
 * The {@code KDF} engines. {@code javax.crypto.KDF} exists from JDK 25 on, so this base version, which
 * earlier JDKs run, has none; the jar's {@code META-INF/versions/25} holds the version that gives them.
 */
public final class KdfEngines {
    private KdfEngines() {
    }

    /** None before JDK 25. */
    public static List<ServiceEntry> all() {
        return List.of();
    }
}
