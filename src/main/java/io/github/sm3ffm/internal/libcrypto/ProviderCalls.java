package io.github.sm3ffm.internal.libcrypto;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;

/**
 * The provider's SM3 functions as the checks before a backend exists call them ({@link DirectSm3},
 * {@link Sm3CtxLayout}): the {@link Linked} ones, a stand-in in tests, or either wrapped by a test that makes them
 * fail. The plain methods return what the C functions return; the {@code OrThrow} ones turn a failure into the
 * {@code ProviderException} a backend throws, so that a check that could not run is not taken for a verdict.
 */
interface ProviderCalls {
    MemorySegment newctx() throws Throwable;

    int init(MemorySegment ctx) throws Throwable;

    int update(MemorySegment ctx, MemorySegment data, long len) throws Throwable;

    MemorySegment dupctx(MemorySegment ctx) throws Throwable;

    /** Finishes into the 32 bytes at {@code out}, and the length written into the 8 at {@code outl}. */
    int fin(MemorySegment ctx, MemorySegment out, MemorySegment outl) throws Throwable;

    void freectx(MemorySegment ctx) throws Throwable;

    default MemorySegment newctxOrThrow() throws Throwable {
        return OpenSSLErrors.allocated(newctx(), "SM3 newctx");
    }

    default void initOrThrow(MemorySegment ctx) throws Throwable {
        OpenSSLErrors.check(init(ctx), "SM3 init");
    }

    default void updateOrThrow(MemorySegment ctx, MemorySegment data, long len) throws Throwable {
        OpenSSLErrors.check(update(ctx, data, len), "SM3 update");
    }

    default MemorySegment dupctxOrThrow(MemorySegment ctx) throws Throwable {
        return OpenSSLErrors.allocated(dupctx(ctx), "SM3 dupctx");
    }

    /** The final; a length other than 32 is an answer, which the caller judges ({@code outl}). */
    default void finOrThrow(MemorySegment ctx, MemorySegment out, MemorySegment outl) throws Throwable {
        outl.set(JAVA_LONG, 0, 0);
        OpenSSLErrors.check(fin(ctx, out, outl), "SM3 final");
    }

    /** Frees {@code ctx} unless it is NULL. */
    default void freeIfMade(MemorySegment ctx) throws Throwable {
        if (!ctx.equals(MemorySegment.NULL)) {
            freectx(ctx);
        }
    }
}
