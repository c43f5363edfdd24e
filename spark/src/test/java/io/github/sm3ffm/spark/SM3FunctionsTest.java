package io.github.sm3ffm.spark;

import static io.github.sm3ffm.spark.SM3Functions.hmac_sm3;
import static io.github.sm3ffm.spark.SM3Functions.sm3;
import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.RowHasher;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** The SQL functions in local mode on two cores, as a user calls them, against BouncyCastle. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SM3FunctionsTest {
    private static final int ROWS = 100_000;
    private static final long SEED = 20261126;
    /** SM3("abc"), GB/T 32905-2016 appendix A.1. */
    private static final String SM3_ABC = "66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0";

    private SparkSession spark;
    private String[][] expected;

    @BeforeAll
    void start() {
        spark = SparkSession.builder()
                .master("local[2]")
                .appName("sm3-ffm-spark tests")
                .config("spark.sql.extensions", SM3SparkExtensions.class.getName())
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "4")
                .getOrCreate();
        List<Row> rows = TestRows.rows(SEED, TestRows.Lengths.TESTS, ROWS);
        expected = rows.stream().map(TestRows::expected).toArray(String[][]::new);
        // From an RDD, not a local list: Spark would evaluate a projection of a local list while planning.
        spark.createDataFrame(new JavaSparkContext(spark.sparkContext()).parallelize(rows, 8), TestRows.SCHEMA)
                .createOrReplaceTempView("rows");
    }

    @AfterAll
    void stop() {
        spark.stop();
    }

    @Test
    void everyRowMatchesBouncyCastleInWholeStageGeneratedCode() {
        String plan = explain(TestRows.QUERY);
        assertTrue(Pattern.compile("\\*\\(\\d+\\) Project \\[id#\\d+L, sm3\\(s#\\d+\\) AS sm3\\(s\\)").matcher(plan).find(),
                plan);
        assertMatchesBouncyCastle(spark.sql(TestRows.QUERY));
    }

    @Test
    void everyRowMatchesBouncyCastleInterpreted() {
        spark.conf().set("spark.sql.codegen.wholeStage", "false");
        spark.conf().set("spark.sql.codegen.factoryMode", "NO_CODEGEN");
        try {
            String plan = explain(TestRows.QUERY);
            assertTrue(plan.contains("\nProject [id#"), plan);
            assertFalse(plan.contains("*("), plan);
            assertMatchesBouncyCastle(spark.sql(TestRows.QUERY));
        } finally {
            spark.conf().unset("spark.sql.codegen.wholeStage");
            spark.conf().unset("spark.sql.codegen.factoryMode");
        }
    }

    private void assertMatchesBouncyCastle(Dataset<Row> result) {
        List<Row> rows = result.collectAsList();
        assertEquals(ROWS, rows.size());
        int nulls = 0;
        for (Row row : rows) {
            String[] want = expected[Math.toIntExact(row.getLong(0))];
            for (int c = 0; c < want.length; c++) {
                assertEquals(want[c], row.getString(c + 1), () -> "row " + row.getLong(0));
                nulls += want[c] == null ? 1 : 0;
            }
        }
        assertTrue(nulls > 0 && nulls < ROWS, "NULLs among the values: " + nulls);
    }

    @Test
    void generatedCodeCallsTheTasksHasher() {
        String code = spark.sql("EXPLAIN CODEGEN SELECT sm3(s), hmac_sm3(s, k) FROM rows")
                .collectAsList().getFirst().getString(0);
        assertTrue(code.contains("sm3RowHasher = new io.github.sm3ffm.spark.SM3RowHasher();"), code);
        assertTrue(code.contains("sm3RowHasher.sm3("), code);
        assertTrue(code.contains("sm3RowHasher.hmacSm3("), code);
    }

    @Test
    void dataFrameApiGivesTheSqlResult() {
        Dataset<Row> sql = spark.sql(TestRows.QUERY);
        Dataset<Row> api = spark.table("rows").select(col("id"), sm3(col("s")), sm3(col("b")),
                hmac_sm3(col("s"), col("k")), hmac_sm3(col("b"), col("kb")));
        assertArrayEquals(sql.columns(), api.columns());
        assertEquals(sql.queryExecution().optimizedPlan().canonicalized(),
                api.queryExecution().optimizedPlan().canonicalized());
        assertMatchesBouncyCastle(api);
    }

    @Test
    void knownAnswersNullsAndEmptyValues() {
        Row row = spark.sql("SELECT sm3('abc'), sm3(X'616263'), sm3(''), sm3(X''), hmac_sm3('abc', 'key'),"
                + " hmac_sm3(X'616263', X'6b6579'), sm3(NULL), sm3(CAST(NULL AS BINARY)), hmac_sm3('abc', NULL),"
                + " hmac_sm3(NULL, 'key'), hmac_sm3('', 'key'), hmac_sm3('abc', X'6b6579'), hmac_sm3(X'616263', 'key')")
                .collectAsList().getFirst();
        assertEquals(SM3_ABC, row.getString(0));
        assertEquals(SM3_ABC, row.getString(1));
        String empty = BouncyCastleSM3.sm3(new byte[0]);
        assertEquals(empty, row.getString(2));
        assertEquals(empty, row.getString(3));
        String mac = BouncyCastleSM3.hmacSm3(bytes("key"), bytes("abc"));
        assertEquals(mac, row.getString(4));
        assertEquals(mac, row.getString(5));
        for (int c = 6; c <= 9; c++) {
            assertNull(row.get(c), "column " + c);
        }
        assertEquals(BouncyCastleSM3.hmacSm3(bytes("key"), new byte[0]), row.getString(10));
        // STRING data with a BINARY key, and BINARY data with a STRING key.
        assertEquals(mac, row.getString(11));
        assertEquals(mac, row.getString(12));
    }

    @Test
    void mixedStringAndBinaryArgumentsOnEveryRow() {
        List<Row> rows = spark.sql("SELECT id, s, kb, b, k, hmac_sm3(s, kb), hmac_sm3(b, k) FROM rows")
                .collectAsList();
        int checked = 0;
        for (Row row : rows) {
            String textUnderBinary = row.isNullAt(1) || row.isNullAt(2) ? null
                    : BouncyCastleSM3.hmacSm3((byte[]) row.get(2), bytes(row.getString(1)));
            String binaryUnderText = row.isNullAt(3) || row.isNullAt(4) ? null
                    : BouncyCastleSM3.hmacSm3(bytes(row.getString(4)), (byte[]) row.get(3));
            assertEquals(textUnderBinary, row.getString(5), () -> "row " + row.getLong(0));
            assertEquals(binaryUnderText, row.getString(6), () -> "row " + row.getLong(0));
            checked += textUnderBinary != null && binaryUnderText != null ? 1 : 0;
        }
        assertTrue(checked > 0, "rows with both MACs: " + checked);
    }

    @Test
    void wrongArgumentTypesFailAtAnalysis() {
        assertAnalysisError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "SELECT sm3(array(1, 2)) FROM rows",
                "\"sm3(array(1, 2))\"", "(\"STRING\" or \"BINARY\")", "\"ARRAY<INT>\"");
        assertAnalysisError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "SELECT hmac_sm3(map(1, s), k) FROM rows",
                "\"hmac_sm3(map(1, s), k)\"", "first parameter", "\"MAP<INT, STRING>\"");
    }

    @Test
    void wrongArgumentCountsFailAtAnalysis() {
        assertAnalysisError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION", "SELECT sm3(s, b) FROM rows", "`sm3`",
                "requires 1 parameters", "actual number is 2");
        assertAnalysisError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION", "SELECT sm3() FROM rows", "`sm3`",
                "actual number is 0");
        assertAnalysisError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION", "SELECT hmac_sm3(s) FROM rows", "`hmac_sm3`",
                "requires 2 parameters", "actual number is 1");
    }

    private void assertAnalysisError(String condition, String query, String... inMessage) {
        AnalysisException e = assertThrows(AnalysisException.class, () -> spark.sql(query));
        assertEquals(condition, e.getCondition(), e.getMessage());
        for (String part : inMessage) {
            assertTrue(e.getMessage().contains(part), () -> part + " not in: " + e.getMessage());
        }
    }

    @Test
    void anEmptyKeyFailsTheQueryNamingFunctionAndReason() {
        String reason = "hmac_sm3: " + RowHasher.EMPTY_KEY;
        SparkException rows = assertThrows(SparkException.class,
                () -> spark.sql("SELECT hmac_sm3(s, substr(k, 1, 0)) FROM rows").collectAsList());
        assertTrue(rows.getMessage().contains(reason), rows.getMessage());
        // A constant empty key fails while Spark folds the constant, before any task.
        Exception folded = assertThrows(Exception.class,
                () -> spark.sql("SELECT hmac_sm3('abc', X'')").collectAsList());
        assertTrue(folded.getMessage().contains(reason), folded.getMessage());
    }

    @Test
    void aKeyJoinedFromATableStaysOutOfThePlan() {
        String key = "key from the secret store 7f3a9c";
        spark.createDataFrame(List.of(RowFactory.create(key)), new StructType().add("key", DataTypes.StringType))
                .createOrReplaceTempView("hmac_key");
        String query = "SELECT id, s, hmac_sm3(s, hmac_key.key) FROM rows CROSS JOIN hmac_key WHERE id < 1000";
        String plans = spark.sql("EXPLAIN EXTENDED " + query).collectAsList().getFirst().getString(0);
        assertTrue(plans.contains("hmac_sm3(s#") && plans.contains(", key#"), plans);
        assertFalse(plans.contains(key), plans);
        List<Row> rows = spark.sql(query).collectAsList();
        assertEquals(1000, rows.size());
        for (Row row : rows) {
            String want = row.isNullAt(1) ? null : BouncyCastleSM3.hmacSm3(bytes(key), bytes(row.getString(1)));
            assertEquals(want, row.getString(2), () -> "row " + row.getLong(0));
        }
    }

    @Test
    void checksumsOfTheFilesInADirectory(@TempDir Path directory) throws IOException {
        Map<String, String> expectedByName = new HashMap<>();
        SplittableRandom random = new SplittableRandom(SEED);
        for (int size : new int[] {1, 64, 65_537, 3 << 20}) {
            byte[] content = new byte[size];
            random.nextBytes(content);
            Files.write(directory.resolve("file-" + size), content);
            expectedByName.put("file-" + size, BouncyCastleSM3.sm3(content));
        }
        // Spark's file sources read no row from an empty file.
        Files.write(directory.resolve("empty"), new byte[0]);
        Map<String, String> byName = new HashMap<>();
        for (Row row : spark.sql("SELECT path, sm3(content) FROM binaryFile.`" + directory.toUri() + "`")
                .collectAsList()) {
            byName.put(row.getString(0).substring(row.getString(0).lastIndexOf('/') + 1), row.getString(1));
        }
        assertEquals(expectedByName, byName);
    }

    @Test
    void describeFunctionShowsTheUsage() {
        String described = spark.sql("DESCRIBE FUNCTION EXTENDED hmac_sm3").collectAsList().toString();
        assertTrue(described.contains("io.github.sm3ffm.spark.HmacSM3Expression"), described);
        assertTrue(described.contains("HMAC-SM3 (GM/T 0042-2015)"), described);
    }

    private String explain(String query) {
        return spark.sql("EXPLAIN " + query).collectAsList().getFirst().getString(0);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
