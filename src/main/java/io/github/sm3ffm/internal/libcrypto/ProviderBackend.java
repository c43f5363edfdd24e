package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.security.ProviderException;

/**
 * The provider's own SM3 functions, found by {@link ProviderLookup}, checked by {@link DirectSm3} and linked
 * ({@link Linked}); every native function this backend calls is named in this file. Subclasses copy contexts each
 * its way.
 */
abstract sealed class ProviderBackend extends MallocBackend
        permits ProviderBackend.Copyctx, ProviderBackend.StateBytes, ProviderBackend.Dupctx {
    /**
     * The functions of the final choice ({@link ChosenFunctions}), as constants to the JIT: a holder of its own,
     * read only once a provider backend exists, which the choice makes only after it has settled them.
     */
    static final class Functions {
        private static final Linked LINKED = ChosenFunctions.linked();
        static final MemorySegment PROVIDER_CTX = LINKED.providerCtx();
        static final MethodHandle NEWCTX = LINKED.newContext();
        static final MethodHandle INIT = LINKED.start();
        static final MethodHandle DUPCTX = LINKED.duplicate();
        static final MethodHandle COPYCTX = LINKED.copyInto();
        static final MethodHandle UPDATE = LINKED.feed();
        static final MethodHandle FINAL = LINKED.finish();
        static final MethodHandle FREECTX = LINKED.free();

        private Functions() {
        }

        // Linked when a native segment first needs it (see Linked.ordinaryUpdate). Still a constant to the JIT.
        static final class Ordinary {
            static final MethodHandle UPDATE = LINKED.ordinaryUpdate();

            private Ordinary() {
            }
        }
    }

    private final String provider;

    ProviderBackend(String provider) {
        this.provider = provider;
    }

    @Override
    public String description() {
        return "SM3 functions of OpenSSL's \"" + provider + "\" provider, called directly; contexts copied "
                + copies();
    }

    abstract String copies();

    @Override
    public MemorySegment newContext() {
        try {
            return OpenSSLErrors.allocated((MemorySegment) Functions.NEWCTX.invokeExact(Functions.PROVIDER_CTX),
                    "SM3 newctx");
        } catch (Throwable t) {
            throw OpenSSLErrors.rethrow(t);
        }
    }

    static MemorySegment dup(MemorySegment src) {
        try {
            return OpenSSLErrors.allocated((MemorySegment) Functions.DUPCTX.invokeExact(src), "SM3 dupctx");
        } catch (Throwable t) {
            throw OpenSSLErrors.rethrow(t);
        }
    }

    // The provider's freectx clears the context as it frees it.
    @Override
    public void free(MemorySegment ctx) {
        try {
            Functions.FREECTX.invokeExact(ctx);
        } catch (Throwable t) {
            throw OpenSSLErrors.rethrow(t);
        }
    }

    // The provider's init zeroes the whole SM3 state before it sets the IV.
    @Override
    public void init(MemorySegment ctx) {
        int rc;
        try {
            rc = (int) Functions.INIT.invokeExact(ctx, MemorySegment.NULL);
        } catch (Throwable t) {
            throw OpenSSLErrors.rethrow(t);
        }
        OpenSSLErrors.check(rc, "SM3 init");
    }

    // A clear is an init; its own downcall, so that it is no deeper below the pool than an init below a stream.
    @Override
    public void clear(MemorySegment ctx) {
        try {
            OpenSSLErrors.check((int) Functions.INIT.invokeExact(ctx, MemorySegment.NULL), "SM3 init");
        } catch (Throwable t) {
            throw OpenSSLErrors.rethrow(t);
        }
    }

    @Override
    public void update(MemorySegment ctx, MemorySegment data, long len) {
        int rc;
        try {
            rc = (int) Functions.UPDATE.invokeExact(ctx, data, len);
        } catch (Throwable t) {
            throw OpenSSLErrors.rethrow(t);
        }
        OpenSSLErrors.check(rc, "SM3 update");
    }

    @Override
    public void updateNative(MemorySegment ctx, MemorySegment data, long len) {
        int rc;
        try {
            rc = (int) Functions.Ordinary.UPDATE.invokeExact(ctx, data, len);
        } catch (Throwable t) {
            throw OpenSSLErrors.rethrow(t);
        }
        OpenSSLErrors.check(rc, "SM3 update");
    }

    @Override
    public void finalInto(MemorySegment ctx, MemorySegment out, MemorySegment outl) {
        int rc;
        try {
            rc = (int) Functions.FINAL.invokeExact(ctx, out, outl, (long) DIGEST_LENGTH);
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
    static final class Copyctx extends ProviderBackend {
        Copyctx(String provider) {
            super(provider);
        }

        @Override
        String copies() {
            return "by its copyctx";
        }

        @Override
        public MemorySegment copy(MemorySegment src, MemorySegment into) {
            try {
                Functions.COPYCTX.invokeExact(into, src);
            } catch (Throwable t) {
                throw OpenSSLErrors.rethrow(t);
            }
            return into;
        }
    }

    /**
     * Copies the {@value Sm3CtxLayout#SM3_CTX_BYTES} bytes of OpenSSL's own {@code SM3_CTX} from Java, the struct
     * assignment that the provider's dupctx makes (OpenSSL 3.0 to 3.4), into a context that exists: no malloc
     * and free around it. Chosen only where {@link DirectSm3} has proved the layout. States are plain bytes,
     * so they can also wait on the heap ({@link #save}).
     */
    static final class StateBytes extends ProviderBackend {
        StateBytes(String provider) {
            super(provider);
        }

        @Override
        String copies() {
            return "as " + Sm3CtxLayout.SM3_CTX_BYTES + "-byte states";
        }

        // Sized, so that copies take the whole state and nothing past it.
        @Override
        public MemorySegment newContext() {
            return super.newContext().reinterpret(Sm3CtxLayout.SM3_CTX_BYTES);
        }

        // Eight-byte loads and stores, which beat MemorySegment.copy's bulk path in HKDF (docs/design-notebook.md).
        @Override
        public MemorySegment copy(MemorySegment src, MemorySegment into) {
            long at = 0;
            for (; at + Long.BYTES <= Sm3CtxLayout.SM3_CTX_BYTES; at += Long.BYTES) {
                into.set(JAVA_LONG_UNALIGNED, at, src.get(JAVA_LONG_UNALIGNED, at));
            }
            for (; at < Sm3CtxLayout.SM3_CTX_BYTES; at++) {
                into.set(JAVA_BYTE, at, src.get(JAVA_BYTE, at));
            }
            return into;
        }

        @Override
        public byte[] save(MemorySegment ctx) {
            return ctx.toArray(JAVA_BYTE);
        }

        @Override
        public void restore(byte[] state, MemorySegment ctx) {
            MemorySegment.copy(state, 0, ctx, JAVA_BYTE, 0, (int) Sm3CtxLayout.SM3_CTX_BYTES);
        }
    }

    /**
     * Copies with the provider's dupctx, which allocates: a copy replaces the context given, and a copy for
     * one message is a temporary freed after its final, which leaves the spare as it is.
     */
    static final class Dupctx extends ProviderBackend {
        Dupctx(String provider) {
            super(provider);
        }

        @Override
        String copies() {
            return "by its dupctx";
        }

        @Override
        public MemorySegment copy(MemorySegment src, MemorySegment into) {
            MemorySegment dup = dup(src);
            free(into);
            return dup;
        }

        @Override
        public MemorySegment copyForOneMessage(MemorySegment src, MemorySegment spare) {
            return dup(src);
        }

        @Override
        public void dropCopy(MemorySegment copy, MemorySegment spare) {
            if (copy != spare) {
                free(copy);
            }
        }
    }
}
