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
 * kb BINARY}. Lengths are random, most under 1 KiB, one in fifty up to 64 KiB; one value in a hundred is
 * NULL and one in a hundred empty; the text mixes ASCII, CJK and characters outside the BMP. Keys are never
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
    private static final String COMMON_KEY = "pseudonymisation key 密钥 \uD83D\uDD11";

    private TestRows() {
    }

    /** Row {@code id} of the data set with this seed: the same row wherever it is made. */
    static Row row(long seed, long id) {
        SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + id);
        String text = random.nextInt(100) == 0 ? null : text(random, length(random));
        byte[] binary = random.nextInt(100) == 0 ? null : bytes(random, length(random));
        String key = random.nextInt(100) == 0 ? null
                : random.nextInt(10) == 0 ? text(random, 1 + random.nextInt(80)) : COMMON_KEY;
        byte[] binaryKey = random.nextInt(100) == 0 ? null : bytes(random, 1 + random.nextInt(100));
        return RowFactory.create(id, text, binary, key, binaryKey);
    }

    static List<Row> rows(long seed, int count) {
        List<Row> rows = new ArrayList<>(count);
        for (long id = 0; id < count; id++) {
            rows.add(row(seed, id));
        }
        return rows;
    }

    /** The UTF-8 length of a value: 0 one time in a hundred, up to 64 KiB one in fifty, else under 1 KiB. */
    private static int length(SplittableRandom random) {
        int kind = random.nextInt(100);
        return kind == 0 ? 0 : kind <= 2 ? 1024 + random.nextInt(64 * 1024 - 1024 + 1) : random.nextInt(1024);
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
                case 0 -> 0x20 + random.nextInt(0x5F);            // ASCII
                case 1 -> 0x4E00 + random.nextInt(0x9FFF - 0x4E00); // CJK, 3 bytes
                default -> random.nextBoolean()
                        ? 0x20000 + random.nextInt(0xA6DF)       // CJK extension B, 4 bytes
                        : 0x1F600 + random.nextInt(0x50);        // emoji, 4 bytes
            };
            text.appendCodePoint(codePoint);
            bytes += Character.toString(codePoint).getBytes(StandardCharsets.UTF_8).length;
        }
        return text.toString();
    }

    /** The query over {@code rows} whose columns {@link #expected(Row)} gives. */
    static final String QUERY = "SELECT id, sm3(s), sm3(b), hmac_sm3(k, s), hmac_sm3(kb, b) FROM rows";

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
