package io.github.sm3ffm.shardingsphere;

import java.util.Random;

/** Values as assisted-query columns hold them: ID numbers, phone numbers, long texts. */
final class RealisticValues {
    private static final String CHECK_CHARACTERS = "0123456789X";

    private RealisticValues() {
    }

    /** An 18-character resident ID number: region, birth date, sequence, and a check character. */
    static String idNumber(Random random) {
        return String.format("%06d%04d%02d%02d%03d%c", 110000 + random.nextInt(540000), 1950 + random.nextInt(60),
                1 + random.nextInt(12), 1 + random.nextInt(28), random.nextInt(1000),
                CHECK_CHARACTERS.charAt(random.nextInt(CHECK_CHARACTERS.length())));
    }

    /** An 11-digit mobile number. */
    static String phoneNumber(Random random) {
        return "1" + (3 + random.nextInt(7)) + String.format("%09d", random.nextInt(1_000_000_000));
    }

    /** A text of {@code length} characters, Chinese and ASCII mixed, as a free-text column may hold. */
    static String text(Random random, int length) {
        StringBuilder text = new StringBuilder(length);
        while (text.length() < length) {
            text.append(random.nextInt(4) == 0 ? (char) (0x4e00 + random.nextInt(0x5000))
                    : (char) (' ' + random.nextInt(95)));
        }
        return text.toString();
    }
}
