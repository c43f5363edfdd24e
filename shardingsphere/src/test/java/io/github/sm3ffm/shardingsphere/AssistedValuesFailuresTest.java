package io.github.sm3ffm.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.FailEachCall;
import io.github.sm3ffm.internal.libcrypto.Faults;
import java.security.ProviderException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.shardingsphere.encrypt.spi.EncryptAlgorithm;
import org.apache.shardingsphere.infra.algorithm.core.exception.AlgorithmExecuteException;
import org.apache.shardingsphere.infra.spi.type.typed.TypedSPILoader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The algorithms while the library's native calls fail one at a time (the library's test seam, {@link Faults}):
 * every failable call that a value makes fails in turn, and each time the value either fails with
 * ShardingSphere's {@link AlgorithmExecuteException} with the library's exception suppressed, or is right, and
 * the values after it (the same and others, each algorithm) are right. Then the same through
 * ShardingSphere-JDBC: a failed call fails its statement with an {@link SQLException} and the next statements
 * store the right values. Runs in a Surefire execution of its own, since the failing backend must be installed
 * before anything in the JVM loads libcrypto.
 */
class AssistedValuesFailuresTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final String SALT = "Q7x2Lm9p";
    private static final String KEY = "a key of 33 bytes, for a change.!";
    /** Longer than SM3's block: the library hashes it natively while keying a Mac. */
    private static final String LONG_KEY = "a long key ".repeat(8);

    @BeforeAll
    static void installFaults() {
        Faults.install();
    }

    private static EncryptAlgorithm load(String type, String property, String value) {
        Properties props = new Properties();
        props.setProperty(property, value);
        return TypedSPILoader.getService(EncryptAlgorithm.class, type, props);
    }

    private static boolean isAlgorithmFailure(RuntimeException e) {
        return e instanceof AlgorithmExecuteException && e.getSuppressed().length == 1
                && e.getSuppressed()[0] instanceof ProviderException;
    }

    @Test
    void everyFailedNativeCallFailsItsValueOnlyAndTheNextValuesAreRight() {
        EncryptAlgorithm sm3 = load("SM3", "sm3-salt", SALT);
        EncryptAlgorithm unsalted = load("SM3", "sm3-salt", "");
        EncryptAlgorithm hmac = load("HMAC_SM3", "hmac-sm3-key", KEY);
        EncryptAlgorithm longKeyHmac = load("HMAC_SM3", "hmac-sm3-key", LONG_KEY);
        Random random = new Random(11);
        List<FailEachCall.Outcome> outcomes = new ArrayList<>();
        for (String value : List.of(RealisticValues.idNumber(random), RealisticValues.phoneNumber(random),
                RealisticValues.text(random, 1024))) {
            Runnable nextValues = () -> {
                for (String v : List.of(value, RealisticValues.phoneNumber(random))) {
                    assertEquals(BouncyCastleReference.pluginSm3(v, SALT), sm3.encrypt(v, null));
                    assertEquals(BouncyCastleReference.pluginSm3(v, ""), unsalted.encrypt(v, null));
                    assertEquals(BouncyCastleReference.hmacSm3(KEY, v), hmac.encrypt(v, null));
                    assertEquals(BouncyCastleReference.hmacSm3(LONG_KEY, v), longKeyHmac.encrypt(v, null));
                }
            };
            nextValues.run();
            String size = value.length() + " characters";
            outcomes.add(FailEachCall.run("SM3, " + size, raw(sm3, value),
                    HEX.parseHex(BouncyCastleReference.pluginSm3(value, SALT)),
                    AssistedValuesFailuresTest::isAlgorithmFailure,
                    nextValues));
            outcomes.add(FailEachCall.run("HMAC_SM3, " + size, raw(hmac, value),
                    HEX.parseHex(BouncyCastleReference.hmacSm3(KEY, value)),
                    AssistedValuesFailuresTest::isAlgorithmFailure,
                    nextValues));
            outcomes.add(FailEachCall.run("HMAC_SM3 with a long key, " + size, raw(longKeyHmac, value),
                    HEX.parseHex(BouncyCastleReference.hmacSm3(LONG_KEY, value)),
                    AssistedValuesFailuresTest::isAlgorithmFailure, nextValues));
        }
        outcomes.forEach(o -> System.out.println("AssistedValuesFailuresTest: " + o));
        assertTrue(outcomes.stream().mapToInt(FailEachCall.Outcome::failedRows).sum() > 0);
    }

    private static Supplier<byte[]> raw(EncryptAlgorithm algorithm, String value) {
        return () -> HEX.parseHex((String) algorithm.encrypt(value, null));
    }

    /** What a statement's failure is, on this side of {@link Supplier}. */
    private static final class StatementFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StatementFailed(SQLException cause) {
            super(cause);
        }
    }

    @Test
    void aFailedNativeCallFailsItsInsertOnlyAndTheNextRowsAreStoredRight() throws SQLException {
        AtomicInteger ids = new AtomicInteger();
        Random random = new Random(12);
        try (EncryptRuleDatabase database = EncryptRuleDatabase.open()) {
            String idNumber = RealisticValues.idNumber(random);
            String phone = RealisticValues.phoneNumber(random);
            byte[] expected = HEX.parseHex(BouncyCastleReference.pluginSm3(idNumber, EncryptRuleDatabase.SALT)
                    + BouncyCastleReference.hmacSm3(EncryptRuleDatabase.KEY, phone));
            Supplier<byte[]> insert =
                    () -> stored(database, insertRow(database, ids.incrementAndGet(), idNumber, phone));
            Runnable nextRows = () -> {
                for (int i = 0; i < 2; i++) {
                    String otherPhone = RealisticValues.phoneNumber(random);
                    byte[] stored = stored(database, insertRow(database, ids.incrementAndGet(), idNumber, otherPhone));
                    assertEquals(BouncyCastleReference.pluginSm3(idNumber, EncryptRuleDatabase.SALT)
                            + BouncyCastleReference.hmacSm3(EncryptRuleDatabase.KEY, otherPhone),
                            HEX.formatHex(stored));
                }
            };
            insert.get();
            nextRows.run();
            FailEachCall.Outcome outcome = FailEachCall.run("INSERT through ShardingSphere-JDBC", insert, expected,
                    e -> e instanceof StatementFailed && e.getCause().getMessage().contains("execute failed"),
                    nextRows);
            System.out.println("AssistedValuesFailuresTest: " + outcome);
            assertTrue(outcome.failedRows() > 0);
        }
    }

    private static int insertRow(EncryptRuleDatabase database, int id, String idNumber, String phone) {
        try (PreparedStatement insert = database.shardingSphere.prepareStatement(
                "INSERT INTO t_person (id, id_number, phone) VALUES (?, ?, ?)")) {
            insert.setInt(1, id);
            insert.setString(2, idNumber);
            insert.setString(3, phone);
            assertEquals(1, insert.executeUpdate());
            return id;
        } catch (SQLException e) {
            throw new StatementFailed(e);
        }
    }

    /** The row's two assisted columns as stored, SM3 then HMAC-SM3, read without ShardingSphere. */
    private static byte[] stored(EncryptRuleDatabase database, int id) {
        try (PreparedStatement query = database.h2.prepareStatement(
                "SELECT id_number_sm3, phone_hmac FROM t_person WHERE id = ?")) {
            query.setInt(1, id);
            try (ResultSet row = query.executeQuery()) {
                assertTrue(row.next());
                return HEX.parseHex(row.getString(1) + row.getString(2));
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }
}
