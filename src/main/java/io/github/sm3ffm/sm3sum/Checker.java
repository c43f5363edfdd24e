package io.github.sm3ffm.sm3sum;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.ProviderException;
import java.util.Arrays;

/**
 * {@code sm3sum --check}: reads checksum lines in either format, hashes each file named and reports as
 * coreutils' {@code digest_check} does, message for message: {@code name: OK}, {@code name: FAILED},
 * {@code name: FAILED open or read}, then warnings that count what went wrong in each checksum file.
 */
final class Checker {
    /** Hashes the input a checksum line names ("-" is standard input); reporting is the caller's. */
    interface Hasher {
        byte[] hash(byte[] name) throws IOException;
    }

    private final Hasher hasher;
    private final ReadableByteChannel stdin;
    private final Output output;
    private final Options options;
    private final ChecksumLines.Parser parser = new ChecksumLines.Parser();

    Checker(Hasher hasher, ReadableByteChannel stdin, Output output, Options options) {
        this.hasher = hasher;
        this.stdin = stdin;
        this.output = output;
        this.options = options;
    }

    /** Checks every line of the checksum file {@code file} ("-" is standard input); true when all is well. */
    boolean check(String file) {
        boolean isStdin = file.equals("-");
        byte[] quotedFile = output.quoted(output.bytes(isStdin ? "standard input" : file));
        InputStream in;
        try {
            in = isStdin ? Channels.newInputStream(stdin) : Files.newInputStream(Path.of(file));
        } catch (IOException | InvalidPathException e) {
            output.error(quotedFile, ": ", Sm3Sum.reason(e));
            return false;
        }
        Counts counts = new Counts();
        try {
            InputStream lines = new BufferedInputStream(in, 64 * 1024);
            long lineNumber = 0;
            for (byte[] line; (line = readLine(lines)) != null; ) {
                lineNumber++;
                checkLine(line, isStdin, counts, quotedFile, lineNumber);
            }
        } catch (IOException e) {
            // coreutils reports the failed read without strerror's text (its errno is not kept).
            output.error(quotedFile, ": read error");
            return false;
        } finally {
            // Standard input stays open: a later "-" reads it again, as in coreutils.
            if (!isStdin) {
                closeQuietly(in);
            }
        }
        return summarize(counts, quotedFile);
    }

    private static final class Counts {
        long misformatted;
        long unreadable;
        long mismatched;
        boolean properlyFormatted;
        boolean matched;
    }

    private void checkLine(byte[] line, boolean isStdin, Counts counts, byte[] quotedFile, long lineNumber) {
        int length = line.length;
        if (length > 0 && line[0] == '#') {
            return;
        }
        if (length > 0 && line[length - 1] == '\n') {
            length--;
        }
        if (length > 0 && line[length - 1] == '\r') {
            length--;
        }
        if (length == 0) {
            return;
        }
        ChecksumLines.Entry entry = parser.parse(Arrays.copyOf(line, length));
        if (entry == null || isStdin && entry.name().length == 1 && entry.name()[0] == '-') {
            counts.misformatted++;
            if (options.warn) {
                output.error(quotedFile, ": " + lineNumber + ": improperly formatted SM3 checksum line");
            }
            return;
        }
        counts.properlyFormatted = true;
        byte[] name = entry.name();
        // Escaped only when the name would break the line, to keep --check output easy to parse.
        boolean escape = !options.status && contains(name, (byte) '\n');
        byte[] shown = escape ? ChecksumLines.escape(name) : name;
        byte[] digest;
        try {
            digest = hasher.hash(name);
        } catch (NoSuchFileException e) {
            if (options.ignoreMissing) {
                return;
            }
            digest = failed(name, e, counts, escape, shown);
        } catch (IOException | ProviderException e) {
            digest = failed(name, e, counts, escape, shown);
        }
        if (digest == null) {
            return;
        }
        boolean matches = entry.matches(digest);
        if (matches) {
            counts.matched = true;
        } else {
            counts.mismatched++;
        }
        if (!options.status && (!matches || !options.quiet)) {
            result(escape, shown, matches ? ": OK\n" : ": FAILED\n");
        }
    }

    private byte[] failed(byte[] name, Exception e, Counts counts, boolean escape, byte[] shown) {
        output.error(output.quoted(name), ": ", Sm3Sum.reason(e));
        counts.unreadable++;
        if (!options.status) {
            result(escape, shown, ": FAILED open or read\n");
        }
        return null;
    }

    private void result(boolean escape, byte[] shown, String verdict) {
        ByteArrayOutputStream line = new ByteArrayOutputStream(shown.length + 24);
        if (escape) {
            line.write('\\');
        }
        line.writeBytes(shown);
        line.writeBytes(output.bytes(verdict));
        output.line(line.toByteArray());
    }

    private boolean summarize(Counts counts, byte[] quotedFile) {
        if (!counts.properlyFormatted) {
            output.error(quotedFile, ": no properly formatted checksum lines found");
        } else if (!options.status) {
            if (counts.misformatted != 0) {
                output.error("WARNING: " + plural(counts.misformatted, "line is", "lines are")
                        + " improperly formatted");
            }
            if (counts.unreadable != 0) {
                output.error("WARNING: " + plural(counts.unreadable, "listed file", "listed files")
                        + " could not be read");
            }
            if (counts.mismatched != 0) {
                output.error("WARNING: " + plural(counts.mismatched, "computed checksum", "computed checksums")
                        + " did NOT match");
            }
            if (options.ignoreMissing && !counts.matched) {
                output.error(quotedFile, ": no file was verified");
            }
        }
        return counts.properlyFormatted && counts.matched && counts.mismatched == 0 && counts.unreadable == 0
                && (!options.strict || counts.misformatted == 0);
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException e) {
            // Every line has been read; nothing depends on the close.
        }
    }

    private static String plural(long n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    private static boolean contains(byte[] bytes, byte b) {
        for (byte x : bytes) {
            if (x == b) {
                return true;
            }
        }
        return false;
    }

    /** The next line with its newline, if it has one; null at the end. */
    private static byte[] readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(128);
        int b;
        while ((b = in.read()) >= 0) {
            line.write(b);
            if (b == '\n') {
                break;
            }
        }
        return line.size() == 0 && b < 0 ? null : line.toByteArray();
    }
}
