package io.github.sm3ffm.internal;

import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestFinal_ex$address;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestFinal_ex$descriptor;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestInit_ex2$address;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestInit_ex2$descriptor;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestUpdate$address;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestUpdate$descriptor;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_CTX_copy_ex;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_CTX_free;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_CTX_new;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/** An {@code EVP_MD_CTX} computing SM3, with its staging buffer (see {@link NativeContext}). */
final class NativeSm3 extends NativeContext {
    static final int DIGEST_LENGTH = 32;

    private static final Linker LINKER = Linker.nativeLinker();
    // jextract cannot emit critical handles: these are linked here from the generated address and
    // descriptor. Critical calls skip the thread-state transition and may read and write Java arrays.
    private static final MethodHandle UPDATE_CRITICAL = LINKER.downcallHandle(
            EVP_DigestUpdate$address(), EVP_DigestUpdate$descriptor(), Linker.Option.critical(true));
    private static final MethodHandle UPDATE = LINKER.downcallHandle(
            EVP_DigestUpdate$address(), EVP_DigestUpdate$descriptor());
    private static final MethodHandle FINAL_CRITICAL = LINKER.downcallHandle(
            EVP_DigestFinal_ex$address(), EVP_DigestFinal_ex$descriptor(), Linker.Option.critical(true));
    private static final MethodHandle INIT_CRITICAL = LINKER.downcallHandle(
            EVP_DigestInit_ex2$address(), EVP_DigestInit_ex2$descriptor(), Linker.Option.critical(false));

    private final MemorySegment md;
    private final MemorySegment ctx;

    private NativeSm3(MemorySegment md, MemorySegment ctx, MemorySegment staging) {
        super(staging);
        this.md = md;
        this.ctx = ctx;
    }

    /** A context ready for a new SM3 message, using the {@code EVP_MD} fetched once by the loader. */
    static NativeSm3 create(MemorySegment md) {
        NativeSm3 n = allocate(md);
        try {
            n.restart();
        } catch (RuntimeException e) {
            n.run();
            throw e;
        }
        return n;
    }

    /** An independent copy: the OpenSSL state and the staged bytes. */
    synchronized NativeSm3 copy() {
        NativeSm3 n = allocate(md);
        if (EVP_MD_CTX_copy_ex(n.ctx, ctx) != 1) {
            n.run();
            throw OpenSSLErrors.failure("EVP_MD_CTX_copy_ex");
        }
        copyStagedTo(n);
        return n;
    }

    private static NativeSm3 allocate(MemorySegment md) {
        MemorySegment staging = allocateStaging();
        MemorySegment ctx = EVP_MD_CTX_new();
        if (ctx.equals(MemorySegment.NULL)) {
            freeStaging(staging);
            throw OpenSSLErrors.failure("EVP_MD_CTX_new");
        }
        return new NativeSm3(md, ctx, staging);
    }

    /** Writes the digest (32 bytes) into {@code out} at {@code offset} and starts a new message. */
    synchronized void digest(byte[] out, int offset) {
        try {
            flushLocked();
            int rc;
            try {
                // Into the (now empty) staging buffer, then copied: a heap segment for out would be an
                // allocation that escape analysis does not reliably remove behind this many frames.
                rc = (int) FINAL_CRITICAL.invokeExact(ctx, staging, MemorySegment.NULL);
            } catch (Throwable t) {
                throw rethrow(t);
            }
            check(rc, "EVP_DigestFinal_ex");
            MemorySegment.copy(staging, JAVA_BYTE, 0, out, offset, DIGEST_LENGTH);
        } finally {
            resetLocked();
        }
    }

    synchronized void reset() {
        resetLocked();
    }

    @Override
    void restart() {
        int rc;
        try {
            rc = (int) INIT_CRITICAL.invokeExact(ctx, md, MemorySegment.NULL);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        check(rc, "EVP_DigestInit_ex2");
    }

    @Override
    void updateCritical(MemorySegment data, long len) {
        int rc;
        try {
            rc = (int) UPDATE_CRITICAL.invokeExact(ctx, data, len);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        check(rc, "EVP_DigestUpdate");
    }

    @Override
    void updateCritical(byte[] data, int offset, int len) {
        int rc;
        try {
            // Wrapped here, beside the downcall, so that escape analysis can drop the segment objects.
            rc = (int) UPDATE_CRITICAL.invokeExact(ctx, MemorySegment.ofArray(data).asSlice(offset, len), (long) len);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        check(rc, "EVP_DigestUpdate");
    }

    @Override
    void updateLong(MemorySegment data) {
        int rc;
        try {
            rc = (int) UPDATE.invokeExact(ctx, data, data.byteSize());
        } catch (Throwable t) {
            throw rethrow(t);
        }
        check(rc, "EVP_DigestUpdate");
    }

    @Override
    public void run() {
        EVP_MD_CTX_free(ctx);
        freeStaging(staging);
    }
}
