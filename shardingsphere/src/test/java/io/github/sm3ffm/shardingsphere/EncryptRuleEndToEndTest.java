package io.github.sm3ffm.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * ShardingSphere-JDBC over H2 in this JVM, with the encrypt rule of {@code encrypt-rule.yaml} (opened through
 * ShardingSphere's driver, as a user's application does): rows written through ShardingSphere, their assisted
 * columns read straight from H2 and checked against BouncyCastle (SM3 as the shardingsphere-plugin computes it,
 * HMAC-SM3 under the key the rule was given), and equality queries by plain value through ShardingSphere.
 */
class EncryptRuleEndToEndTest {
    private static final String SALT = EncryptRuleDatabase.SALT;
    private static final String KEY = EncryptRuleDatabase.KEY;
    private static final int ROWS = 60;

    private static EncryptRuleDatabase database;
    private static Connection h2;
    private static Connection shardingSphere;
    /** Each row's plain values, by id; a phone may be null. */
    private static final Map<Integer, String[]> WRITTEN = new TreeMap<>();

    @BeforeAll
    static void writeRows() throws SQLException {
        database = EncryptRuleDatabase.open();
        h2 = database.h2;
        shardingSphere = database.shardingSphere;
        Random random = new Random(7);
        List<String> ids = new ArrayList<>();
        List<String> phones = new ArrayList<>();
        try (PreparedStatement insert = shardingSphere.prepareStatement(
                "INSERT INTO t_person (id, id_number, phone) VALUES (?, ?, ?)")) {
            for (int id = 1; id <= ROWS; id++) {
                // Some values repeat, so that a query by value finds several rows.
                String idNumber = id % 7 == 0 ? ids.get(random.nextInt(ids.size())) : RealisticValues.idNumber(random);
                String phone = id % 10 == 0 ? null
                        : id % 5 == 0 ? phones.get(random.nextInt(phones.size())) : RealisticValues.phoneNumber(random);
                ids.add(idNumber);
                if (phone != null) {
                    phones.add(phone);
                }
                insert.setInt(1, id);
                insert.setString(2, idNumber);
                insert.setString(3, phone);
                assertEquals(1, insert.executeUpdate());
                WRITTEN.put(id, new String[] {idNumber, phone});
            }
        }
    }

    @AfterAll
    static void close() throws SQLException {
        if (database != null) {
            database.close();
        }
    }

    @Test
    void theStoredAssistedColumnsAreTheReferenceValues() throws SQLException {
        int rows = 0;
        try (Statement s = h2.createStatement();
             ResultSet stored = s.executeQuery(
                     "SELECT id, id_number_cipher, id_number_sm3, phone_cipher, phone_hmac FROM t_person")) {
            while (stored.next()) {
                String[] plain = WRITTEN.get(stored.getInt("id"));
                assertEquals(BouncyCastleReference.pluginSm3(plain[0], SALT), stored.getString("id_number_sm3"));
                assertEquals(BouncyCastleReference.hmacSm3(KEY, plain[1]), stored.getString("phone_hmac"));
                assertNotEquals(plain[0], stored.getString("id_number_cipher"));
                if (plain[1] == null) {
                    assertNull(stored.getString("phone_hmac"));
                } else {
                    assertNotEquals(plain[1], stored.getString("phone_cipher"));
                }
                rows++;
            }
        }
        assertEquals(ROWS, rows);
    }

    @Test
    void aQueryByPlainValueFindsItsRows() throws SQLException {
        String[] columns = {"id_number", "phone"};
        for (int c = 0; c < columns.length; c++) {
            Map<String, Set<Integer>> expected = new TreeMap<>();
            for (Map.Entry<Integer, String[]> row : WRITTEN.entrySet()) {
                String value = row.getValue()[c];
                if (value != null) {
                    expected.computeIfAbsent(value, v -> new TreeSet<>()).add(row.getKey());
                }
            }
            assertTrue(expected.values().stream().anyMatch(ids -> ids.size() > 1), columns[c] + ": no repeated value");
            for (Map.Entry<String, Set<Integer>> value : expected.entrySet()) {
                assertEquals(value.getValue(), idsWhere(columns[c], value.getKey()),
                        columns[c] + " = " + value.getKey());
            }
        }
        Random random = new Random(8);
        String absentId = RealisticValues.idNumber(random);
        String absentPhone = RealisticValues.phoneNumber(random);
        assertFalse(WRITTEN.values().stream().anyMatch(r -> absentId.equals(r[0]) || absentPhone.equals(r[1])));
        assertEquals(Set.of(), idsWhere("id_number", absentId));
        assertEquals(Set.of(), idsWhere("phone", absentPhone));
    }

    @Test
    void shardingSphereReadsThePlainValuesBack() throws SQLException {
        try (Statement s = shardingSphere.createStatement();
             ResultSet rows = s.executeQuery("SELECT id, id_number, phone FROM t_person ORDER BY id")) {
            int count = 0;
            while (rows.next()) {
                String[] plain = WRITTEN.get(rows.getInt(1));
                assertEquals(plain[0], rows.getString(2));
                assertEquals(plain[1], rows.getString(3));
                count++;
            }
            assertEquals(ROWS, count);
        }
    }

    @Test
    void anUpdateByPlainValueRewritesTheAssistedColumn() throws SQLException {
        String before = WRITTEN.get(3)[1];
        String after = "13800138000";
        assertFalse(WRITTEN.values().stream().anyMatch(r -> after.equals(r[1])));
        try (PreparedStatement update = shardingSphere.prepareStatement("UPDATE t_person SET phone = ? WHERE id = ?")) {
            update.setString(1, after);
            update.setInt(2, 3);
            assertEquals(1, update.executeUpdate());
        }
        try {
            assertEquals(Set.of(3), idsWhere("phone", after));
            try (PreparedStatement stored = h2.prepareStatement("SELECT phone_hmac FROM t_person WHERE id = 3");
                 ResultSet row = stored.executeQuery()) {
                assertTrue(row.next());
                assertEquals(BouncyCastleReference.hmacSm3(KEY, after), row.getString(1));
            }
        } finally {
            try (PreparedStatement update = shardingSphere.prepareStatement(
                    "UPDATE t_person SET phone = ? WHERE id = ?")) {
                update.setString(1, before);
                update.setInt(2, 3);
                update.executeUpdate();
            }
        }
    }

    private static Set<Integer> idsWhere(String column, String value) throws SQLException {
        Set<Integer> ids = new TreeSet<>();
        try (PreparedStatement query = shardingSphere.prepareStatement(
                "SELECT id FROM t_person WHERE " + column + " = ?")) {
            query.setString(1, value);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getInt(1));
                }
            }
        }
        return ids;
    }
}
