package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;
import static io.github.sm3ffm.internal.openssl.OpenSSL.C_POINTER;
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
 * The provider's own SM3 functions, found by {@link DirectSm3} and linked here ({@link Functions}): every native
 * function this backend calls is named in this file. Subclasses copy contexts each its way.
 */
abstract sealed class ProviderBackend implements Backend
        permits ProviderBackend.Copyctx, ProviderBackend.StateBytes, ProviderBackend.Dupctx {
    /**
     * The functions {@link DirectSm3.Lookup} found, linked: a holder of its own, which DirectSm3's checks call
     * before any backend is chosen. Null where nothing was found (EVP serves SM3) and, for copyctx, before
     * OpenSSL 3.5.
     */
    static final class Functions {
        private static final DirectSm3.Found FOUND = DirectSm3.Lookup.FOUND;
        static final MemorySegment PROVIDER_CTX = FOUND.providerCtx();

        // With the bindings' pointer layout, as EVP_MD_get0_provider has: the same call shape shares its generated
        // stub, one fewer at start-up. A context is opaque here; StateBytes reads one through a 108-byte view.
        static final MethodHandle NEWCTX = link(FOUND.newctx(), FunctionDescriptor.of(C_POINTER, C_POINTER));
        // Not critical: init and dupctx are the first native call of a message and of a clone. Only an ordinary
        // downcall clears the upper halves of the vector registers on its way back (HotSpot's vzeroupper after
        // the transition); on CPUs with AVX-512, wide-vector JIT code before a critical call slowed the SM3 calls
        // after it in some JVMs (docs/design-notebook.md). The EVP path's init showed no such fork and stays critical.
        static final MethodHandle INIT = link(FOUND.init(), FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        static final MethodHandle DUPCTX = link(FOUND.dupctx(), FunctionDescriptor.of(C_POINTER, C_POINTER));
        // copyctx takes dupctx's place where the provider has it, ordinary for the same reason: linked critical,
        // it slowed PBKDF2 on OpenSSL 3.5 (docs/design-notebook.md).
        static final MethodHandle COPYCTX = link(FOUND.copyctx(), FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
        // Update is linked twice: critical for short input (heap arrays read in place, no thread transition),
        // ordinary for long native input, during which GC may run; that one on first use (see Ordinary).
        private static final FunctionDescriptor UPDATE_DESCRIPTOR = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS,
                JAVA_LONG);
        static final MethodHandle UPDATE = link(FOUND.update(), UPDATE_DESCRIPTOR, Linker.Option.critical(true));
        // Final writes a digest into the staging buffer, and its length into a heap word (hence critical).
        static final MethodHandle FINAL = link(FOUND.fin(),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG), Linker.Option.critical(true));
        // Critical too: a free of about 100 bytes is shorter than a thread transition.
        static final MethodHandle FREECTX = link(FOUND.freectx(), FunctionDescriptor.ofVoid(ADDRESS),
                Linker.Option.critical(false));

        private Functions() {
        }

        // Linked when a native segment first needs it: each downcall shape costs milliseconds of start-up
        // (a generated stub), and short-lived programs never feed native memory. Still a constant to the JIT.
        static final class Ordinary {
            static final MethodHandle UPDATE = link(FOUND.update(), UPDATE_DESCRIPTOR);

            private Ordinary() {
            }
        }

        private static MethodHandle link(MemorySegment function, FunctionDescriptor descriptor,
                                         Linker.Option... options) {
            return function == null ? null : Linker.nativeLinker().downcallHandle(function, descriptor, options);
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
     * Copies the {@value DirectSm3#SM3_CTX_BYTES} bytes of OpenSSL's own {@code SM3_CTX} from Java, the struct
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
            return "as " + DirectSm3.SM3_CTX_BYTES + "-byte states";
        }

        // Sized, so that copies take the whole state and nothing past it.
        @Override
        public MemorySegment newContext() {
            return super.newContext().reinterpret(DirectSm3.SM3_CTX_BYTES);
        }

        // Eight-byte loads and stores, which beat MemorySegment.copy's bulk path in HKDF (docs/design-notebook.md).
        @Override
        public MemorySegment copy(MemorySegment src, MemorySegment into) {
            long at = 0;
            for (; at + Long.BYTES <= DirectSm3.SM3_CTX_BYTES; at += Long.BYTES) {
                into.set(JAVA_LONG_UNALIGNED, at, src.get(JAVA_LONG_UNALIGNED, at));
            }
            for (; at < DirectSm3.SM3_CTX_BYTES; at++) {
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
            MemorySegment.copy(state, 0, ctx, JAVA_BYTE, 0, (int) DirectSm3.SM3_CTX_BYTES);
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
