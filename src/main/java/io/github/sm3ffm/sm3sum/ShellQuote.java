package io.github.sm3ffm.sm3sum;

import java.io.ByteArrayOutputStream;

/**
 * File names in error messages, quoted as coreutils' {@code quotef} does (gnulib quotearg, shell-escape
 * style, ':' quoted too): left alone when a shell would read them back unchanged, else in single quotes
 * with unprintable bytes as {@code '$'\ooo''}, or in double quotes when an apostrophe is the only reason.
 * So a name in a message can be pasted back into a shell, and messages match coreutils' byte for byte.
 */
final class ShellQuote {
    private ShellQuote() {
    }

    private enum Kind {
        // forces quotes? may appear inside double quotes?
        CONTROL_ESCAPE(true, false), APOSTROPHE(true, true), SHELL_SPECIAL(true, false),
        BLANK(true, true), COLON(true, true), PLAIN(false, true), PLAIN_INSIDE(false, false),
        UNPRINTABLE(true, false);

        final boolean forcesQuotes;
        final boolean doubleQuotable;

        Kind(boolean forcesQuotes, boolean doubleQuotable) {
            this.forcesQuotes = forcesQuotes;
            this.doubleQuotable = doubleQuotable;
        }
    }

    /** {@code name} quoted for an error line; {@code utf8} when the locale's encoding is UTF-8. */
    static byte[] quotef(byte[] name, boolean utf8) {
        boolean quote = name.length == 0;
        boolean apostrophe = false;
        boolean doubleQuotable = true;
        for (int i = 0; i < name.length; i += length(name, i, utf8)) {
            Kind kind = kind(name, i, utf8);
            quote |= kind.forcesQuotes;
            apostrophe |= kind == Kind.APOSTROPHE;
            doubleQuotable &= kind.doubleQuotable;
        }
        if (!quote) {
            return name;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(name.length + 8);
        if (apostrophe && doubleQuotable) {
            out.write('"');
            out.writeBytes(name);
            out.write('"');
            return out.toByteArray();
        }
        out.write('\'');
        boolean inDollar = false;
        for (int i = 0; i < name.length; ) {
            Kind kind = kind(name, i, utf8);
            int m = length(name, i, utf8);
            if (kind == Kind.CONTROL_ESCAPE || kind == Kind.UNPRINTABLE) {
                for (int k = i; k < i + m; k++) {
                    if (!inDollar) {
                        out.writeBytes(new byte[] {'\'', '$', '\''});
                        inDollar = true;
                    }
                    out.write('\\');
                    int b = name[k] & 0xff;
                    if (kind == Kind.CONTROL_ESCAPE) {
                        out.write("abtnvfr".charAt(b - 7));
                    } else {
                        out.writeBytes(new byte[] {(byte) ('0' + (b >> 6)), (byte) ('0' + (b >> 3 & 7)),
                                (byte) ('0' + (b & 7))});
                    }
                }
            } else if (kind == Kind.APOSTROPHE) {
                out.writeBytes(new byte[] {'\'', '\\', '\'', '\''});
                inDollar = false;
            } else {
                if (inDollar) {
                    out.writeBytes(new byte[] {'\'', '\''});
                    inDollar = false;
                }
                out.write(name, i, m);
            }
            i += m;
        }
        out.write('\'');
        return out.toByteArray();
    }

    private static Kind kind(byte[] s, int i, boolean utf8) {
        int c = s[i] & 0xff;
        if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "%+,-./]_@".indexOf(c) >= 0) {
            return Kind.PLAIN;
        }
        if (c >= 7 && c <= 13) {
            return Kind.CONTROL_ESCAPE;
        }
        switch (c) {
            case '\'':
                return Kind.APOSTROPHE;
            case ':':
                return Kind.COLON;
            case ' ':
                return Kind.BLANK;
            case '{', '}':
                // Special to the shell only alone ("{" starts a group); '#' and '~' only first.
                return s.length == 1 ? Kind.BLANK : Kind.PLAIN_INSIDE;
            case '#', '~':
                return i == 0 ? Kind.BLANK : Kind.PLAIN_INSIDE;
            default:
                break;
        }
        if ("\\?!\"$&()*;<=>[^`|".indexOf(c) >= 0) {
            return Kind.SHELL_SPECIAL;
        }
        return printable(s, i, utf8) > 0 ? Kind.PLAIN : Kind.UNPRINTABLE;
    }

    /** Bytes taken by the character at {@code i}: a printable sequence whole; anything else byte by byte. */
    private static int length(byte[] s, int i, boolean utf8) {
        return Math.max(1, printable(s, i, utf8));
    }

    /** The length of the printable character at {@code i}, or 0 when it is not printable or not valid. */
    private static int printable(byte[] s, int i, boolean utf8) {
        int c = s[i] & 0xff;
        if (!utf8 || c < 0x80) {
            return c >= 0x20 && c < 0x7f ? 1 : 0;
        }
        int n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
        if (n == 0 || c > 0xf4 || i + n > s.length) {
            return 0;
        }
        int cp = c & (0x7f >> n);
        for (int k = 1; k < n; k++) {
            int b = s[i + k] & 0xff;
            if ((b & 0xc0) != 0x80) {
                return 0;
            }
            cp = cp << 6 | b & 0x3f;
        }
        boolean shortest = n == 2 || n == 3 && cp >= 0x800 || n == 4 && cp >= 0x10000;
        if (!shortest || cp > 0x10ffff || cp >= 0xd800 && cp <= 0xdfff) {
            return 0;
        }
        return switch (Character.getType(cp)) {
            case Character.CONTROL, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                    Character.UNASSIGNED -> 0;
            default -> n;
        };
    }
}
