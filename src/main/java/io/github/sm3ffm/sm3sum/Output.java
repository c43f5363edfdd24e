package io.github.sm3ffm.sm3sum;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * Standard output and standard error as bytes, so that file names come out exactly as they came in.
 * Standard output is written a whole line at a time, as coreutils' line-buffered output is, so the lines
 * of tools running in parallel do not mix and every line is out before any later error.
 */
final class Output {
    static final String PROGRAM = "sm3sum";

    private final OutputStream out;
    private final OutputStream err;
    private final Charset names;

    /** The encoding the JVM uses for file names and command-line arguments. */
    static Charset platformNames() {
        return Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"), Charset.defaultCharset());
    }

    /** {@code names}: the platform's encoding of file names, in which arguments arrived. */
    Output(OutputStream out, OutputStream err, Charset names) {
        this.out = out;
        this.err = err;
        this.names = names;
    }

    /** A name given on the command line, as the bytes it was given as. */
    byte[] bytes(String name) {
        return name.getBytes(names);
    }

    /** A name read from a checksum file, as the platform's file APIs take it. */
    String string(byte[] name) {
        return new String(name, names);
    }

    /** A name quoted for an error message. */
    byte[] quoted(byte[] name) {
        return ShellQuote.quotef(name, names.equals(StandardCharsets.UTF_8));
    }

    /** Writes one line (or several ending in a newline or NUL) to standard output. */
    void line(byte[] line) {
        try {
            out.write(line);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void line(String line) {
        line(line.getBytes(names));
    }

    /** "sm3sum: " and the parts, each a string or the bytes of a (quoted) name, as one line on standard error. */
    void error(Object... parts) {
        ByteArrayOutputStream line = new ByteArrayOutputStream(128);
        line.writeBytes((PROGRAM + ": ").getBytes(names));
        for (Object part : parts) {
            line.writeBytes(part instanceof byte[] b ? b : part.toString().getBytes(names));
        }
        line.write('\n');
        toStandardError(line.toByteArray());
    }

    /** A command-line error, then coreutils' pointer to --help. */
    void usageError(String message) {
        error(message);
        toStandardError(("Try '" + PROGRAM + " --help' for more information.\n").getBytes(names));
    }

    void progress(byte[] text) {
        toStandardError(text);
    }

    private void toStandardError(byte[] bytes) {
        try {
            err.write(bytes);
            err.flush();
        } catch (IOException e) {
            // Nowhere left to report it; the exit status still tells.
        }
    }
}
