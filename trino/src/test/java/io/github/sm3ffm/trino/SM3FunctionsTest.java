package io.github.sm3ffm.trino;

import static io.github.sm3ffm.trino.BouncyCastleSM3.hmac;
import static io.github.sm3ffm.trino.BouncyCastleSM3.sm3;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.sm3ffm.RowHasher;
import io.trino.spi.type.SqlVarbinary;
import io.trino.sql.query.QueryAssertions;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@code sm3} and {@code hmac_sm3} through Trino's own query runner with the plugin installed, every value
 * checked against BouncyCastle: lengths around SM3's block and up to 70 KiB, NULLs, empty values, text through
 * {@code to_utf8}, keys shorter and longer than a block, and what Trino refuses at analysis.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SM3FunctionsTest {
    private static final HexFormat HEX = HexFormat.of();
    private final Random random = new Random(43);
    private QueryAssertions assertions;

    @BeforeAll
    void startEngine() {
        assertions = new QueryAssertions();
        assertions.addPlugin(new SM3TrinoPlugin());
    }

    @AfterAll
    void stopEngine() {
        assertions.close();
    }

    @Test
    void sm3OfTheStandardsExamples() {
        assertThat(hex(single("SELECT sm3(to_utf8('abc'))")))
                .isEqualTo("66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0");
        assertThat(hex(single("SELECT sm3(to_utf8('" + "abcd".repeat(16) + "'))")))
                .isEqualTo("debe9ff92275b8a138604889c18e5a4d6fdb70e5387e5765293dcba39c0c5732");
    }

    @Test
    void sm3OfEveryLengthMatchesBouncyCastle() {
        for (int length : lengths()) {
            byte[] value = bytes(length);
            assertThat(single("SELECT sm3(" + literal(value) + ")")).as("length %d", length).isEqualTo(sm3(value));
        }
    }

    @Test
    void rowsOfATableAreHashedEachOnItsOwn() {
        List<byte[]> values = new ArrayList<>();
        StringBuilder sql = new StringBuilder("SELECT i, sm3(v), hmac_sm3(v, k) FROM (VALUES ");
        byte[] key = bytes(20);
        for (int i = 0; i < 40; i++) {
            byte[] v = bytes(random.nextInt(3_000));
            values.add(v);
            sql.append(i == 0 ? "" : ", ").append("(").append(i).append(", ").append(literal(v)).append(", ")
                    .append(literal(key)).append(")");
        }
        sql.append(") t(i, v, k) ORDER BY i");
        List<MaterializedRow> rows = assertions.execute(sql.toString()).getMaterializedRows();
        assertThat(rows).hasSize(values.size());
        for (MaterializedRow row : rows) {
            byte[] v = values.get(((Number) row.getField(0)).intValue());
            assertThat(bytes(row.getField(1))).isEqualTo(sm3(v));
            assertThat(bytes(row.getField(2))).isEqualTo(hmac(key, v));
        }
    }

    @Test
    void textGoesThroughToUtf8() {
        String text = "SM3 杂凑算法 — Ωmega";
        assertThat(single("SELECT sm3(to_utf8('" + text + "'))")).isEqualTo(sm3(text.getBytes(StandardCharsets.UTF_8)));
        assertThat(single("SELECT hmac_sm3(to_utf8('" + text + "'), to_utf8('密钥'))"))
                .isEqualTo(hmac("密钥".getBytes(StandardCharsets.UTF_8), text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void hmacMatchesBouncyCastleWithTheDataFirstAndTheKeySecond() {
        for (int keyLength : new int[] {1, 16, 32, 64, 65, 200}) {
            for (int length : new int[] {0, 1, 63, 64, 1_000, 70 * 1024}) {
                byte[] key = bytes(keyLength);
                byte[] value = bytes(length);
                assertThat(single("SELECT hmac_sm3(" + literal(value) + ", " + literal(key) + ")"))
                        .as("key %d bytes, data %d bytes", keyLength, length).isEqualTo(hmac(key, value));
            }
        }
    }

    @Test
    void nullInGivesNullOut() {
        assertThat(single("SELECT sm3(CAST(NULL AS varbinary))")).isNull();
        assertThat(single("SELECT hmac_sm3(CAST(NULL AS varbinary), X'01')")).isNull();
        assertThat(single("SELECT hmac_sm3(X'01', CAST(NULL AS varbinary))")).isNull();
    }

    @Test
    void anEmptyKeyIsRefusedSayingWhy() {
        assertThatThrownBy(() -> assertions.execute("SELECT hmac_sm3(X'0102', X'')"))
                .hasMessageContaining("hmac_sm3: " + RowHasher.EMPTY_KEY);
    }

    @Test
    void aWrongArgumentTypeIsRefusedAtAnalysis() {
        assertThatThrownBy(() -> assertions.execute("SELECT sm3('abc')"))
                .hasMessageContaining("Unexpected parameters (varchar(3)) for function sm3");
        assertThatThrownBy(() -> assertions.execute("SELECT hmac_sm3(X'01', 'key')"))
                .hasMessageContaining("for function hmac_sm3");
    }

    @Test
    void theFunctionsAreDescribedAndDeterministic() {
        MaterializedResult functions = assertions.execute("SHOW FUNCTIONS LIKE '%sm3'");
        List<String> described = new ArrayList<>();
        for (MaterializedRow row : functions.getMaterializedRows()) {
            described.add(row.getFields().toString());
        }
        assertThat(described).anySatisfy(r -> assertThat(r).contains("sm3", "varbinary", "SM3 hash", "true"));
        assertThat(described).anySatisfy(r -> assertThat(r).contains("hmac_sm3", "varbinary, varbinary", "HMAC-SM3"));
    }

    private List<Integer> lengths() {
        List<Integer> lengths = new ArrayList<>(List.of(0, 1, 3, 55, 56, 63, 64, 65, 127, 128, 511, 512, 4_096,
                64 * 1024, 70 * 1024));
        for (int i = 0; i < 8; i++) {
            lengths.add(random.nextInt(70 * 1024 + 1));
        }
        return lengths;
    }

    private byte[] single(String sql) {
        MaterializedResult result = assertions.execute(sql);
        assertThat(result.getRowCount()).isEqualTo(1);
        Object value = result.getMaterializedRows().get(0).getField(0);
        return value == null ? null : bytes(value);
    }

    private static byte[] bytes(Object field) {
        return field instanceof SqlVarbinary v ? v.getBytes() : (byte[]) field;
    }

    private static String hex(byte[] value) {
        return HEX.formatHex(value);
    }

    private static String literal(byte[] value) {
        return "X'" + HEX.formatHex(value) + "'";
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

}
