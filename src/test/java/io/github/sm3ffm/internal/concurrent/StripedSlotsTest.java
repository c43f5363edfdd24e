package io.github.sm3ffm.internal.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link StripedSlots}: its bound, where a thread looks, draining, and many threads taking and giving at once. */
class StripedSlotsTest {
    @Test
    void aThreadKeepsAsManyAsItsProbesReachAndFindsItsOwnSlotFirst() {
        StripedSlots<Object> slots = new StripedSlots<>(4, 4);
        List<Object> given = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Object o = new Object();
            given.add(o);
            assertTrue(slots.give(o), "slot " + i + " free");
        }
        assertFalse(slots.give(new Object()), "a fifth is refused, for the caller to drop");
        assertSame(given.getFirst(), slots.take(), "its own slot first, where it gave its first back");
        List<Object> rest = new ArrayList<>();
        for (Object o; (o = slots.take()) != null; ) {
            rest.add(o);
        }
        assertEquals(given.subList(1, 4).size(), rest.size());
        assertTrue(rest.containsAll(given.subList(1, 4)), "the others, each once");
    }

    @Test
    void aThreadLooksAtItsProbesOnlyWhileDrainSeesEverySlot() throws Exception {
        StripedSlots<Object> slots = new StripedSlots<>(8, 2);
        assertTrue(slots.give(new Object()));
        assertTrue(slots.give(new Object()));
        assertFalse(slots.give(new Object()), "two probes, two slots for this thread though six are free");
        assertEquals(2, slots.snapshot().size());
        // Other threads start elsewhere: together they fill more than one thread's probes, never more than 8.
        AtomicInteger kept = new AtomicInteger(2);
        for (int t = 0; t < 32; t++) {
            Thread other = Thread.ofPlatform().start(() -> {
                while (slots.give(new Object())) {
                    kept.incrementAndGet();
                }
            });
            other.join();
        }
        assertTrue(kept.get() > 2 && kept.get() <= 8, kept + " kept");
        List<Object> held = slots.snapshot();
        assertEquals(kept.get(), held.size());
        List<Object> drained = new ArrayList<>();
        slots.drain(drained::add);
        assertEquals(held, drained, "every slot once, in slot order");
        assertTrue(slots.snapshot().isEmpty());
        assertNull(slots.take());
    }

    @Test
    void theShapeIsChecked() {
        assertThrows(IllegalArgumentException.class, () -> new StripedSlots<>(6, 1));
        assertThrows(IllegalArgumentException.class, () -> new StripedSlots<>(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new StripedSlots<>(4, 0));
        assertThrows(IllegalArgumentException.class, () -> new StripedSlots<>(4, 5));
        assertThrows(NullPointerException.class, () -> new StripedSlots<>(4, 4).give(null));
        assertEquals(16, new StripedSlots<>(16, 8).count());
    }

    /** Each object is held by one thread at a time, and every object made is either in a slot or was dropped. */
    @Test
    void manyThreadsNeitherShareNorLoseAnObject() throws Exception {
        StripedSlots<AtomicBoolean> slots = new StripedSlots<>(4, 2);
        AtomicInteger made = new AtomicInteger();
        AtomicInteger dropped = new AtomicInteger();
        try (ExecutorService threads = Executors.newFixedThreadPool(8)) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                done.add(threads.submit(() -> {
                    for (int i = 0; i < 20_000; i++) {
                        AtomicBoolean held = slots.take();
                        if (held == null) {
                            held = new AtomicBoolean();
                            made.incrementAndGet();
                        }
                        if (held.getAndSet(true)) {
                            throw new AssertionError("an object two threads hold");
                        }
                        held.set(false);
                        if (!slots.give(held)) {
                            dropped.incrementAndGet();
                        }
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
        Set<AtomicBoolean> left = new HashSet<>(slots.snapshot());
        assertEquals(slots.snapshot().size(), left.size(), "no object in two slots");
        assertEquals(made.get() - dropped.get(), left.size());
    }
}
