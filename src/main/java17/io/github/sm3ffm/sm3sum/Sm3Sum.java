package io.github.sm3ffm.sm3sum;

import io.github.sm3ffm.SM3Provider;

/**
 * The jar's main class as JDK 17 to 21 load it: says on standard error that sm3sum needs JDK 22 or later, naming
 * this one, and exits with sm3sum's status for an unusable SM3, 2. The tool is in META-INF/versions/22.
 */
public final class Sm3Sum {
    private Sm3Sum() {
    }

    public static void main(String[] args) {
        System.err.println("sm3sum: " + SM3Provider.unavailability().orElseThrow().getMessage());
        System.exit(2);
    }
}
