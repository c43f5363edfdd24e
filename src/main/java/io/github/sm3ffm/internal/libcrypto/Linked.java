package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.openssl.OpenSSL.C_POINTER;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The provider's SM3 functions that {@link ProviderLookup} found, linked: what the checks call, and, once the
 * choice is final, what {@link ProviderBackend}'s constants are. {@code copyInto} is null before OpenSSL 3.5.
 */
record Linked(MemorySegment providerCtx, MemorySegment updateAddress, MethodHandle newContext, MethodHandle start,
              MethodHandle feed, MethodHandle finish, MethodHandle free, MethodHandle duplicate,
              MethodHandle copyInto) implements ProviderCalls {
    // Update is linked twice: critical for short input (heap arrays read in place, no thread transition),
    // ordinary for long native input, during which GC may run; that one on first use (see ordinaryUpdate).
    private static final FunctionDescriptor UPDATE_DESCRIPTOR = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS,
            JAVA_LONG);

    static Linked of(Found found) {
        return new Linked(found.providerCtx(), found.update(),
                // With the bindings' pointer layout, as EVP_MD_get0_provider has: the same call shape shares its
                // generated stub, one fewer at start-up. A context is opaque here; StateBytes reads one through a
                // 108-byte view.
                link(found.newctx(), FunctionDescriptor.of(C_POINTER, C_POINTER)),
                // Not critical: init and dupctx are the first native call of a message and of a clone. Only an
                // ordinary downcall clears the upper halves of the vector registers on its way back (HotSpot's
                // vzeroupper after the transition); on CPUs with AVX-512, wide-vector JIT code before a critical
                // call slowed the SM3 calls after it in some JVMs (docs/design-notebook.md). The EVP path's init
                // showed no such fork and stays critical.
                link(found.init(), FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS)),
                link(found.update(), UPDATE_DESCRIPTOR, Linker.Option.critical(true)),
                // Final writes a digest into the staging buffer, and its length into a heap word (hence critical).
                link(found.fin(), FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG),
                        Linker.Option.critical(true)),
                // Critical too: a free of about 100 bytes is shorter than a thread transition.
                link(found.freectx(), FunctionDescriptor.ofVoid(ADDRESS), Linker.Option.critical(false)),
                link(found.dupctx(), FunctionDescriptor.of(C_POINTER, C_POINTER)),
                // copyctx takes dupctx's place where the provider has it, ordinary for the same reason as init:
                // linked critical, it slowed PBKDF2 on OpenSSL 3.5 (docs/design-notebook.md).
                link(found.copyctx(), FunctionDescriptor.ofVoid(ADDRESS, ADDRESS)));
    }

    /**
     * Update as an ordinary downcall, linked when a native segment first needs it: each downcall shape costs
     * milliseconds of start-up (a generated stub), and short-lived programs never feed native memory.
     */
    MethodHandle ordinaryUpdate() {
        return link(updateAddress, UPDATE_DESCRIPTOR);
    }

    private static MethodHandle link(MemorySegment function, FunctionDescriptor descriptor, Linker.Option... options) {
        return function == null ? null : Linker.nativeLinker().downcallHandle(function, descriptor, options);
    }

    @Override
    public MemorySegment newctx() throws Throwable {
        return (MemorySegment) newContext.invokeExact(providerCtx);
    }

    @Override
    public int init(MemorySegment ctx) throws Throwable {
        return (int) start.invokeExact(ctx, MemorySegment.NULL);
    }

    @Override
    public int update(MemorySegment ctx, MemorySegment data, long len) throws Throwable {
        return (int) feed.invokeExact(ctx, data, len);
    }

    @Override
    public MemorySegment dupctx(MemorySegment ctx) throws Throwable {
        return (MemorySegment) duplicate.invokeExact(ctx);
    }

    @Override
    public int fin(MemorySegment ctx, MemorySegment out, MemorySegment outl) throws Throwable {
        return (int) finish.invokeExact(ctx, out, outl, (long) Sm3Sizes.DIGEST_LENGTH);
    }

    @Override
    public void freectx(MemorySegment ctx) throws Throwable {
        free.invokeExact(ctx);
    }
}
