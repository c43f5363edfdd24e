package io.github.sm3ffm.shardingsphere;

import java.util.Properties;
import org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext;

/**
 * The assisted-query encryptor of type {@code SM3}: {@link SM3MessageDigestAlgorithm}'s values. It owns its digest
 * instead of looking one up by type, as ShardingSphere's {@code MD5} does, so that another {@code SM3} digest on
 * the class path cannot be taken for it.
 */
public final class SM3AssistedEncryptAlgorithm extends AssistedQueryEncryptAlgorithm {
    private final SM3MessageDigestAlgorithm digest = new SM3MessageDigestAlgorithm();

    @Override
    public void init(Properties props) {
        digest.init(props);
        show(props);
    }

    @Override
    public String encrypt(Object plainValue, AlgorithmSQLContext algorithmSQLContext) {
        return digest.digest(plainValue);
    }

    @Override
    public String getType() {
        return "SM3";
    }
}
