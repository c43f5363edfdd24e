package io.github.sm3ffm.internal.libcrypto;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * A native update function, {@code int f(void *ctx, const unsigned char *data, size_t len)} returning 1 on
 * success ({@code EVP_DigestUpdate}, {@code EVP_MAC_update}, a provider's digest update), linked twice: as
 * a critical downcall, which skips the thread-state transition and may read a Java array in place, and as
 * an ordinary one for long native input, during which GC may run. jextract cannot emit critical handles,
 * so they are linked here from its generated address and descriptor.
 *
 * <p>Kept in a {@code static final} field, a record's handles are constants to the JIT (it trusts record
 * fields), so each call compiles to a direct native call.
 */
record UpdateFunction(MethodHandle critical, MethodHandle ordinary, String name) {
    static UpdateFunction link(MemorySegment address, FunctionDescriptor descriptor, String name) {
        Linker linker = Linker.nativeLinker();
        return new UpdateFunction(linker.downcallHandle(address, descriptor, Linker.Option.critical(true)),
                linker.downcallHandle(address, descriptor), name);
    }

    /**
     * Feeds the first {@code len} bytes of {@code data}: heap or native in a critical call, which must be
     * short, or native of any length in an ordinary one.
     */
    void call(MemorySegment ctx, MemorySegment data, long len, boolean critical) {
        int rc;
        try {
            rc = critical ? (int) this.critical.invokeExact(ctx, data, len)
                    : (int) ordinary.invokeExact(ctx, data, len);
        } catch (Throwable t) {
            throw OpenSSLErrors.rethrow(t);
        }
        OpenSSLErrors.check(rc, name);
    }
}
