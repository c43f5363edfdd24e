package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_CTX_copy_ex;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_CTX_free;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_CTX_new;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.security.ProviderException;

/**
 * The SM3 calls on one kind of native context: the provider's own functions ({@link DirectSm3}) or
 * {@code EVP_MD_CTX}s. One of the two is chosen when the class loads and kept in {@link #SELECTED}, a
 * constant to the JIT, so a hot path compiles to the chosen calls alone, whatever it inlines.
 *
 * <p>Every method handle is a {@code static final} field read by the method that invokes it, never a field
 * of an object passed around: a method compiled on its own (not inlined into its caller) still sees the
 * handle as a constant, and its call compiles to a direct native call. A handle read from an instance field
 * is a constant only where the JIT inlines the whole chain from a constant receiver, which depends on the
 * order in which methods happen to be compiled.
 */
abstract sealed class Sm3Calls permits Sm3Calls.Provider, Sm3Calls.Evp {
    static final Sm3Calls SELECTED = DirectSm3.ENABLED ? new Provider() : new Evp();

    /** A new context, not yet started. */
    abstract MemorySegment newContext();

    /**
     * Copies {@code src}'s state into {@code into}, or into a new context that replaces it (which frees
     * {@code into}); returns the context that now holds the copy.
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
     * A context holding a copy of {@code src}'s state for one message that ends at the next final: a new one,
     * or {@code spare}, a context whose state is no longer needed. Hand it to {@link #dropCopy} after the
     * final; {@code spare} stays valid either way.
     */
    abstract MemorySegment copyForOneMessage(MemorySegment src, MemorySegment spare);

    /** Frees what {@link #copyForOneMessage} made, if it made anything. */
    abstract void dropCopy(MemorySegment copy, MemorySegment spare);

    /** Starts a new message on {@code ctx}. */
    abstract void init(MemorySegment ctx);

    /** Feeds {@code len} bytes of {@code data} (heap or native) in one short critical call. */
    abstract void update(MemorySegment ctx, MemorySegment data, long len);

    /** Feeds native {@code data} of any length in an ordinary call, during which GC may run. */
    abstract void updateNative(MemorySegment ctx, MemorySegment data, long len);

    /**
     * Finishes the message on {@code ctx} into the 32 bytes at {@code out}; {@code outl}, 8 bytes of native
     * memory, may receive the length written.
     */
    abstract void finalInto(MemorySegment ctx, MemorySegment out, MemorySegment outl);

    /** The provider's own functions, found and linked by {@link DirectSm3}. */
    static final class Provider extends Sm3Calls {
        // Sized where copies are made in Java, so that they copy the whole state and nothing past it.
        @Override
        MemorySegment newContext() {
            MemorySegment ctx;
            try {
                ctx = made((MemorySegment) DirectSm3.NEWCTX.invokeExact(DirectSm3.PROVIDER_CTX), "SM3 newctx");
            } catch (Throwable t) {
                throw OpenSSLErrors.rethrow(t);
            }
            return DirectSm3.STATE_BYTES != 0 ? ctx.reinterpret(DirectSm3.STATE_BYTES) : ctx;
        }

        // Into the context itself: with copyctx, or as bytes where that is the provider's own copy (OpenSSL
        // 3.0 to 3.4); else its dupctx makes a new context that replaces it.
        @Override
        MemorySegment copy(MemorySegment src, MemorySegment into) {
            if (DirectSm3.STATE_BYTES != 0) {
                copyState(src, into);
                return into;
            }
            if (DirectSm3.COPYCTX == null) {
                return replaceWithDup(src, into);
            }
            copyInto(src, into);
            return into;
        }

        static void copyInto(MemorySegment src, MemorySegment into) {
            try {
                DirectSm3.COPYCTX.invokeExact(into, src);
            } catch (Throwable t) {
                throw OpenSSLErrors.rethrow(t);
            }
        }

        /**
         * The provider's struct assignment, done here: eight-byte loads and stores, which for 108 bytes measured
         * no slower than {@code MemorySegment.copy}'s bulk path and faster at HKDF to 64 bytes (docs/design.md).
         */
        static void copyState(MemorySegment src, MemorySegment into) {
            long at = 0;
            for (; at + Long.BYTES <= DirectSm3.STATE_BYTES; at += Long.BYTES) {
                into.set(JAVA_LONG_UNALIGNED, at, src.get(JAVA_LONG_UNALIGNED, at));
            }
            for (; at < DirectSm3.STATE_BYTES; at++) {
                into.set(JAVA_BYTE, at, src.get(JAVA_BYTE, at));
            }
        }

        // The state is its SM3_CTX's bytes where copies are made in Java (OpenSSL 3.0 to 3.4).
        @Override
        byte[] save(MemorySegment ctx) {
            return DirectSm3.STATE_BYTES == 0 ? null : ctx.toArray(JAVA_BYTE);
        }

        @Override
        void restore(byte[] state, MemorySegment ctx) {
            MemorySegment.copy(state, 0, ctx, JAVA_BYTE, 0, (int) DirectSm3.STATE_BYTES);
        }

        MemorySegment replaceWithDup(MemorySegment src, MemorySegment into) {
            MemorySegment dup = dup(src);
            free(into);
            return dup;
        }

