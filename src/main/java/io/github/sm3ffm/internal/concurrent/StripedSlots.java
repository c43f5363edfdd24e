package io.github.sm3ffm.internal.concurrent;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;

/**
 * A bounded, lock-free set of idle objects that threads take and give back: each of {@link #take} and
 * {@link #give} costs one atomic operation when it finds a slot at once, and nothing ever blocks, so a virtual
 * thread never pins its carrier here. What finds no slot is the caller's to make or to drop.
 *
 * <p>A thread starts at a slot of its own, from its id ({@code threadId()} times a 64-bit odd constant, bits 40
 * and up), so thousands of threads spread over the slots like hashed keys, and one that gives back what it took
 * puts it where it looks first. It looks at {@code probes} slots from there, not at all of them: a miss then
 * reads that many cache lines however many slots a large machine has.
 *
 * <p>Slot {@code i} is array element {@code (i + 1) * }{@value #STRIDE}: 32 references span at least 128 bytes,
 * so no two slots, nor the first slot and the array's header (which every bounds check reads), share a cache
 * line or the pair of lines that x86 CPUs fetch together. Threads whose slots differ never invalidate each
 * other's line. The cost is memory: 16 slots take about 2 KiB.
 *
 * @param <T> what the slots hold
 */
public final class StripedSlots<T> {
    /** Array elements from one slot to the next. */
    public static final int STRIDE = 32;
    private static final long SPREAD = 0x9E3779B97F4A7C15L;

    private final AtomicReferenceArray<T> slots;
    private final int mask;
    private final int probes;

    /**
     * Empty slots. A pool sized by the machine passes {@code Integer.highestOneBit(processors * perCpu)}.
     *
     * @param count  how many slots: a power of two
     * @param probes how many of them a thread looks at, from its own, in {@code [1, count]}
     * @throws IllegalArgumentException if {@code count} is not a power of two, or {@code probes} out of range
     */
    public StripedSlots(int count, int probes) {
        if (Integer.bitCount(count) != 1) {
            throw new IllegalArgumentException("not a power of two: " + count);
        }
        if (probes < 1 || probes > count) {
            throw new IllegalArgumentException("probes " + probes + " not in [1, " + count + "]");
        }
        this.mask = count - 1;
        this.probes = probes;
        this.slots = new AtomicReferenceArray<>((count + 1) * STRIDE);
    }

    /** An idle object from one of the slots this thread looks at, or null if they are all empty. */
    public T take() {
        int start = home();
        for (int i = 0; i < probes; i++) {
            int at = element(start + i);
            // A plain read first: an empty slot costs no write to its line.
            if (slots.getPlain(at) != null) {
                T t = slots.getAndSet(at, null);
                if (t != null) {
                    return t;
                }
            }
        }
        return null;
    }

    /**
     * Keeps {@code t} in a free slot of those this thread looks at.
     *
     * @return false if they are all full: the caller drops or frees {@code t}
     */
    public boolean give(T t) {
        Objects.requireNonNull(t);
        int start = home();
        for (int i = 0; i < probes; i++) {
            int at = element(start + i);
            if (slots.getPlain(at) == null && slots.compareAndSet(at, null, t)) {
                return true;
            }
        }
        return false;
    }

    /** Empties every slot, each object to {@code action}, which sees each once. */
    public void drain(Consumer<? super T> action) {
        for (int slot = 0; slot <= mask; slot++) {
            T t = slots.getAndSet(element(slot), null);
            if (t != null) {
                action.accept(t);
            }
        }
    }

    /** What the slots hold now, in slot order (for checks of a pool's books: others may take and give meanwhile). */
    public List<T> snapshot() {
        List<T> all = new ArrayList<>();
        for (int slot = 0; slot <= mask; slot++) {
            T t = slots.get(element(slot));
            if (t != null) {
                all.add(t);
            }
        }
        return all;
    }

    /** How many slots there are. */
    public int count() {
        return mask + 1;
    }

    private int home() {
        return (int) ((Thread.currentThread().threadId() * SPREAD) >>> 40);
    }

    private int element(int slot) {
        return ((slot & mask) + 1) * STRIDE;
    }
}
