package io.github.sm3ffm.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/**
 * {@link SM3RowHasher} given values whose bytes are off the heap ({@code UTF8String.fromAddress} over native
 * memory, as in off-heap rows and column vectors), alone and mixed with heap values, against BouncyCastle.
 */
class SM3RowHasherTest {
    @Test
    void offHeapValuesAndKeysHashAsTheirBytes() {
        SplittableRandom rnd = new SplittableRandom(11);
        SM3RowHasher hasher = new SM3RowHasher();
        try (Arena arena = Arena.ofConfined()) {
            for (int length : new int[] {0, 1, 55, 64, 511, 512, 4096, 70_000}) {
                byte[] value = new byte[length];
                rnd.nextBytes(value);
                byte[] key = new byte[1 + rnd.nextInt(100)];
                rnd.nextBytes(key);
                UTF8String offValue = offHeap(arena, value);
                UTF8String offKey = offHeap(arena, key);
                String sm3 = BouncyCastleSM3.sm3(value);
                String hmac = BouncyCastleSM3.hmacSm3(key, value);
                assertEquals(sm3, hasher.sm3(offValue).toString(), "sm3, " + length + " B");
                assertEquals(hmac, hasher.hmacSm3(offValue, offKey).toString(), "both off the heap, " + length);
                assertEquals(hmac, hasher.hmacSm3(value, offKey).toString(), "the key off the heap, " + length);
                assertEquals(hmac, hasher.hmacSm3(offValue, key).toString(), "the value off the heap, " + length);
            }
        }
    }

    /** A string over native memory that holds a copy of {@code bytes}, with a byte before and after them. */
    private static UTF8String offHeap(Arena arena, byte[] bytes) {
        MemorySegment memory = arena.allocate(bytes.length + 2L);
        memory.set(ValueLayout.JAVA_BYTE, 0, (byte) 0x5a);
        memory.set(ValueLayout.JAVA_BYTE, bytes.length + 1L, (byte) 0x5a);
        MemorySegment.copy(MemorySegment.ofArray(bytes), 0, memory, 1, bytes.length);
        return UTF8String.fromAddress(null, memory.address() + 1, bytes.length);
    }
}
