package io.github.sm3ffm.internal.libcrypto;

/**
 * The provider's functions of the final backend choice, for {@link ProviderBackend}'s constants, which are read
 * from here only once a provider backend exists: the choice settles them before it makes one.
 */
final class ChosenFunctions {
    private static volatile Linked linked;

    private ChosenFunctions() {
    }

    /** Called once, by the final choice, before the backend it chose exists. */
    static void settle(Linked functions) {
        linked = functions;
    }

    static Linked linked() {
        Linked l = linked;
        if (l == null) {
            throw new IllegalStateException("no provider functions were chosen");
        }
        return l;
    }
}
