package io.github.sm3ffm.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.shardingsphere.encrypt.spi.EncryptAlgorithm;
import org.apache.shardingsphere.infra.algorithm.core.config.AlgorithmConfiguration;
import org.apache.shardingsphere.infra.algorithm.core.exception.AlgorithmInitializationException;
import org.apache.shardingsphere.infra.algorithm.messagedigest.core.MessageDigestAlgorithm;
import org.apache.shardingsphere.infra.spi.type.typed.TypedSPILoader;
import org.junit.jupiter.api.Test;

/**
 * The algorithms as ShardingSphere finds and initialises them (its {@link TypedSPILoader}, which reads
 * {@code META-INF/services}), against BouncyCastle: SM3 as the shardingsphere-plugin computes it, HMAC-SM3.
 */
class AssistedAlgorithmsTest {
    private static final List<String> SALTS = List.of("", "test1234", "盐值盐值盐值盐值");

    private static Properties props(String... namesAndValues) {
        Properties props = new Properties();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            props.setProperty(namesAndValues[i], namesAndValues[i + 1]);
        }
        return props;
    }

    /** Texts, numbers and dates as a statement's parameters bring them. */
    private static List<Object> values() {
        Random random = new Random(3);
        List<Object> values = new ArrayList<>(List.of("", "test1234", "中文姓名", 42, -7L, new BigDecimal("12.50"),
                LocalDate.of(1990, 1, 31), RealisticValues.text(random, 1024)));
        for (int i = 0; i < 20; i++) {
            values.add(RealisticValues.idNumber(random));
            values.add(RealisticValues.phoneNumber(random));
            values.add(RealisticValues.text(random, random.nextInt(200)));
        }
        return values;
    }

    @Test
    void theDigestIsThePluginsValue() {
        for (String salt : SALTS) {
            MessageDigestAlgorithm digest = TypedSPILoader.getService(MessageDigestAlgorithm.class, "SM3",
                    props("sm3-salt", salt));
            assertInstanceOf(SM3MessageDigestAlgorithm.class, digest);
            for (Object value : values()) {
                assertEquals(BouncyCastleReference.pluginSm3(value, salt), digest.digest(value), salt + ", " + value);
            }
            assertNull(digest.digest(null));
        }
    }

    @Test
    void aSaltGivenAsAYamlNumberIsItsText() {
        Properties props = new Properties();
        props.put("sm3-salt", 12345678);
        MessageDigestAlgorithm loaded = TypedSPILoader.getService(MessageDigestAlgorithm.class, "SM3", props);
        SM3MessageDigestAlgorithm byHand = new SM3MessageDigestAlgorithm();
        byHand.init(props);
        for (MessageDigestAlgorithm digest : List.of(loaded, byHand)) {
            assertEquals(BouncyCastleReference.pluginSm3("13800138000", "12345678"), digest.digest("13800138000"));
        }
    }

    @Test
    void aSaltOfAnotherLengthIsRefused() {
        for (String salt : List.of("1234567", "123456789", "盐值")) {
            AlgorithmInitializationException e = assertThrows(AlgorithmInitializationException.class,
                    () -> TypedSPILoader.getService(EncryptAlgorithm.class, "SM3", props("sm3-salt", salt)));
            assertTrue(e.getMessage().contains("sm3-salt should be empty or 8 characters long, not "
                    + salt.length()), e.getMessage());
            assertThrows(AlgorithmInitializationException.class,
                    () -> new SM3MessageDigestAlgorithm().init(props("sm3-salt", salt)));
        }
    }

    @Test
    void theSM3EncryptorIsAnEqualityFilterOverTheDigest() {
        Properties props = props("sm3-salt", "k8Ws2Lq9");
        EncryptAlgorithm sm3 = TypedSPILoader.getService(EncryptAlgorithm.class, "SM3", props);
        assertInstanceOf(SM3AssistedEncryptAlgorithm.class, sm3);
        assertFalse(sm3.getMetaData().isSupportDecrypt());
        assertTrue(sm3.getMetaData().isSupportEquivalentFilter());
        assertFalse(sm3.getMetaData().isSupportLike());
        for (Object value : values()) {
            assertEquals(BouncyCastleReference.pluginSm3(value, "k8Ws2Lq9"), sm3.encrypt(value, null));
        }
        assertNull(sm3.encrypt(null, null));
        assertThrows(UnsupportedOperationException.class, () -> sm3.decrypt("00", null));
        assertEquals(new AlgorithmConfiguration("SM3", props), sm3.toConfiguration());
    }

    @Test
    void theHmacEncryptorIsHmacSm3UnderItsKey() {
        for (String key : List.of("k", "a secret of 32 bytes, or longer.", "密钥".repeat(40))) {
            EncryptAlgorithm hmac = TypedSPILoader.getService(EncryptAlgorithm.class, "HMAC_SM3",
                    props("hmac-sm3-key", key));
            assertInstanceOf(HmacSM3AssistedEncryptAlgorithm.class, hmac);
            assertFalse(hmac.getMetaData().isSupportDecrypt());
            assertTrue(hmac.getMetaData().isSupportEquivalentFilter());
            assertFalse(hmac.getMetaData().isSupportLike());
            for (Object value : values()) {
                assertEquals(BouncyCastleReference.hmacSm3(key, value), hmac.encrypt(value, null), key + ", " + value);
            }
            assertNull(hmac.encrypt(null, null));
            assertThrows(UnsupportedOperationException.class, () -> hmac.decrypt("00", null));
        }
    }

    @Test
    void anHmacEncryptorWithoutAKeyIsRefused() {
        for (Properties props : List.of(new Properties(), props("hmac-sm3-key", ""), props("other", "x"))) {
            AlgorithmInitializationException e = assertThrows(AlgorithmInitializationException.class,
                    () -> TypedSPILoader.getService(EncryptAlgorithm.class, "HMAC_SM3", props));
            assertTrue(e.getMessage().contains("hmac-sm3-key is required"), e.getMessage());
        }
    }

    @Test
    void theHmacEncryptorsConfigurationTellsKeysApartWithoutHoldingOne() {
        String key = "the rule's secret key";
        AlgorithmConfiguration one = hmacConfiguration(key, "kept", "yes");
        AlgorithmConfiguration same = hmacConfiguration(key, "kept", "yes");
        AlgorithmConfiguration other = hmacConfiguration(key + "!", "kept", "yes");
        assertEquals("HMAC_SM3", one.getType());
        assertEquals(one, same);
        assertNotEquals(one, other);
        assertEquals("yes", one.getProps().getProperty("kept"));
        assertFalse(one.getProps().containsKey("hmac-sm3-key"));
        assertEquals(BouncyCastleReference.hmacSm3(key, "sm3-ffm HMAC_SM3 key check"),
                one.getProps().getProperty("hmac-sm3-key-check"));
        assertFalse(one.toString().contains(key), one.toString());
        assertFalse(one.getProps().values().stream().anyMatch(v -> v.toString().contains(key)));
    }

    private static AlgorithmConfiguration hmacConfiguration(String key, String... more) {
        Properties props = props(more);
        props.setProperty("hmac-sm3-key", key);
        AlgorithmConfiguration configuration = TypedSPILoader.getService(EncryptAlgorithm.class, "HMAC_SM3", props)
                .toConfiguration();
        assertEquals(key, props.getProperty("hmac-sm3-key"), "the rule's own properties are left as they were");
        return configuration;
    }

    /** One instance per rule, shared by every statement's thread, as ShardingSphere uses it. */
    @Test
    void oneInstanceServesManyThreads() throws Exception {
        EncryptAlgorithm sm3 = TypedSPILoader.getService(EncryptAlgorithm.class, "SM3", props("sm3-salt", "Q7x2Lm9p"));
        String[] keys = {"first key", "second key", "third key"};
        List<EncryptAlgorithm> hmacs = new ArrayList<>();
        for (String key : keys) {
            hmacs.add(TypedSPILoader.getService(EncryptAlgorithm.class, "HMAC_SM3", props("hmac-sm3-key", key)));
        }
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> checked = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                long seed = t;
                checked.add(threads.submit(() -> {
                    Random random = new Random(seed);
                    int n = 0;
                    for (; n < 2000; n++) {
                        String value = n % 2 == 0 ? RealisticValues.idNumber(random)
                                : RealisticValues.phoneNumber(random);
                        assertEquals(BouncyCastleReference.pluginSm3(value, "Q7x2Lm9p"), sm3.encrypt(value, null));
                        int k = random.nextInt(keys.length);
                        assertEquals(BouncyCastleReference.hmacSm3(keys[k], value), hmacs.get(k).encrypt(value, null));
                    }
                    return n;
                }));
            }
            for (Future<Integer> f : checked) {
                assertEquals(2000, f.get());
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
