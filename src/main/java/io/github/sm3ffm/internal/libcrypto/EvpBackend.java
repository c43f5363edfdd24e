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

/** {@code EVP_Digest*} on {@code EVP_MD_CTX}s for the {@code EVP_MD} that the loader fetched once. */
final class EvpBackend extends MallocBackend {
    // jextract cannot emit critical handles: these are linked here, their C types as in the bindings
    // (a test compares them). int EVP_DigestInit_ex2(EVP_MD_CTX *, const EVP_MD *, const OSSL_PARAM *)
    static final MethodHandle INIT = Bindings.downcall("EVP_DigestInit_ex2",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS), Linker.Option.critical(false));
    // int EVP_DigestUpdate(EVP_MD_CTX *, const void *, size_t)
    private static final FunctionDescriptor UPDATE_DESCRIPTOR = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS,
            JAVA_LONG);
    static final MethodHandle UPDATE = Bindings.downcall("EVP_DigestUpdate", UPDATE_DESCRIPTOR,
            Linker.Option.critical(true));
    // int EVP_DigestFinal_ex(EVP_MD_CTX *, unsigned char *, unsigned int *): into the caller's array.
    static final MethodHandle FINAL = Bindings.downcall("EVP_DigestFinal_ex",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS), Linker.Option.critical(true));

    // Linked on first use, as in ProviderBackend: short-lived programs never feed native memory.
    static final class Ordinary {
        static final MethodHandle UPDATE = Bindings.downcall("EVP_DigestUpdate", UPDATE_DESCRIPTOR);
    }

    // Contexts are asked for only once SM3 has passed its self-test, so the fetch has succeeded.
    private final MemorySegment md = LibCrypto.fetchedSm3();

    /** Why the provider's own functions are not used. */
    private final String reason;

    EvpBackend(String reason) {
        this.reason = reason;
    }

    @Override
    public String description() {
        return "EVP (" + reason + ")";
    }

    @Override
    public MemorySegment newContext() {
        return OpenSSLErrors.allocated(EVP_MD_CTX_new(), "EVP_MD_CTX_new");
    }

    @Override
    public MemorySegment copy(MemorySegment src, MemorySegment into) {
        // A failed copy leaves the destination's state unknown; the source is only read.
        int rc = EVP_MD_CTX_copy_ex(into, src);
        OpenSSLErrors.check(rc, "EVP_MD_CTX_copy_ex");
        return into;
    }

    // EVP_MD_CTX_free resets the context, whose provider clears its state as it frees it.
    @Override
    public void free(MemorySegment ctx) {
        EVP_MD_CTX_free(ctx);
    }

    @Override
    public void init(MemorySegment ctx) {
        int rc;
        try {
            rc = (int) INIT.invokeExact(ctx, md, MemorySegment.NULL);
        } catch (Throwable t) {
            throw OpenSSLErrors.rethrow(t);
        }
        OpenSSLErrors.check(rc, "EVP_DigestInit_ex2");
    }

    // A clear is an init, which zeroes the state first; its own downcall, so that it is no deeper below the pool
    // than an init below a stream.
    @Override
    public void clear(MemorySegment ctx) {
        try {
            OpenSSLErrors.check((int) INIT.invokeExact(ctx, md, MemorySegment.NULL), "EVP_DigestInit_ex2");
        } catch (Throwable t) {
            throw OpenSSLErrors.rethrow(t);
        }
    }

    @Override
    public void update(MemorySegment ctx, MemorySegment data, long len) {
        int rc;
        try {
            rc = (int) UPDATE.invokeExact(ctx, data, len);
        } catch (Throwable t) {
            throw OpenSSLErrors.rethrow(t);
        }
        OpenSSLErrors.check(rc, "EVP_DigestUpdate");
    }

    @Override
    public void updateNative(MemorySegment ctx, MemorySegment data, long len) {
        int rc;
        try {
            rc = (int) Ordinary.UPDATE.invokeExact(ctx, data, len);
        } catch (Throwable t) {
            throw OpenSSLErrors.rethrow(t);
        }
        OpenSSLErrors.check(rc, "EVP_DigestUpdate");
    }

    @Override
    public void finalInto(MemorySegment ctx, MemorySegment out, MemorySegment outl) {
        int rc;
        try {
            rc = (int) FINAL.invokeExact(ctx, out, MemorySegment.NULL);
        } catch (Throwable t) {
            throw OpenSSLErrors.rethrow(t);
        }
        OpenSSLErrors.check(rc, "EVP_DigestFinal_ex");
    }
}
