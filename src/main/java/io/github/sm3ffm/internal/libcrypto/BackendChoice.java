package io.github.sm3ffm.internal.libcrypto;

import java.util.function.UnaryOperator;

/**
 * Chooses the {@link Backend} of this JVM, step by step, each step a function of the last one's result: the SM3
 * that the loader fetched, the provider's functions found behind it ({@link Found}), linked ({@link Linked}),
 * checked ({@link DirectSm3.Offer}), and the backend for that offer.
 *
 * <p>A step that could not run (a native call failed, such as an allocation) throws and leaves nothing decided:
 * the next use chooses again, so that a JVM ends on the backend an undisturbed one chooses. Only a choice that ran
 * to its end is kept; the engines read it through a {@code static final}, initialised once it is kept
 * ({@code PooledContext.BACKEND}), a constant to the JIT.
 *
 * <p>Tests put decorators around the steps and the chosen backend through a package-private seam
 * ({@link #decorate}), which is how every call is made to fail in turn; production code has no check of its own for
 * that.
 */
final class BackendChoice {
    /** A choice that ran to its end: the offer and the backend made for it. */
    private record Made(DirectSm3.Offer offer, Backend backend) {
    }

    private static volatile Made made;
    private static Startup startup = Startup.NATIVE;
    private static UnaryOperator<Backend> decorator;

    private BackendChoice() {
    }

    /**
     * The backend every context of this JVM uses, chosen at the first call that runs to its end.
     *
     * @throws RuntimeException as a failed native call does ({@code ProviderException}) when the choice could not
     *                          run; it runs again at the next call
     */
    static Backend selected() {
        Made m = made;
        return (m != null ? m : make()).backend;
    }

    /** The offer the kept choice was made for, choosing first as {@link #selected} does. */
    static DirectSm3.Offer offer() {
        Made m = made;
        return (m != null ? m : make()).offer;
    }

    private static synchronized Made make() {
        if (made == null) {
            DirectSm3.Offer offer;
            try {
                offer = offer(startup);
            } catch (Throwable t) {
                throw OpenSSLErrors.rethrow(t);
            }
            if (offer.direct()) {
                ChosenFunctions.settle(offer.linked());
            }
            Backend chosen = backendFor(offer);
            made = new Made(offer, decorator == null ? chosen : decorator.apply(chosen));
        }
        return made;
    }

    /** The steps up to the offer, through {@code steps}; keeps nothing, and throws where a step could not run. */
    static DirectSm3.Offer offer(Startup steps) throws Throwable {
        Found found = steps.find(steps.loaded());
        if (found.reason() != null) {
            return DirectSm3.Offer.evp(found.reason());
        }
        Linked linked = steps.link(found);
        return DirectSm3.offer(found, linked, steps.calls(linked));
    }

    /**
     * The one place that maps what the loaded libcrypto offers to a backend: the provider's functions where
     * {@link DirectSm3} found and checked them, copied as the offer says; else EVP.
     */
    static Backend backendFor(DirectSm3.Offer offer) {
        if (!offer.direct()) {
            return new EvpBackend(offer.reason());
        }
        return switch (offer.copies()) {
            case COPYCTX -> new ProviderBackend.Copyctx(offer.provider());
            case STATE_BYTES -> new ProviderBackend.StateBytes(offer.provider());
            case DUPCTX -> new ProviderBackend.Dupctx(offer.provider());
        };
    }

    /**
     * Wraps the steps of every choice from now on, and the backend chosen, for tests that make calls fail: only
     * before a choice is kept, so that every call of the JVM goes through the decorators or none does.
     * Package-private: a decorator sees every key, pad and message, so nothing outside this package, and no setting,
     * can install one.
     */
    static synchronized void decorate(UnaryOperator<Startup> steps, UnaryOperator<Backend> backend) {
        if (made != null) {
            throw new IllegalStateException("the backend was chosen already");
        }
        startup = steps.apply(Startup.NATIVE);
        decorator = backend;
    }

    /** The steps each choice runs through: {@link Startup#NATIVE}, or as a test decorated them. */
    static synchronized Startup steps() {
        return startup;
    }

    /** Whether a choice has been kept. */
    static boolean made() {
        return made != null;
    }
}
