package io.github.sm3ffm.shardingsphere;

import io.github.sm3ffm.RowHasher;
import io.github.sm3ffm.SM3Provider;
import java.nio.charset.StandardCharsets;
import java.security.ProviderException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Properties;
import org.apache.shardingsphere.infra.algorithm.core.ShardingSphereAlgorithm;
import org.apache.shardingsphere.infra.algorithm.core.exception.AlgorithmExecuteException;
import org.apache.shardingsphere.infra.algorithm.core.exception.AlgorithmInitializationException;

/**
 * What the algorithms do to a plain value: its text ({@code String.valueOf}) as UTF-8, hashed by the library's
 * {@link RowHasher} (shared by every thread; it caches a key's HMAC state), as lowercase hex. A failure inside
 * the library fails that value only, as ShardingSphere's {@link AlgorithmExecuteException} with the library's
 * reason (and its exception, suppressed: ShardingSphere's exceptions take no cause); the next value is computed
 * afresh.
 */
final class AssistedValues {
    private static final RowHasher ROWS = RowHasher.of();
    private static final HexFormat HEX = HexFormat.of();

    private AssistedValues() {
    }

    /** SM3 of the value's UTF-8 followed by the salt, as hex; null for null. */
    static String sm3(ShardingSphereAlgorithm algorithm, Object plain, byte[] salt) {
        if (plain == null) {
            return null;
        }
        byte[] text = String.valueOf(plain).getBytes(StandardCharsets.UTF_8);
        byte[] message = salt.length == 0 ? text : Arrays.copyOf(text, text.length + salt.length);
        System.arraycopy(salt, 0, message, text.length, salt.length);
        try {
            return HEX.formatHex(ROWS.sm3(message, 0, message.length));
        } catch (ProviderException e) {
            throw failed(algorithm, e);
        }
    }

    /** HMAC-SM3 of the value's UTF-8 under the key, as hex; null for null. */
    static String hmacSm3(ShardingSphereAlgorithm algorithm, byte[] key, Object plain) {
        if (plain == null) {
            return null;
        }
        byte[] text = String.valueOf(plain).getBytes(StandardCharsets.UTF_8);
        try {
            return HEX.formatHex(ROWS.hmacSm3(key, 0, key.length, text, 0, text.length));
        } catch (ProviderException e) {
            throw failed(algorithm, e);
        }
    }

    private static AlgorithmExecuteException failed(ShardingSphereAlgorithm algorithm, ProviderException e) {
        AlgorithmExecuteException failure = new AlgorithmExecuteException(algorithm, "%s", e.getMessage());
        failure.addSuppressed(e);
        return failure;
    }

    /**
     * A property as text: ShardingSphere's loader gives strings, but an algorithm made and initialised by hand
     * may be given a YAML number.
     */
    static String property(Properties props, String name) {
        Object value = props.get(name);
        return value == null ? "" : value.toString();
    }

    /** Refuses to start a rule in a JVM where OpenSSL cannot compute SM3, instead of failing every statement. */
    static void requireAvailable(ShardingSphereAlgorithm algorithm) {
        SM3Provider.unavailability().ifPresent(reason -> {
            AlgorithmInitializationException failure = new AlgorithmInitializationException(algorithm,
                    "SM3 from OpenSSL is unavailable in this JVM: %s", reason.getMessage());
            failure.addSuppressed(reason);
            throw failure;
        });
    }
}
