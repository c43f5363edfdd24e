package io.github.sm3ffm.bench;

import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A benchmark whose forks vary more than two runs' ratios may (10%), so {@link Suite} measures it longer,
 * the same for every implementation. Two kinds of noise, two remedies:
 * <ul>
 *   <li>within a fork, when an implementation's iterations swing with the GC cycles of memory it frees
 *       late (Kona's JNI contexts, GlaSSLess's arenas): longer iterations ({@link #longer});</li>
 *   <li>between forks, when a fork settles at one speed for its whole life: more forks per
 *       round, whose mean is the round's time ({@link #forks}).</li>
 * </ul>
 * A method may carry several, for different sizes; the first whose {@link #sizes} hold a point's size
 * applies to it.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@Repeatable(Settle.Sizes.class)
@interface Settle {
    /** Forks per round; the round's time is their mean. */
    int forks() default 1;

    /** A measured iteration's length, as a multiple of the run's. */
    int longer() default 1;

    /** The {@code size} values it applies to; every one when empty. */
    String[] sizes() default {};

    /** The container of a method's several {@code Settle}s. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    @interface Sizes {
        Settle[] value();
    }
}
