package io.github.sm3ffm.shardingsphere;

import java.util.Properties;
import org.apache.shardingsphere.encrypt.spi.EncryptAlgorithm;
import org.apache.shardingsphere.encrypt.spi.EncryptAlgorithmMetaData;
import org.apache.shardingsphere.infra.algorithm.core.config.AlgorithmConfiguration;
import org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext;

/**
 * What an assisted-query encryptor is, as ShardingSphere's own {@code MD5}: an equality filter that cannot be
 * decrypted nor matched by LIKE, whose configuration is its type and the properties its {@code init} chose to show.
 */
abstract sealed class AssistedQueryEncryptAlgorithm implements EncryptAlgorithm
        permits SM3AssistedEncryptAlgorithm, HmacSM3AssistedEncryptAlgorithm {
    private final EncryptAlgorithmMetaData metaData = new EncryptAlgorithmMetaData(false, true, false);
    private Properties shown = new Properties();

    /** What {@link #toConfiguration()} gives with the type, from now on. */
    final void show(Properties props) {
        shown = props;
    }

    @Override
    public final Object decrypt(Object cipherValue, AlgorithmSQLContext algorithmSQLContext) {
        throw new UnsupportedOperationException(String.format("Algorithm `%s` is unsupported to decrypt", getType()));
    }

    @Override
    public final EncryptAlgorithmMetaData getMetaData() {
        return metaData;
    }

    @Override
    public final AlgorithmConfiguration toConfiguration() {
        return new AlgorithmConfiguration(getType(), shown);
    }
}
