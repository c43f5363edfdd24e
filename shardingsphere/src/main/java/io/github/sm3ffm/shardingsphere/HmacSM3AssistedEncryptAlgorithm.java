package io.github.sm3ffm.shardingsphere;

import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext;
import org.apache.shardingsphere.infra.algorithm.core.exception.AlgorithmInitializationException;

/**
 * The assisted-query encryptor of type {@code HMAC_SM3}: the lowercase hex HMAC-SM3 of a value's text in UTF-8
 * under the UTF-8 of the property {@code hmac-sm3-key} (required, not empty), null for null. Unlike a salted
 * digest, whose salt is in the rule, nobody without the key can test a guessed value against the column.
 *
 * <p>{@link #toConfiguration()}, which ShardingSphere compares to decide whether two columns are encrypted
 * alike, names the key by {@value #KEY_CHECK} (an HMAC-SM3 under the key of a fixed text) instead of holding
 * it: equal for equal keys, and no copy of the key for whatever prints or keeps configurations.
 */
public final class HmacSM3AssistedEncryptAlgorithm extends AssistedQueryEncryptAlgorithm {
    static final String KEY = "hmac-sm3-key";
    static final String KEY_CHECK = "hmac-sm3-key-check";
    private static final String KEY_CHECK_TEXT = "sm3-ffm HMAC_SM3 key check";

    private byte[] key;

    @Override
    public void init(Properties props) {
        String text = AssistedValues.property(props, KEY);
        if (text.isEmpty()) {
            throw new AlgorithmInitializationException(this, "%s is required and must not be empty", KEY);
        }
        AssistedValues.requireAvailable(this);
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        Properties shown = new Properties();
        shown.putAll(props);
        shown.remove(KEY);
        shown.setProperty(KEY_CHECK, AssistedValues.hmacSm3(this, bytes, KEY_CHECK_TEXT));
        key = bytes;
        show(shown);
    }

    @Override
    public String encrypt(Object plainValue, AlgorithmSQLContext algorithmSQLContext) {
        return AssistedValues.hmacSm3(this, key, plainValue);
    }

    @Override
    public String getType() {
        return "HMAC_SM3";
    }
}
