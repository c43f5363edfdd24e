package io.github.sm3ffm.sm3sum;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;

/**
 * Computes the SM3 of files and streams with no copy into the Java heap.
 *
 * <p>A file's first {@value #BUFFER_SIZE} bytes are read into a reused direct buffer (a small file needs
 * nothing else, and a directory fails there with "Is a directory" as it does for coreutils). The rest up
 * to the size the file had is memory-mapped in windows of {@value #WINDOW_SIZE} bytes, each in its own
 * confined arena that is closed, unmapping it, as soon as OpenSSL has hashed it. Both reach the
 * {@code MessageDigest} as direct {@code ByteBuffer}s, which the provider hands to OpenSSL by address, so
 * the page cache is hashed in place: reading through a buffer was slower by the cost of the copy, and the
 * window size made no difference (docs/design-notebook.md has the measurements). 64 MiB keeps the address space
 * used small and lets the progress line move a few times a second. Whatever follows (a file that grew, a
 * {@code /proc} file that reports size 0) and every pipe, device and standard input are read through the
 * same buffer until end of file.
 *
 * <p>Like every tool that maps files, a file truncated by another process while it is being hashed
 * ends the JVM with SIGBUS when OpenSSL touches a page past the new end.
 */
final class FileHasher {
    static final int BUFFER_SIZE = 256 * 1024;
    static final long WINDOW_SIZE = 64L * 1024 * 1024;

    private final MessageDigest digest;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_SIZE);

    FileHasher(MessageDigest digest) {
        this.digest = digest;
    }

    /** The SM3 of the file at {@code path}, opened and read here; {@code meter} sees the bytes go by. */
    byte[] hash(Path path, Progress.Meter meter) throws IOException {
        if (path.toString().isEmpty()) {
            // Path.of("") is the working directory; for coreutils an empty name is a missing file.
            throw new NoSuchFileException("");
        }
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = channel.size();
            meter.start(size);
            long done = fill(channel, meter, 0);
            if (done == BUFFER_SIZE) {
                if (size > done) {
                    done = map(channel, done, size, meter);
                    channel.position(done);
                }
                readToEnd(channel, meter, done);
            }
            return finish(meter);
        } catch (IOException | RuntimeException e) {
            discard();
            throw e;
        }
    }

    /** The SM3 of what is left in {@code channel} (a pipe, a terminal, standard input). */
    byte[] hash(ReadableByteChannel channel, Progress.Meter meter) throws IOException {
        meter.start(-1);
        try {
            readToEnd(channel, meter, 0);
            return finish(meter);
        } catch (IOException | RuntimeException e) {
            discard();
            throw e;
        }
    }

    /** Drops a partly hashed input. */
    private void discard() {
        digest.reset();
    }

    private byte[] finish(Progress.Meter meter) {
        byte[] result = digest.digest();
        meter.finish();
        return result;
    }

    private long readToEnd(ReadableByteChannel channel, Progress.Meter meter, long done) throws IOException {
        long before;
        do {
            before = done;
            done = fill(channel, meter, done);
        } while (done - before == BUFFER_SIZE);
        return done;
    }

    /** Reads until the buffer is full or the input ends, and hashes what was read. */
    private long fill(ReadableByteChannel channel, Progress.Meter meter, long done) throws IOException {
        buffer.clear();
        // A pipe gives what its writer has written so far: read until the buffer is full or the input ends.
        int read;
        do {
            read = channel.read(buffer);
        } while (read >= 0 && buffer.hasRemaining());
        int n = buffer.position();
        if (n > 0) {
            digest.update(buffer.flip());
            meter.update(done + n);
        }
        return done + n;
    }

    private long map(FileChannel channel, long from, long size, Progress.Meter meter) throws IOException {
        long done = from;
        while (done < size) {
            long length = Math.min(WINDOW_SIZE, size - done);
            try (Arena window = Arena.ofConfined()) {
                digest.update(channel.map(FileChannel.MapMode.READ_ONLY, done, length, window).asByteBuffer());
            }
            done += length;
            meter.update(done);
        }
        return done;
    }
}
