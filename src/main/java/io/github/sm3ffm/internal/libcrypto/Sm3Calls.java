package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_CTX_copy_ex;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_CTX_free;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_CTX_new;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.security.ProviderException;

/**
 * The SM3 calls on one kind of native context, and the one way contexts of that kind are copied: the
 * provider's own functions ({@link DirectSm3}) copying with its {@code copyctx}, as {@code SM3_CTX} bytes, or
 * with its {@code dupctx}; or {@code EVP_MD_CTX}s. One of the four is chosen when the class loads and kept in
 * {@link #SELECTED}, a constant to the JIT, so a hot path compiles to the chosen calls alone, whatever it
 * inlines; nothing else decides how a context is copied.
 *
 * <p>Every method handle is a {@code static final} field read by the method that invokes it, never a field
 * of an object passed around: a method compiled on its own (not inlined into its caller) still sees the
 * handle as a constant, and its call compiles to a direct native call. A handle read from an instance field
 * is a constant only where the JIT inlines the whole chain from a constant receiver, which depends on the
 * order in which methods happen to be compiled.
 *
 * <p>Each call that can fail is checked here ({@code ProviderException}), and can be made to fail in tests
 * ({@link NativeFaults}).
 */
abstract sealed class Sm3Calls permits Sm3Calls.Provider, Sm3Calls.Evp {
    static final Sm3Calls SELECTED = select();

    private static Sm3Calls select() {
        if (!DirectSm3.ENABLED) {
            return new Evp();
        }
        return switch (DirectSm3.COPIES) {
            case COPYCTX -> new Provider.Copyctx();
            case STATE_BYTES -> new Provider.StateBytes();
            case DUPCTX -> new Provider.Dupctx();
        };
    }

    /** How SM3 is computed and its contexts copied, for messages and tests. */
    abstract String description();

    /** A new context, not yet started. */
    abstract MemorySegment newContext();

    /**
     * Copies {@code src}'s state into {@code into}, or into a new context that replaces it (which frees
     * {@code into}); returns the context that now holds the copy. {@code src} is only read.
     */
    abstract MemorySegment copy(MemorySegment src, MemorySegment into);

    abstract void free(MemorySegment ctx);

    /** {@code ctx}'s state as bytes on the heap, where the backend's states are plain bytes; else null. */
    byte[] save(MemorySegment ctx) {
        return null;
    }

    /** Puts a state from {@link #save} into {@code ctx}, whatever it held. */
    void restore(byte[] state, MemorySegment ctx) {
        throw new UnsupportedOperationException("SM3 states are not saved as bytes here");
    }

    /**
     * A context holding a copy of {@code src}'s state for one message that ends at the next final: {@code spare},
     * a context whose state is no longer needed, copied into; or a new one. Hand it to {@link #dropCopy} after
     * the final; {@code spare} stays valid either way.
     */
    MemorySegment copyForOneMessage(MemorySegment src, MemorySegment spare) {
        return copy(src, spare);
    }

    /** Frees what {@link #copyForOneMessage} made, if it made anything. */
    void dropCopy(MemorySegment copy, MemorySegment spare) {
    }

    /** Starts a new message on {@code ctx}, clearing whatever state it held. */
    abstract void init(MemorySegment ctx);

    /**
     * Clears whatever state {@code ctx} held (a key's, a secret's, a digest's), for a context that is started
     * again before its next use: by starting a message on it, which zeroes the state first.
     */
    void clear(MemorySegment ctx) {
        init(ctx);
    }

    /** Feeds {@code len} bytes of {@code data} (heap or native) in one short critical call. */
    abstract void update(MemorySegment ctx, MemorySegment data, long len);

    /** Feeds native {@code data} of any length in an ordinary call, during which GC may run. */
    abstract void updateNative(MemorySegment ctx, MemorySegment data, long len);

