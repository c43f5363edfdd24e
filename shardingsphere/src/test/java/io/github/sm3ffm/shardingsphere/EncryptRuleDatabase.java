package io.github.sm3ffm.shardingsphere;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The database of {@code encrypt-rule.yaml}: an H2 database in memory holding the table {@code t_person}, opened
 * straight and through ShardingSphere's driver, which reads the rule's HMAC key from a system property.
 */
final class EncryptRuleDatabase implements AutoCloseable {
    static final String SALT = "Q7x2Lm9p";
    static final String KEY = "a key of the rule's, 32 bytes ok";
    private static final String H2_URL = "jdbc:h2:mem:sm3_e2e;DB_CLOSE_DELAY=-1;DATABASE_TO_UPPER=false;MODE=MySQL";
    private static final String SHARDINGSPHERE_URL =
            "jdbc:shardingsphere:classpath:encrypt-rule.yaml?placeholder-type=system_props";
    private static final String KEY_PROPERTY = "sm3ffm.test.hmac.key";

    /** The stored columns, read without ShardingSphere. */
    final Connection h2;
    /** The logical table: id, id_number, phone. */
    final Connection shardingSphere;

    private EncryptRuleDatabase(Connection h2, Connection shardingSphere) {
        this.h2 = h2;
        this.shardingSphere = shardingSphere;
    }

    /** Creates the table (ShardingSphere reads its columns when it starts) and opens both connections. */
    static EncryptRuleDatabase open() throws SQLException {
        Connection h2 = DriverManager.getConnection(H2_URL, "sa", "");
        try (Statement s = h2.createStatement()) {
            s.execute("CREATE TABLE t_person (id INT PRIMARY KEY, id_number_cipher VARCHAR(256),"
                    + " id_number_sm3 VARCHAR(64), phone_cipher VARCHAR(256), phone_hmac VARCHAR(64))");
        }
        System.setProperty(KEY_PROPERTY, KEY);
        try {
            return new EncryptRuleDatabase(h2, DriverManager.getConnection(SHARDINGSPHERE_URL));
        } finally {
            System.clearProperty(KEY_PROPERTY);
        }
    }

    @Override
    public void close() throws SQLException {
        shardingSphere.close();
        try (Statement s = h2.createStatement()) {
            s.execute("DROP TABLE t_person");
        }
        h2.close();
    }
}