        private static MemorySegment dup(MemorySegment src) {
            try {
                return made((MemorySegment) DirectSm3.DUPCTX.invokeExact(src), "SM3 dupctx");
            } catch (Throwable t) {
                throw OpenSSLErrors.rethrow(t);
            }
        }

        private static MemorySegment made(MemorySegment ctx, String call) {
            if (ctx.equals(MemorySegment.NULL)) {
                throw OpenSSLErrors.failure(call);
            }
            return ctx;
        }

        // The provider's freectx clears the context as it frees it.
        @Override
        void free(MemorySegment ctx) {
            try {
                DirectSm3.FREECTX.invokeExact(ctx);
            } catch (Throwable t) {
                throw OpenSSLErrors.rethrow(t);
            }
        }

        // The spare itself, copied into as copy() does; else a temporary dup, freed after the final, which
        // leaves the spare as it is and never escapes to the heap.
        @Override
        MemorySegment copyForOneMessage(MemorySegment src, MemorySegment spare) {
            if (DirectSm3.STATE_BYTES == 0 && DirectSm3.COPYCTX == null) {
                return dup(src);
            }
            return copy(src, spare);
        }

        @Override
        void dropCopy(MemorySegment copy, MemorySegment spare) {
            if (copy != spare) {
                free(copy);
            }
        }

        @Override
        void init(MemorySegment ctx) {
            int rc;
            try {
                rc = (int) DirectSm3.INIT.invokeExact(ctx, MemorySegment.NULL);
            } catch (Throwable t) {
                throw OpenSSLErrors.rethrow(t);
            }
            OpenSSLErrors.check(rc, "SM3 init");
        }

        @Override
        void update(MemorySegment ctx, MemorySegment data, long len) {
            int rc;
            try {
                rc = (int) DirectSm3.UPDATE.invokeExact(ctx, data, len);
            } catch (Throwable t) {
                throw OpenSSLErrors.rethrow(t);
            }
            OpenSSLErrors.check(rc, "SM3 update");
        }

        @Override
        void updateNative(MemorySegment ctx, MemorySegment data, long len) {
            int rc;
            try {
                rc = (int) DirectSm3.Ordinary.UPDATE.invokeExact(ctx, data, len);
            } catch (Throwable t) {
                throw OpenSSLErrors.rethrow(t);
            }
            OpenSSLErrors.check(rc, "SM3 update");
        }

        @Override
        void finalInto(MemorySegment ctx, MemorySegment out, MemorySegment outl) {
            int rc;
            try {
                rc = (int) DirectSm3.FINAL.invokeExact(ctx, out, outl, (long) DIGEST_LENGTH);
            } catch (Throwable t) {
                throw OpenSSLErrors.rethrow(t);
            }
            OpenSSLErrors.check(rc, "SM3 final");
            long n = outl.get(JAVA_LONG, 0);
            if (n != DIGEST_LENGTH) {
                throw new ProviderException("SM3 final wrote " + n + " bytes, not " + DIGEST_LENGTH);
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
        MemorySegment newContext() {
            MemorySegment ctx = EVP_MD_CTX_new();
            if (ctx.equals(MemorySegment.NULL)) {
                throw OpenSSLErrors.failure("EVP_MD_CTX_new");
            }
            return ctx;
        }

        @Override
        MemorySegment copy(MemorySegment src, MemorySegment into) {
            if (EVP_MD_CTX_copy_ex(into, src) != 1) {
                throw OpenSSLErrors.failure("EVP_MD_CTX_copy_ex");
            }
            return into;
        }

        @Override
        void free(MemorySegment ctx) {
            EVP_MD_CTX_free(ctx);
        }

        @Override
        MemorySegment copyForOneMessage(MemorySegment src, MemorySegment spare) {
            return copy(src, spare);
        }

        @Override
        void dropCopy(MemorySegment copy, MemorySegment spare) {
            // The spare itself: nothing to free.
        }

        @Override
        void init(MemorySegment ctx) {
            int rc;
            try {
                rc = (int) INIT.invokeExact(ctx, md, MemorySegment.NULL);
            } catch (Throwable t) {
                throw OpenSSLErrors.rethrow(t);
            }
            OpenSSLErrors.check(rc, "EVP_DigestInit_ex2");
        }

        @Override
        void update(MemorySegment ctx, MemorySegment data, long len) {
            int rc;
            try {
                rc = (int) UPDATE.invokeExact(ctx, data, len);
            } catch (Throwable t) {
                throw OpenSSLErrors.rethrow(t);
            }
            OpenSSLErrors.check(rc, "EVP_DigestUpdate");
        }

        @Override
        void updateNative(MemorySegment ctx, MemorySegment data, long len) {
            int rc;
            try {
                rc = (int) Ordinary.UPDATE.invokeExact(ctx, data, len);
            } catch (Throwable t) {
                throw OpenSSLErrors.rethrow(t);
            }
            OpenSSLErrors.check(rc, "EVP_DigestUpdate");
        }

        @Override
        void finalInto(MemorySegment ctx, MemorySegment out, MemorySegment outl) {
            int rc;
            try {
                rc = (int) FINAL.invokeExact(ctx, out, MemorySegment.NULL);
            } catch (Throwable t) {
                throw OpenSSLErrors.rethrow(t);
            }
            OpenSSLErrors.check(rc, "EVP_DigestFinal_ex");
        }
    }
}