    /**
     * Finishes the message on {@code ctx} into the 32 bytes at {@code out}; {@code outl}, 8 bytes of native
     * memory, may receive the length written.
     */
    abstract void finalInto(MemorySegment ctx, MemorySegment out, MemorySegment outl);

    /** {@code ctx}, unless an allocation returned NULL. */
    static MemorySegment made(MemorySegment ctx, String call) {
        if (ctx.equals(MemorySegment.NULL)) {
            throw OpenSSLErrors.failure(call);
        }
        return ctx;
    }

    /** The provider's own functions, found and linked by {@link DirectSm3}; subclasses copy its way. */
    abstract static sealed class Provider extends Sm3Calls
            permits Provider.Copyctx, Provider.StateBytes, Provider.Dupctx {
        @Override
        String description() {
            return "SM3 functions of OpenSSL's \"" + DirectSm3.PROVIDER_NAME + "\" provider, called directly; "
                    + "contexts copied " + copies();
        }

        abstract String copies();

        @Override
        MemorySegment newContext() {
            try {
                return made(NativeFaults.ON && NativeFaults.fail(MemorySegment.NULL) ? MemorySegment.NULL
                        : (MemorySegment) DirectSm3.NEWCTX.invokeExact(DirectSm3.PROVIDER_CTX), "SM3 newctx");
            } catch (Throwable t) {
                throw OpenSSLErrors.rethrow(t);
            }
        }

        static MemorySegment dup(MemorySegment src) {
            try {
                return made(NativeFaults.ON && NativeFaults.fail(MemorySegment.NULL) ? MemorySegment.NULL
                        : (MemorySegment) DirectSm3.DUPCTX.invokeExact(src), "SM3 dupctx");
            } catch (Throwable t) {
                throw OpenSSLErrors.rethrow(t);
            }
        }

        // The provider's freectx clears the context as it frees it.
        @Override
        void free(MemorySegment ctx) {
            if (NativeFaults.ON) {
                NativeFaults.freeing(ctx);
            }
            try {
                DirectSm3.FREECTX.invokeExact(ctx);
            } catch (Throwable t) {
                throw OpenSSLErrors.rethrow(t);
            }
        }

        // The provider's init zeroes the whole SM3 state before it sets the IV.
        @Override
        void init(MemorySegment ctx) {
            int rc;
            try {
                rc = NativeFaults.ON && NativeFaults.fail(ctx) ? 0
                        : (int) DirectSm3.INIT.invokeExact(ctx, MemorySegment.NULL);
            } catch (Throwable t) {
                throw OpenSSLErrors.rethrow(t);
            }
            OpenSSLErrors.check(rc, "SM3 init");
        }

        @Override
        void update(MemorySegment ctx, MemorySegment data, long len) {
            int rc;
            try {
                rc = NativeFaults.ON && NativeFaults.fail(ctx) ? 0
                        : (int) DirectSm3.UPDATE.invokeExact(ctx, data, len);
            } catch (Throwable t) {
                throw OpenSSLErrors.rethrow(t);
            }
            OpenSSLErrors.check(rc, "SM3 update");
        }

        @Override
        void updateNative(MemorySegment ctx, MemorySegment data, long len) {
            int rc;
            try {
                rc = NativeFaults.ON && NativeFaults.fail(ctx) ? 0
                        : (int) DirectSm3.Ordinary.UPDATE.invokeExact(ctx, data, len);
            } catch (Throwable t) {
                throw OpenSSLErrors.rethrow(t);
            }
            OpenSSLErrors.check(rc, "SM3 update");
        }

        @Override
        void finalInto(MemorySegment ctx, MemorySegment out, MemorySegment outl) {
            int rc;
            try {
                rc = NativeFaults.ON && NativeFaults.fail(ctx) ? 0
                        : (int) DirectSm3.FINAL.invokeExact(ctx, out, outl, (long) DIGEST_LENGTH);
            } catch (Throwable t) {
                throw OpenSSLErrors.rethrow(t);
            }
            OpenSSLErrors.check(rc, "SM3 final");
            long n = outl.get(JAVA_LONG, 0);
            if (n != DIGEST_LENGTH) {
                throw new ProviderException("SM3 final wrote " + n + " bytes, not " + DIGEST_LENGTH);
            }
        }

        /** Copies into the context itself with the provider's copyctx (OpenSSL 3.5 and later), which cannot fail. */
        static final class Copyctx extends Provider {
            @Override
            String copies() {
                return "by its copyctx";
            }

            @Override
            MemorySegment copy(MemorySegment src, MemorySegment into) {
                try {
                    DirectSm3.COPYCTX.invokeExact(into, src);
                } catch (Throwable t) {
                    throw OpenSSLErrors.rethrow(t);
                }
                return into;
            }
        }

        /**
         * Copies the {@value DirectSm3#SM3_CTX_BYTES} bytes of OpenSSL's own {@code SM3_CTX} from Java, the struct
         * assignment that the provider's dupctx makes (OpenSSL 3.0 to 3.4), into a context that exists: no malloc
         * and free around it. Chosen only where {@link DirectSm3} has proved the layout. States are plain bytes,
         * so they can also wait on the heap ({@link #save}).
         */
        static final class StateBytes extends Provider {
            @Override
            String copies() {
                return "as " + DirectSm3.SM3_CTX_BYTES + "-byte states";
            }

            // Sized, so that copies take the whole state and nothing past it.
            @Override
            MemorySegment newContext() {
                return super.newContext().reinterpret(DirectSm3.SM3_CTX_BYTES);
            }

            // Eight-byte loads and stores, which beat MemorySegment.copy's bulk path in HKDF (docs/design.md).
            @Override
            MemorySegment copy(MemorySegment src, MemorySegment into) {
                long at = 0;
                for (; at + Long.BYTES <= DirectSm3.SM3_CTX_BYTES; at += Long.BYTES) {
                    into.set(JAVA_LONG_UNALIGNED, at, src.get(JAVA_LONG_UNALIGNED, at));
                }
                for (; at < DirectSm3.SM3_CTX_BYTES; at++) {
                    into.set(JAVA_BYTE, at, src.get(JAVA_BYTE, at));
                }
                return into;
            }

            // Zeroes the proved 108 bytes from Java, as init's memset does, without a downcall.
            @Override
            void clear(MemorySegment ctx) {
                ctx.fill((byte) 0);
            }

            @Override
            byte[] save(MemorySegment ctx) {
                return ctx.toArray(JAVA_BYTE);
            }

            @Override
            void restore(byte[] state, MemorySegment ctx) {
                MemorySegment.copy(state, 0, ctx, JAVA_BYTE, 0, (int) DirectSm3.SM3_CTX_BYTES);
            }
        }

        /**
         * Copies with the provider's dupctx, which allocates: a copy replaces the context given, and a copy for
         * one message is a temporary freed after its final, which leaves the spare as it is.
         */
        static final class Dupctx extends Provider {
            @Override
            String copies() {
                return "by its dupctx";
            }

            @Override
            MemorySegment copy(MemorySegment src, MemorySegment into) {
                MemorySegment dup = dup(src);
                free(into);
                return dup;
            }

            @Override
            MemorySegment copyForOneMessage(MemorySegment src, MemorySegment spare) {
                return dup(src);
            }

            @Override
            void dropCopy(MemorySegment copy, MemorySegment spare) {
                if (copy != spare) {
                    free(copy);
                }
            }
        }
    }

