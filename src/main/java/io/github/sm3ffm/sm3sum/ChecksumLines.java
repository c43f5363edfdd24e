package io.github.sm3ffm.sm3sum;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The two checksum line formats of coreutils 9.1 ({@code src/digest.c}) for SM3, written and read byte
 * for byte as {@code cksum -a sm3} does:
 * <pre>
 * 66c7f0f4...8f4ba8e0  name          (--untagged, sm3sum's default)
 * SM3 (name) = 66c7f0f4...8f4ba8e0   (--tag)
 * </pre>
 * A name holding a newline, carriage return or backslash is written with those escaped ({@code \n},
 * {@code \r}, {@code \\}) and the line starts with a backslash, so every entry stays on one line.
 */
final class ChecksumLines {
    static final int HEX_LENGTH = 64;
    private static final byte[] TAG = "SM3".getBytes(StandardCharsets.US_ASCII);
    private static final HexFormat HEX = HexFormat.of();

    private ChecksumLines() {
    }

    /** One output line for {@code name}, ending in a newline, or in NUL without escaping when {@code zero}. */
    static byte[] format(byte[] name, byte[] digest, boolean tagged, boolean zero) {
        boolean escape = !zero && needsEscape(name);
        ByteArrayOutputStream out = new ByteArrayOutputStream(HEX_LENGTH + name.length + 16);
        if (escape) {
            out.write('\\');
        }
        byte[] hex = HEX.formatHex(digest).getBytes(StandardCharsets.US_ASCII);
        if (tagged) {
            out.writeBytes(TAG);
            out.writeBytes(new byte[] {' ', '('});
            out.writeBytes(escape ? escape(name) : name);
            out.writeBytes(new byte[] {')', ' ', '=', ' '});
            out.writeBytes(hex);
        } else {
            out.writeBytes(hex);
            out.writeBytes(new byte[] {' ', ' '});
            out.writeBytes(escape ? escape(name) : name);
        }
        out.write(zero ? 0 : '\n');
        return out.toByteArray();
    }

    static boolean needsEscape(byte[] name) {
        for (byte b : name) {
            if (b == '\\' || b == '\n' || b == '\r') {
                return true;
            }
        }
        return false;
    }

    /** {@code name} with newline, carriage return and backslash written as {@code \n}, {@code \r}, {@code \\}. */
    static byte[] escape(byte[] name) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(name.length + 8);
        for (byte b : name) {
            switch (b) {
                case '\n' -> out.writeBytes(new byte[] {'\\', 'n'});
                case '\r' -> out.writeBytes(new byte[] {'\\', 'r'});
                case '\\' -> out.writeBytes(new byte[] {'\\', '\\'});
                default -> out.write(b);
            }
        }
        return out.toByteArray();
    }

    /** A file name and the digest it is expected to have, as lowercase or uppercase hex. */
    record Entry(byte[] name, String hex) {
        /** Whether {@code digest} is the expected one; hex case does not matter, as in coreutils. */
        boolean matches(byte[] digest) {
            return hex.equalsIgnoreCase(HEX.formatHex(digest));
        }
    }

    /**
     * Reads checksum lines as coreutils' {@code split_3} does for {@code cksum -a sm3 --check}. It keeps
     * coreutils' one piece of state: once an untagged line is read as "hash, one space, name" (the BSD
     * reversed format) every later line is read that way, and once as "hash, two characters, name" never
     * so, which stops a file renamed with leading blanks from switching the reading.
     */
    static final class Parser {
        private int bsdReversed = -1;

        /** The entry on a line without its end-of-line characters; null when it is improperly formatted. */
        Entry parse(byte[] s) {
            int i = 0;
            while (i < s.length && isWhite(s[i])) {
                i++;
            }
            boolean escaped = false;
            if (i < s.length && s[i] == '\\') {
                i++;
                escaped = true;
            }
            if (startsWith(s, i, TAG)) {
                return parseTagged(s, i + TAG.length, escaped);
            }
            if (s.length - i < 3 + (i < s.length && s[i] == '\\' ? 1 : 0) || s.length - i <= HEX_LENGTH) {
                return null;
            }
            int hexStart = i;
            i += HEX_LENGTH;
            if (!isWhite(s[i]) || !allHex(s, hexStart, i)) {
                return null;
            }
            i++;
            if (s.length - i == 1 || i == s.length || s[i] != ' ' && s[i] != '*') {
                if (bsdReversed == 0) {
                    return null;
                }
                bsdReversed = 1;
            } else if (bsdReversed != 1) {
                bsdReversed = 0;
                i++;
            }
            byte[] name = name(s, i, s.length, escaped);
            return name == null ? null : new Entry(name, ascii(s, hexStart, hexStart + HEX_LENGTH));
        }

        private static Entry parseTagged(byte[] s, int i, boolean escaped) {
            // After the tag coreutils skips one character of any kind unless it is '(' (so "SM3 (",
            // "SM3(" and even "SM3x(" read alike); a '-' starts a digest length in bits.
            if (i >= s.length) {
                return null;
            }
            if (s[i] == '-') {
                int start = ++i;
                while (i < s.length && s[i] >= '0' && s[i] <= '9') {
                    i++;
                }
                if (!ascii(s, start, i).equals(String.valueOf(HEX_LENGTH * 4))) {
                    return null;
                }
            } else if (s[i] != '(') {
                i++;
            }
            if (i < s.length && s[i] == ' ') {
                i++;
            }
            if (i >= s.length || s[i] != '(') {
                return null;
            }
            int nameStart = i + 1;
            int close = s.length - 1;
            while (close > nameStart && s[close] != ')') {
                close--;
            }
            if (close < nameStart || s[close] != ')') {
                return null;
            }
            byte[] name = name(s, nameStart, close, escaped);
            int j = close + 1;
            while (j < s.length && isWhite(s[j])) {
                j++;
            }
            if (j >= s.length || s[j] != '=') {
                return null;
            }
            j++;
            while (j < s.length && isWhite(s[j])) {
                j++;
            }
            if (name == null || s.length - j != HEX_LENGTH || !allHex(s, j, s.length)) {
                return null;
            }
            return new Entry(name, ascii(s, j, s.length));
        }

        /** The name in {@code s[from, to)}, unescaped if it was escaped; null if it cannot be a name. */
        private static byte[] name(byte[] s, int from, int to, boolean escaped) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(to - from);
            for (int i = from; i < to; i++) {
                byte b = s[i];
                if (b == 0) {
                    // A C string ends here; an escaped name may not contain NUL at all.
                    return escaped ? null : out.toByteArray();
                }
                if (escaped && b == '\\') {
                    if (++i == to) {
                        return null;
                    }
                    switch (s[i]) {
                        case 'n' -> out.write('\n');
                        case 'r' -> out.write('\r');
                        case '\\' -> out.write('\\');
                        default -> {
                            return null;
                        }
                    }
                } else {
                    out.write(b);
                }
            }
            return out.toByteArray();
        }
    }

    private static boolean isWhite(byte b) {
        return b == ' ' || b == '\t';
    }

    private static boolean startsWith(byte[] s, int at, byte[] prefix) {
        return s.length - at >= prefix.length && Arrays.equals(s, at, at + prefix.length, prefix, 0, prefix.length);
    }

    private static boolean allHex(byte[] s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (Character.digit(s[i], 16) < 0) {
                return false;
            }
        }
        return true;
    }

    private static String ascii(byte[] s, int from, int to) {
        return new String(s, from, to - from, StandardCharsets.ISO_8859_1);
    }
}
