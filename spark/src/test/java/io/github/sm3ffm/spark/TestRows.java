package io.github.sm3ffm.spark;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Rows of random values for the tests and the cluster job: {@code id BIGINT, s STRING, b BINARY, k STRING,
 * kb BINARY}. Lengths are random ({@link Lengths}): most short, some up to 64 KiB; one value in a hundred
 * is NULL and one in a hundred empty; the text mixes ASCII, CJK and characters outside the BMP. Keys are never
 * empty (an empty key is an error); {@code k} is mostly one key, so the per-task {@code Mac} is rekeyed only
 * sometimes, and {@code kb} keys run from 1 to 100 bytes, past the 64-byte block.
 */
final class TestRows {
    static final StructType SCHEMA = new StructType()
            .add("id", DataTypes.LongType, false)
            .add("s", DataTypes.StringType)
            .add("b", DataTypes.BinaryType)
            .add("k", DataTypes.StringType)
            .add("kb", DataTypes.BinaryType);
    /** The query over {@code rows} whose columns {@link #expected(Row)} gives. */
    static final String QUERY = "SELECT id, sm3(s), sm3(b), hmac_sm3(s, k), hmac_sm3(b, kb) FROM rows";
    private static final String COMMON_KEY = "pseudonymisation key 密钥 \uD83D\uDD11";

    /**
     * How long values are: under {@code shortBelow} UTF-8 bytes, except one in {@code longEvery} from
     * {@code shortBelow} to 64 KiB.
     */
    record Lengths(int shortBelow, int longEvery) {
        /** The local tests': most under 1 KiB, one in fifty longer. */
        static final Lengths TESTS = new Lengths(1024, 50);
        /** The cluster job's, for a million rows on two cores: most under 256 B, one in a thousand longer. */
        static final Lengths CLUSTER = new Lengths(256, 1000);

        /** 0 one time in a hundred, else as above. */
        int next(SplittableRandom random) {
            if (random.nextInt(100) == 0) {
                return 0;
            }
            return random.nextInt(longEvery) == 0
                    ? shortBelow + random.nextInt(64 * 1024 - shortBelow + 1)
                    : random.nextInt(shortBelow);
        }
    }

    private TestRows() {
    }

    /** Row {@code id} of the data set with this seed: the same row wherever it is made. */
    static Row row(long seed, Lengths lengths, long id) {
        SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + id);
        String text = random.nextInt(100) == 0 ? null : text(random, lengths.next(random));
        byte[] binary = random.nextInt(100) == 0 ? null : bytes(random, lengths.next(random));
        String key = random.nextInt(100) == 0 ? null
                : random.nextInt(10) == 0 ? text(random, 1 + random.nextInt(80)) : COMMON_KEY;
        byte[] binaryKey = random.nextInt(100) == 0 ? null : bytes(random, 1 + random.nextInt(100));
        return RowFactory.create(id, text, binary, key, binaryKey);
    }

    static List<Row> rows(long seed, Lengths lengths, int count) {
        List<Row> rows = new ArrayList<>(count);
        for (long id = 0; id < count; id++) {
            rows.add(row(seed, lengths, id));
        }
        return rows;
    }

    private static byte[] bytes(SplittableRandom random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    /** Text of about {@code utf8Length} UTF-8 bytes, each value in one script or a mix of them. */
    private static String text(SplittableRandom random, int utf8Length) {
        StringBuilder text = new StringBuilder();
        int script = random.nextInt(4);
        int bytes = 0;
        while (bytes < utf8Length) {
            int codePoint = switch (script == 3 ? random.nextInt(3) : script) {
                case 0 -> 0x20 + random.nextInt(0x5F);              // ASCII
                case 1 -> 0x4E00 + random.nextInt(0x9FFF - 0x4E00); // CJK
                default -> random.nextBoolean()
                        ? 0x20000 + random.nextInt(0xA6DF)         // CJK extension B, outside the BMP
                        : 0x1F600 + random.nextInt(0x50);          // emoji, outside the BMP
            };
            text.appendCodePoint(codePoint);
            bytes += codePoint < 0x80 ? 1 : codePoint < 0x10000 ? 3 : 4;
        }
        return text.toString();
    }

    /** BouncyCastle's answers for the four hash columns of {@link #QUERY} over {@code row}. */
    static String[] expected(Row row) {
        byte[] text = row.isNullAt(1) ? null : row.getString(1).getBytes(StandardCharsets.UTF_8);
        byte[] binary = row.isNullAt(2) ? null : (byte[]) row.get(2);
        byte[] key = row.isNullAt(3) ? null : row.getString(3).getBytes(StandardCharsets.UTF_8);
        byte[] binaryKey = row.isNullAt(4) ? null : (byte[]) row.get(4);
        return new String[] {
            text == null ? null : BouncyCastleSM3.sm3(text),
            binary == null ? null : BouncyCastleSM3.sm3(binary),
            key == null || text == null ? null : BouncyCastleSM3.hmacSm3(key, text),
            binaryKey == null || binary == null ? null : BouncyCastleSM3.hmacSm3(binaryKey, binary),
        };
    }
}
