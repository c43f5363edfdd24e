package io.github.sm3ffm.sm3sum;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.RandomAccessFile;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sparse file past 4 GiB, so that 32-bit lengths and offsets would overflow, against OpenSSL's own
 * {@code dgst}. Hashing it twice takes half a minute of CPU, so it runs only when asked:
 * {@code mvn verify -Dsm3ffm.test.large=true}.
 */
@EnabledIfSystemProperty(named = "sm3ffm.test.large", matches = "true")
class Sm3SumLargeFileTest {
    @TempDir
    Path dir;

    @Test
    void fileLargerThanFourGibMatchesOpenssl() throws Exception {
        Path file = dir.resolve("large");
        long fourGib = 1L << 32;
        long size = fourGib + FileHasher.WINDOW_SIZE / 2 + 5;
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(size);
            // Marks on both sides of each 2^31 and 2^32 boundary, so a wrapped offset would hash other bytes.
            for (long at : new long[] {0, (1L << 31) - 1, 1L << 31, fourGib - 1, fourGib, size - 1}) {
                f.seek(at);
                f.write((int) (at % 251) + 1);
            }
        }
        Runs.Result ours = Runs.sm3sum(file.toString());
        assertEquals(0, ours.exitCode(), ours::toString);
        assertEquals(Runs.openssl(new byte[0], file.toString()) + "  " + file + "\n", ours.out());
    }
}
