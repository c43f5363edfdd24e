package io.github.sm3ffm.internal.libcrypto;

import java.lang.foreign.MemorySegment;

/**
 * The native work that comes before a backend exists, one method per step of {@link BackendChoice}: the SM3 that
 * the loader fetched, the provider's functions found behind it, linked, and the calls through which the checks
 * use them. Tests decorate it through the choice's package-private seam, to make each step fail in turn; the
 * library has no check of its own for that.
 */
interface Startup {
    /** The SM3 {@code EVP_MD} the loader fetched, kept for the JVM's life; NULL when loading failed. */
    MemorySegment loaded();

    /** The provider's functions behind {@code md}, or why they are not used. */
    Found find(MemorySegment md);

    /** {@code found}'s functions, linked; only for functions found. */
    Linked link(Found found);

    /** How the checks call {@code linked}. */
    ProviderCalls calls(Linked linked);

    /** What the library does. */
    Startup NATIVE = new Startup() {
        @Override
        public MemorySegment loaded() {
            return LibCrypto.fetchedSm3();
        }

        @Override
        public Found find(MemorySegment md) {
            return ProviderLookup.find(md);
        }

        @Override
        public Linked link(Found found) {
            return Linked.of(found);
        }

        @Override
        public ProviderCalls calls(Linked linked) {
            return linked;
        }
    };
}