    /** {@code EVP_Digest*} on {@code EVP_MD_CTX}s for the {@code EVP_MD} that the loader fetched once. */
    static final class Evp extends Sm3Calls {
        // jextract cannot emit critical handles: these are linked here, their C types as in the bindings
        // (a test compares them). int EVP_DigestInit_ex2(EVP_MD_CTX *, const EVP_MD *, const OSSL_PARAM *)
        static final MethodHandle INIT = LibCrypto.downcall("EVP_DigestInit_ex2",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS), Linker.Option.critical(false));
        // int EVP_DigestUpdate(EVP_MD_CTX *, const void *, size_t)
        private static final FunctionDescriptor UPDATE_DESCRIPTOR = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS,
                JAVA_LONG);
        static final MethodHandle UPDATE = LibCrypto.downcall("EVP_DigestUpdate", UPDATE_DESCRIPTOR,
                Linker.Option.critical(true));
        // int EVP_DigestFinal_ex(EVP_MD_CTX *, unsigned char *, unsigned int *)
        static final MethodHandle FINAL = LibCrypto.downcall("EVP_DigestFinal_ex",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS), Linker.Option.critical(false));

        // Linked on first use, as in DirectSm3: short-lived programs never feed native memory.
        static final class Ordinary {
            static final MethodHandle UPDATE = LibCrypto.downcall("EVP_DigestUpdate", UPDATE_DESCRIPTOR);
        }

        // Contexts are asked for only once SM3 has passed its self-test, so the fetch has succeeded.
        private final MemorySegment md = LibCrypto.fetchedSm3();

        @Override
        String description() {
            return "EVP (" + DirectSm3.REASON + ")";
        }

        @Override
        MemorySegment newContext() {
            return made(NativeFaults.ON && NativeFaults.fail(MemorySegment.NULL) ? MemorySegment.NULL
                    : EVP_MD_CTX_new(), "EVP_MD_CTX_new");
        }

        @Override
        MemorySegment copy(MemorySegment src, MemorySegment into) {
            // A failed copy leaves the destination's state unknown; the source is only read.
            int rc = NativeFaults.ON && NativeFaults.fail(into) ? 0 : EVP_MD_CTX_copy_ex(into, src);
            OpenSSLErrors.check(rc, "EVP_MD_CTX_copy_ex");
            return into;
        }

        // EVP_MD_CTX_free resets the context, whose provider clears its state as it frees it.
        @Override
        void free(MemorySegment ctx) {
            if (NativeFaults.ON) {
                NativeFaults.freeing(ctx);
            }
            EVP_MD_CTX_free(ctx);
        }

        @Override
        void init(MemorySegment ctx) {
            int rc;
            try {
                rc = NativeFaults.ON && NativeFaults.fail(ctx) ? 0 : (int) INIT.invokeExact(ctx, md, MemorySegment.NULL);
            } catch (Throwable t) {
                throw OpenSSLErrors.rethrow(t);
            }
            OpenSSLErrors.check(rc, "EVP_DigestInit_ex2");
        }

        @Override
        void update(MemorySegment ctx, MemorySegment data, long len) {
            int rc;
            try {
                rc = NativeFaults.ON && NativeFaults.fail(ctx) ? 0 : (int) UPDATE.invokeExact(ctx, data, len);
            } catch (Throwable t) {
                throw OpenSSLErrors.rethrow(t);
            }
            OpenSSLErrors.check(rc, "EVP_DigestUpdate");
        }

        @Override
        void updateNative(MemorySegment ctx, MemorySegment data, long len) {
            int rc;
            try {
                rc = NativeFaults.ON && NativeFaults.fail(ctx) ? 0 : (int) Ordinary.UPDATE.invokeExact(ctx, data, len);
            } catch (Throwable t) {
                throw OpenSSLErrors.rethrow(t);
            }
            OpenSSLErrors.check(rc, "EVP_DigestUpdate");
        }

        @Override
        void finalInto(MemorySegment ctx, MemorySegment out, MemorySegment outl) {
            int rc;
            try {
                rc = NativeFaults.ON && NativeFaults.fail(ctx) ? 0 : (int) FINAL.invokeExact(ctx, out, MemorySegment.NULL);
            } catch (Throwable t) {
                throw OpenSSLErrors.rethrow(t);
            }
            OpenSSLErrors.check(rc, "EVP_DigestFinal_ex");
        }
    }
}
