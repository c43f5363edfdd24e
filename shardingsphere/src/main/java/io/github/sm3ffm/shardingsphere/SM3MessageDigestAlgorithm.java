package io.github.sm3ffm.shardingsphere;

import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.apache.shardingsphere.infra.algorithm.core.exception.AlgorithmInitializationException;
import org.apache.shardingsphere.infra.algorithm.messagedigest.core.MessageDigestAlgorithm;

/**
 * ShardingSphere's message digest of type {@code SM3}: the lowercase hex SM3 of a value's text in UTF-8 followed
 * by the UTF-8 of the property {@code sm3-salt} (empty, or exactly 8 characters), null for null. These are the
 * values of the {@code SM3} algorithm of the shardingsphere-plugin repository (BouncyCastle), so that it can
 * replace that one over columns already written; SM3 is computed by OpenSSL instead.
 */
public final class SM3MessageDigestAlgorithm implements MessageDigestAlgorithm {
    static final String SALT = "sm3-salt";
    /** The plugin's rule, in characters (a salt of 8 non-ASCII characters is more than 8 bytes there too). */
    static final int SALT_LENGTH = 8;

    private byte[] salt = new byte[0];

    @Override
    public void init(Properties props) {
        String text = AssistedValues.property(props, SALT);
        if (!text.isEmpty() && text.length() != SALT_LENGTH) {
            throw new AlgorithmInitializationException(this, "%s should be empty or %d characters long, not %d",
                    SALT, SALT_LENGTH, text.length());
        }
        AssistedValues.requireAvailable(this);
        salt = text.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String digest(Object plainValue) {
        return AssistedValues.sm3(this, plainValue, salt);
    }

    @Override
    public String getType() {
        return "SM3";
    }
}
