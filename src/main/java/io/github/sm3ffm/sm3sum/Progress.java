package io.github.sm3ffm.sm3sum;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * The {@code --progress} line on standard error: bytes hashed, percent of the size when it is known, and
 * the rate so far. Shown when asked, or without asking when standard error is a terminal and the input
 * is large ({@value #LARGE} bytes or more, a second or so of hashing). On a terminal the line is redrawn
 * in place and erased when the input is done; elsewhere each update is a line of its own, and the last
 * says 100%, so a log shows how the run went.
 */
final class Progress {
    static final long LARGE = 256L * 1024 * 1024;
    private static final long INTERVAL_NANOS = 500_000_000L;

    private final Output output;
    private final boolean asked;
    private final BooleanSupplier stderrIsTerminal;
    private Boolean terminal;

    /** {@code stderrIsTerminal} is asked once, and only when the answer matters. */
    Progress(Output output, boolean asked, BooleanSupplier stderrIsTerminal) {
        this.output = output;
        this.asked = asked;
        this.stderrIsTerminal = stderrIsTerminal;
    }

    private boolean terminal() {
        if (terminal == null) {
            terminal = stderrIsTerminal.getAsBoolean();
        }
        return terminal;
    }

    /** A meter for one input, named as in error messages. */
    Meter meter(byte[] quotedName) {
        return new Meter(quotedName);
    }

    final class Meter {
        private final byte[] name;
        private long size;
        private long done;
        private long startNanos;
        private long nextNanos;
        private boolean drawn;
        private long drawnDone = -1;

        private Meter(byte[] name) {
            this.name = name;
        }

        /** The input is open; {@code size} is -1 when it is not known (a pipe). */
        void start(long size) {
            this.size = size;
            this.startNanos = System.nanoTime();
            this.nextNanos = startNanos + INTERVAL_NANOS;
        }

        void update(long done) {
            this.done = done;
            if (!asked && size < LARGE && done < LARGE) {
                return;
            }
            long now = System.nanoTime();
            if (now - nextNanos >= 0 && (asked || terminal())) {
                nextNanos = now + INTERVAL_NANOS;
                draw(now);
            }
        }

        void finish() {
            if (drawn && terminal()) {
                output.progress("\r\033[K".getBytes(StandardCharsets.US_ASCII));
            } else if (asked && !terminal() && drawnDone != done) {
                draw(System.nanoTime());
            }
        }

        private void draw(long now) {
            String amount = size >= 0
                    ? String.format(Locale.ROOT, "%d/%d bytes (%d%%)", done, size, size == 0 ? 100 : done * 100 / size)
                    : done + " bytes";
            double seconds = Math.max(now - startNanos, 1) / 1e9;
            ByteArrayOutputStream line = new ByteArrayOutputStream(128);
            line.writeBytes(((terminal() ? "\r" : "") + Output.PROGRAM + ": ").getBytes(StandardCharsets.US_ASCII));
            line.writeBytes(name);
            line.writeBytes(String.format(Locale.ROOT, ": %s, %.1f MB/s%s", amount, done / seconds / 1e6,
                    terminal() ? "\033[K" : "\n").getBytes(StandardCharsets.US_ASCII));
            output.progress(line.toByteArray());
            drawn = true;
            drawnDone = done;
        }
    }
}
