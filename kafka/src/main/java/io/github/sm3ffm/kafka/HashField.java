package io.github.sm3ffm.kafka;

import io.github.sm3ffm.RowHasher;
import io.github.sm3ffm.SM3Provider;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.ProviderException;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.common.cache.Cache;
import org.apache.kafka.common.cache.LRUCache;
import org.apache.kafka.common.cache.SynchronizedCache;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.connect.components.Versioned;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.transforms.Transformation;
import org.apache.kafka.connect.transforms.util.NonEmptyListValidator;
import org.apache.kafka.connect.transforms.util.SchemaUtil;
import org.apache.kafka.connect.transforms.util.SimpleConfig;

import static org.apache.kafka.connect.transforms.util.Requirements.requireMap;
import static org.apache.kafka.connect.transforms.util.Requirements.requireStruct;

/**
 * Replaces named top-level fields of a record's key ({@link Key}) or value ({@link Value}) by their SM3 or
 * HMAC-SM3, as text: shaped like Kafka's own {@code MaskField}, computed by the library's {@link RowHasher}
 * (OpenSSL's libcrypto through the FFM API), so the worker registers no provider.
 *
 * <p>A STRING is hashed as its UTF-8 bytes, BYTES ({@code byte[]} or {@code ByteBuffer}) as they are; null stays
 * null. With a schema, each hashed field becomes STRING (optional where it was) and the updated schema is cached
 * per input schema, as Kafka's transforms cache theirs; a named field of any other type is a
 * {@link DataException} naming it. Named fields that a record lacks are left out; a null key or value (a
 * tombstone) passes through.
 *
 * <p>A failure inside OpenSSL fails that record only (the library drops what the call used) and is a
 * {@link RetriableException}, which Connect retries within {@code errors.retry.timeout}.
 */
public abstract class HashField<R extends ConnectRecord<R>> implements Transformation<R>, Versioned {
    public static final String OVERVIEW_DOC = "Replace the named top-level fields by their SM3 (GB/T 32905) or"
            + " HMAC-SM3, as lowercase hex or Base64 text. STRING fields are hashed as UTF-8, BYTES fields as they"
            + " are; null stays null.<p/>Use the concrete transformation type designed for the record key (<code>"
            + Key.class.getName() + "</code>) or value (<code>" + Value.class.getName() + "</code>).";

    static final String FIELDS_CONFIG = "fields";
    static final String ALGORITHM_CONFIG = "algorithm";
    static final String HMAC_KEY_CONFIG = "hmac.key";
    static final String ENCODING_CONFIG = "encoding";
    static final String SM3 = "SM3";
    static final String HMAC_SM3 = "HmacSM3";
    static final String HEX = "hex";
    static final String BASE64 = "base64";

    public static final ConfigDef CONFIG_DEF = new ConfigDef()
            .define(FIELDS_CONFIG, ConfigDef.Type.LIST, ConfigDef.NO_DEFAULT_VALUE, new NonEmptyListValidator(),
                    ConfigDef.Importance.HIGH, "Names of the top-level fields to hash (STRING or BYTES).")
            .define(ALGORITHM_CONFIG, ConfigDef.Type.STRING, SM3, ConfigDef.ValidString.in(SM3, HMAC_SM3),
                    ConfigDef.Importance.HIGH, "SM3, or HmacSM3 under hmac.key.")
            .define(HMAC_KEY_CONFIG, ConfigDef.Type.PASSWORD, null, ConfigDef.Importance.HIGH,
                    "The HMAC key, as text (its UTF-8 bytes are the key); required by HmacSM3. A config provider"
                            + " can supply it.")
            .define(ENCODING_CONFIG, ConfigDef.Type.STRING, HEX, ConfigDef.ValidString.in(HEX, BASE64),
                    ConfigDef.Importance.LOW, "hex (lowercase) or base64 (standard, padded).");

    private static final String PURPOSE = "hashing fields";
    private static final String VERSION = version("sm3-ffm-kafka.properties");
    private static final RowHasher ROWS = RowHasher.of();

    /** One field's digest or tag: the library's, or another implementation's in the speed benchmark. */
    interface FieldDigest {
        byte[] of(byte[] data, int offset, int length);
    }

    private Set<String> fields;
    /** The HMAC key's bytes, zeroed at close; null for SM3. */
    private byte[] hmacKey;
    private FieldDigest digest;
    private Function<byte[], String> encoding;
    private Cache<Schema, Schema> schemaUpdateCache;

    @Override
    public String version() {
        return VERSION;
    }

    @Override
    public void configure(Map<String, ?> props) {
        close(); // a key of an earlier configuration is zeroed
        SimpleConfig config = new SimpleConfig(CONFIG_DEF, props);
        fields = Set.copyOf(config.getList(FIELDS_CONFIG));
        encoding = BASE64.equals(config.getString(ENCODING_CONFIG)) ? Base64.getEncoder()::encodeToString
                : HexFormat.of()::formatHex;
        Password key = config.getPassword(HMAC_KEY_CONFIG);
        if (HMAC_SM3.equals(config.getString(ALGORITHM_CONFIG))) {
            if (key == null || key.value().isEmpty()) {
                // RFC 2104 allows an empty key, but an empty or absent one here is almost always a missing secret.
                throw new ConfigException(HMAC_KEY_CONFIG, key == null ? null : Password.HIDDEN,
                        "HmacSM3 needs a key that is not empty");
            }
            byte[] k = key.value().getBytes(StandardCharsets.UTF_8);
            hmacKey = k;
            digest = (data, offset, length) -> ROWS.hmacSm3(k, 0, k.length, data, offset, length);
        } else {
            digest = ROWS::sm3;
        }
        if (!SM3Provider.isAvailable()) {
            throw new ConfigException("HashField: SM3 from OpenSSL is unavailable in this JVM: "
                    + SM3Provider.unavailability().map(Exception::getMessage).orElse("no reason given"));
        }
        schemaUpdateCache = new SynchronizedCache<>(new LRUCache<>(16));
    }

