package io.github.sm3ffm.internal.libcrypto;

import java.lang.foreign.MemorySegment;

/**
 * The only door from the facade to native code once SM3 is loaded: the SM3 operations on one kind of native
 * context, the one way contexts of that kind are copied and cleared, and the native buffers beside them. Every
 * operation that can fail throws {@code ProviderException} carrying OpenSSL's error queue; frees cannot fail.
 *
 * <p>One backend is chosen for the JVM ({@link BackendChoice}) and is a constant to the JIT, so a hot path compiles
 * to the chosen calls alone. Two implementations exist: {@link EvpBackend} ({@code EVP_Digest*} on
 * {@code EVP_MD_CTX}s) and {@link ProviderBackend} (the provider's own functions, in three ways of copying). Tests
 * put a decorator around the chosen one, which is how every call is made to fail in turn. This interface knows
 * nothing else of the facade: whatever chooses, checks or loads depends on it, never the other way.
 */
interface Backend {
    /** How SM3 is computed and its contexts copied, for messages and tests. */
    String description();

    /**
     * {@code bytes} of zeroed native memory for a context's staging buffer; free it with {@link #release}. Zeroed
     * once here, so that the pool's wipes, which zero only what was written, leave the whole buffer zero.
     */
    MemorySegment allocate(long bytes);

    /** Zeroes and frees what {@link #allocate} gave. */
    void release(MemorySegment buffer);

    /** A new context, not yet started. */
    MemorySegment newContext();

    /**
     * Copies {@code src}'s state into {@code into}, or into a new context that replaces it (which frees
     * {@code into}); returns the context that now holds the copy. {@code src} is only read; on failure
     * {@code into} is unknown, and the caller frees it.
     */
    MemorySegment copy(MemorySegment src, MemorySegment into);

    /** Frees {@code ctx}; OpenSSL clears an SM3 state as it frees it. */
    void free(MemorySegment ctx);

    /** {@code ctx}'s state as bytes on the heap, where this backend's states are plain bytes; else null. */
    default byte[] save(MemorySegment ctx) {
        return null;
    }

    /** Puts a state from {@link #save} into {@code ctx}, whatever it held. */
    default void restore(byte[] state, MemorySegment ctx) {
        throw new UnsupportedOperationException("SM3 states are not saved as bytes here");
    }

    /**
     * A context holding a copy of {@code src}'s state for one message that ends at the next final: {@code spare},
     * a context whose state is no longer needed, copied into; or a new one. Hand it to {@link #dropCopy} after
     * the final; {@code spare} stays valid either way.
     */
    default MemorySegment copyForOneMessage(MemorySegment src, MemorySegment spare) {
        return copy(src, spare);
    }

    /** Frees what {@link #copyForOneMessage} made, if it made anything. */
    default void dropCopy(MemorySegment copy, MemorySegment spare) {
    }

    /** Starts a new message on {@code ctx}, clearing whatever state it held. */
    void init(MemorySegment ctx);

    /**
     * Clears whatever state {@code ctx} held (a key's, a message's, a digest's) and leaves it as {@link #init}
     * does: started on an empty message.
     */
    void clear(MemorySegment ctx);

    /** Feeds {@code len} bytes of {@code data} (heap or native) in one short critical call. */
    void update(MemorySegment ctx, MemorySegment data, long len);

    /** Feeds native {@code data} of any length in an ordinary call, during which GC may run. */
    void updateNative(MemorySegment ctx, MemorySegment data, long len);

    /**
     * Finishes the message on {@code ctx} into the 32 bytes at {@code out} (heap or native, in a short critical
     * call); {@code outl}, 8 bytes (heap or native), may receive the length written.
     */
    void finalInto(MemorySegment ctx, MemorySegment out, MemorySegment outl);
}