    @Override
    public R apply(R record) {
        Object value = operatingValue(record);
        if (value == null) {
            return record;
        }
        Schema schema = operatingSchema(record);
        return schema == null ? applySchemaless(record, value) : applyWithSchema(record, value);
    }

    private R applySchemaless(R record, Object operatingValue) {
        Map<String, Object> value = requireMap(operatingValue, PURPOSE);
        Map<String, Object> updated = new HashMap<>(value);
        for (String field : fields) {
            if (value.containsKey(field)) {
                updated.put(field, hashed(field, value.get(field)));
            }
        }
        return newRecord(record, null, updated);
    }

    private R applyWithSchema(R record, Object operatingValue) {
        Struct value = requireStruct(operatingValue, PURPOSE);
        Schema updatedSchema = schemaUpdateCache.get(value.schema());
        if (updatedSchema == null) {
            updatedSchema = hashedSchema(value.schema());
            schemaUpdateCache.put(value.schema(), updatedSchema);
        }
        Struct updated = new Struct(updatedSchema);
        for (Field field : value.schema().fields()) {
            Object v = value.get(field);
            updated.put(field.name(), fields.contains(field.name()) ? hashed(field.name(), v) : v);
        }
        return newRecord(record, updatedSchema, updated);
    }

    private Schema hashedSchema(Schema schema) {
        SchemaBuilder builder = SchemaUtil.copySchemaBasics(schema, SchemaBuilder.struct());
        for (Field field : schema.fields()) {
            Schema s = field.schema();
            if (!fields.contains(field.name())) {
                builder.field(field.name(), s);
            } else if ((s.type() == Schema.Type.STRING || s.type() == Schema.Type.BYTES)
                    && !Decimal.LOGICAL_NAME.equals(s.name())) {
                SchemaBuilder hashed = SchemaBuilder.string().doc(s.doc());
                builder.field(field.name(), s.isOptional() ? hashed.optional().build() : hashed.build());
            } else {
                throw new DataException("HashField: field '" + field.name() + "' is " + describe(s)
                        + ", not STRING or BYTES");
            }
        }
        return builder.build();
    }

    private static String describe(Schema s) {
        return s.name() == null ? s.type().toString() : s.type() + " (" + s.name() + ")";
    }

    private String hashed(String field, Object value) {
        return switch (value) {
            case null -> null;
            case String s -> hash(field, s.getBytes(StandardCharsets.UTF_8));
            case byte[] b -> hash(field, b);
            case ByteBuffer b when b.hasArray() -> hash(field, b.array(), b.arrayOffset() + b.position(), b.remaining());
            case ByteBuffer b -> {
                byte[] copy = new byte[b.remaining()];
                b.duplicate().get(copy);
                yield hash(field, copy);
            }
            default -> throw new DataException("HashField: field '" + field + "' holds a "
                    + value.getClass().getName() + ", not a STRING or BYTES value");
        };
    }

    private String hash(String field, byte[] data) {
        return hash(field, data, 0, data.length);
    }

    private String hash(String field, byte[] data, int offset, int length) {
        try {
            return encoding.apply(digest.of(data, offset, length));
        } catch (ProviderException e) {
            throw new RetriableException("HashField: hashing field '" + field + "' failed: " + e.getMessage(), e);
        }
    }

    /** For the speed benchmark: the same transform computing with another implementation. */
    void digestWith(FieldDigest other) {
        digest = other;
    }

    @Override
    public ConfigDef config() {
        return CONFIG_DEF;
    }

    @Override
    public void close() {
        if (hmacKey != null) {
            Arrays.fill(hmacKey, (byte) 0);
            hmacKey = null;
        }
        schemaUpdateCache = null;
    }

    protected abstract Schema operatingSchema(R record);

    protected abstract Object operatingValue(R record);

    /** {@code updatedSchema}: null for a record without a schema. */
    protected abstract R newRecord(R record, Schema updatedSchema, Object updatedValue);

    private static String version(String resource) {
        try (InputStream in = HashField.class.getResourceAsStream(resource)) {
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Hashes fields of the record's key. */
    public static final class Key<R extends ConnectRecord<R>> extends HashField<R> {
        @Override
        protected Schema operatingSchema(R record) {
            return record.keySchema();
        }

        @Override
        protected Object operatingValue(R record) {
            return record.key();
        }

        @Override
        protected R newRecord(R record, Schema updatedSchema, Object updatedValue) {
            return record.newRecord(record.topic(), record.kafkaPartition(), updatedSchema, updatedValue,
                    record.valueSchema(), record.value(), record.timestamp());
        }
    }

    /** Hashes fields of the record's value. */
    public static final class Value<R extends ConnectRecord<R>> extends HashField<R> {
        @Override
        protected Schema operatingSchema(R record) {
            return record.valueSchema();
        }

        @Override
        protected Object operatingValue(R record) {
            return record.value();
        }

        @Override
        protected R newRecord(R record, Schema updatedSchema, Object updatedValue) {
            return record.newRecord(record.topic(), record.kafkaPartition(), record.keySchema(), record.key(),
                    updatedSchema, updatedValue, record.timestamp());
        }
    }
}
