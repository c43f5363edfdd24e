package io.github.sm3ffm.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

class HashFieldTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final String KEY = "s3cret-k\u00e9y";

    private static final Schema VALUE_SCHEMA = SchemaBuilder.struct().name("row").version(3).doc("a row")
            .field("id", Schema.INT64_SCHEMA)
            .field("name", Schema.STRING_SCHEMA)
            .field("note", SchemaBuilder.string().optional().doc("free text").build())
            .field("blob", Schema.OPTIONAL_BYTES_SCHEMA)
            .build();

    private static HashField<SourceRecord> value(Map<String, ?> props) {
        HashField<SourceRecord> t = new HashField.Value<>();
        t.configure(props);
        return t;
    }

    private static HashField<SourceRecord> key(Map<String, ?> props) {
        HashField<SourceRecord> t = new HashField.Key<>();
        t.configure(props);
        return t;
    }

    private static SourceRecord record(Schema keySchema, Object key, Schema valueSchema, Object value) {
        ConnectHeaders headers = new ConnectHeaders();
        headers.addString("h", "kept");
        return new SourceRecord(Map.of("p", 1), Map.of("o", 2), "topic", 0, keySchema, key, valueSchema, value,
                1234L, headers);
    }

    private static String sm3Hex(String s) {
        return HEX.formatHex(BouncyCastleSM3.sm3(s.getBytes(StandardCharsets.UTF_8)));
    }

    private static String sm3Hex(byte[] b) {
        return HEX.formatHex(BouncyCastleSM3.sm3(b));
    }

    @Test
    void structFieldsBecomeStringsOptionalWhereTheyWere() {
        HashField<SourceRecord> t = value(Map.of("fields", "name,note,blob,absent"));
        byte[] blob = {0, 1, 2, (byte) 0xff};
        Struct v = new Struct(VALUE_SCHEMA).put("id", 7L).put("name", "\u5f20\u4e09 Zh\u0101ng").put("note", null)
                .put("blob", blob);
        SourceRecord out = t.apply(record(Schema.STRING_SCHEMA, "k", VALUE_SCHEMA, v));

        Schema s = out.valueSchema();
        assertEquals(Schema.Type.STRING, s.field("name").schema().type());
        assertFalse(s.field("name").schema().isOptional());
        assertEquals(Schema.Type.STRING, s.field("note").schema().type());
        assertTrue(s.field("note").schema().isOptional());
        assertEquals("free text", s.field("note").schema().doc());
        assertEquals(Schema.Type.STRING, s.field("blob").schema().type());
        assertTrue(s.field("blob").schema().isOptional());
        assertSame(Schema.INT64_SCHEMA, s.field("id").schema());
        assertEquals(List.of("id", "name", "note", "blob"), s.fields().stream().map(f -> f.name()).toList());
        assertEquals("row", s.name());
        assertEquals(3, s.version());
        assertEquals("a row", s.doc());

        Struct hashed = (Struct) out.value();
        hashed.validate();
        assertEquals(7L, hashed.get("id"));
        assertEquals(sm3Hex("\u5f20\u4e09 Zh\u0101ng"), hashed.get("name"));
        assertNull(hashed.get("note"));
        assertEquals(sm3Hex(blob), hashed.get("blob"));
        assertEquals("k", out.key());
        assertSame(Schema.STRING_SCHEMA, out.keySchema());
        assertEquals("kept", out.headers().lastWithName("h").value());
        assertEquals(1234L, out.timestamp());
        assertEquals("topic", out.topic());
    }

    @Test
    void theUpdatedSchemaIsMadeOncePerInputSchema() {
        HashField<SourceRecord> t = value(Map.of("fields", "name"));
        Schema first = t.apply(record(null, null, VALUE_SCHEMA,
                new Struct(VALUE_SCHEMA).put("id", 1L).put("name", "a"))).valueSchema();
        SourceRecord second = t.apply(record(null, null, VALUE_SCHEMA,
                new Struct(VALUE_SCHEMA).put("id", 2L).put("name", "b")));
        assertSame(first, second.valueSchema());
        assertEquals(sm3Hex("b"), ((Struct) second.value()).get("name"));

        Schema other = SchemaBuilder.struct().field("name", Schema.OPTIONAL_STRING_SCHEMA).build();
        SourceRecord third = t.apply(record(null, null, other, new Struct(other).put("name", "c")));
        assertTrue(third.valueSchema().field("name").schema().isOptional());
        assertEquals(sm3Hex("c"), ((Struct) third.value()).get("name"));
    }

    @Test
    void schemalessMapsHashStringsAndEveryKindOfBytes() {
        HashField<SourceRecord> t = value(Map.of("fields", List.of("s", "b", "heap", "direct", "readOnly", "n",
                "absent")));
        byte[] raw = new byte[300];
        for (int i = 0; i < raw.length; i++) {
            raw[i] = (byte) (i * 31);
        }
        ByteBuffer heap = ByteBuffer.wrap(raw, 10, 200).slice().position(5);
        ByteBuffer direct = ByteBuffer.allocateDirect(100).put(raw, 0, 100).flip().position(3);
        ByteBuffer readOnly = ByteBuffer.wrap(raw).asReadOnlyBuffer().position(250);
        Map<String, Object> v = new HashMap<>();
        v.put("s", "caf\u00e9");
        v.put("b", raw);
        v.put("heap", heap);
        v.put("direct", direct);
        v.put("readOnly", readOnly);
        v.put("n", null);
        v.put("other", 42);
        SourceRecord out = t.apply(record(null, "k", null, v));

        @SuppressWarnings("unchecked")
        Map<String, Object> hashed = (Map<String, Object>) out.value();
        assertNull(out.valueSchema());
        assertEquals(sm3Hex("caf\u00e9"), hashed.get("s"));
        assertEquals(sm3Hex(raw), hashed.get("b"));
        assertEquals(sm3Hex(java.util.Arrays.copyOfRange(raw, 15, 210)), hashed.get("heap"));
        assertEquals(sm3Hex(java.util.Arrays.copyOfRange(raw, 3, 100)), hashed.get("direct"));
        assertEquals(sm3Hex(java.util.Arrays.copyOfRange(raw, 250, 300)), hashed.get("readOnly"));
        assertTrue(hashed.containsKey("n"));
        assertNull(hashed.get("n"));
        assertFalse(hashed.containsKey("absent"));
        assertEquals(42, hashed.get("other"));
        assertEquals(7, hashed.size());
        // The input is left as it was, buffers' positions included.
        assertEquals("caf\u00e9", v.get("s"));
        assertEquals(5, heap.position());
        assertEquals(3, direct.position());
        assertEquals(250, readOnly.position());
    }

    @Test
    void keyHashesTheKeyAndLeavesTheValue() {
        HashField<SourceRecord> t = key(Map.of("fields", "email"));
        Schema keySchema = SchemaBuilder.struct().field("email", Schema.STRING_SCHEMA).build();
        Struct v = new Struct(VALUE_SCHEMA).put("id", 1L).put("name", "email");
        SourceRecord out = t.apply(record(keySchema, new Struct(keySchema).put("email", "a@example.com"),
                VALUE_SCHEMA, v));
        assertEquals(sm3Hex("a@example.com"), ((Struct) out.key()).get("email"));
        assertSame(v, out.value());
        assertSame(VALUE_SCHEMA, out.valueSchema());

        Map<String, Object> mapKey = Map.of("email", "b@example.com");
        SourceRecord schemaless = t.apply(record(null, mapKey, null, "value"));
        assertEquals(Map.of("email", sm3Hex("b@example.com")), schemaless.key());
        assertEquals("value", schemaless.value());
    }

    @Test
    void valueLeavesTheKey() {
        HashField<SourceRecord> t = value(Map.of("fields", "email"));
        Map<String, Object> k = Map.of("email", "a@example.com");
        SourceRecord out = t.apply(record(null, k, null, Map.of("email", "b@example.com")));
        assertSame(k, out.key());
        assertEquals(Map.of("email", sm3Hex("b@example.com")), out.value());
    }

    @Test
    void hmacSm3InBase64() {
        HashField<SourceRecord> t = value(Map.of("fields", "name", "algorithm", "HmacSM3", "hmac.key", KEY,
                "encoding", "base64"));
        Struct v = new Struct(VALUE_SCHEMA).put("id", 1L).put("name", "Li Si");
        Struct out = (Struct) t.apply(record(null, null, VALUE_SCHEMA, v)).value();
        byte[] tag = BouncyCastleSM3.hmacSm3(KEY.getBytes(StandardCharsets.UTF_8),
                "Li Si".getBytes(StandardCharsets.UTF_8));
        assertEquals(Base64.getEncoder().encodeToString(tag), out.get("name"));
        assertTrue(((String) out.get("name")).endsWith("="), "32 bytes in standard Base64 end in one '='");
        assertArrayEquals(tag, Base64.getDecoder().decode((String) out.get("name")));
    }

    @Test
    void twoInstancesWithDifferentKeysDoNotMix() {
        HashField<SourceRecord> a = value(Map.of("fields", "f", "algorithm", "HmacSM3", "hmac.key", "key-a"));
        HashField<SourceRecord> b = value(Map.of("fields", "f", "algorithm", "HmacSM3", "hmac.key", "key-b"));
        HashField<SourceRecord> plain = value(Map.of("fields", "f", "algorithm", "SM3"));
        for (int i = 0; i < 3; i++) {
            Map<String, Object> v = Map.of("f", "row " + i);
            byte[] m = ("row " + i).getBytes(StandardCharsets.UTF_8);
            assertEquals(HEX.formatHex(BouncyCastleSM3.hmacSm3("key-a".getBytes(StandardCharsets.UTF_8), m)),
                    ((Map<?, ?>) a.apply(record(null, null, null, v)).value()).get("f"));
            assertEquals(HEX.formatHex(BouncyCastleSM3.hmacSm3("key-b".getBytes(StandardCharsets.UTF_8), m)),
                    ((Map<?, ?>) b.apply(record(null, null, null, v)).value()).get("f"));
            assertEquals(sm3Hex(m), ((Map<?, ?>) plain.apply(record(null, null, null, v)).value()).get("f"));
        }
    }

    @Test
    void hmacWithoutAKeyIsAConfigException() {
        ConfigException missing = assertThrows(ConfigException.class,
                () -> value(Map.of("fields", "f", "algorithm", "HmacSM3")));
        assertTrue(missing.getMessage().contains("hmac.key"), missing.getMessage());
        ConfigException empty = assertThrows(ConfigException.class,
                () -> value(Map.of("fields", "f", "algorithm", "HmacSM3", "hmac.key", "")));
        assertTrue(empty.getMessage().contains("hmac.key"), empty.getMessage());
    }

    @Test
    void badSettingsAreConfigExceptions() {
        assertThrows(ConfigException.class, () -> value(Map.of()));
        assertThrows(ConfigException.class, () -> value(Map.of("fields", "")));
        assertThrows(ConfigException.class, () -> value(Map.of("fields", "f", "algorithm", "SHA-256")));
        assertThrows(ConfigException.class, () -> value(Map.of("fields", "f", "encoding", "base32")));
    }

    @Test
    void theKeyIsAPasswordThatNeverShows() {
        ConfigDef.ConfigKey key = new HashField.Value<SourceRecord>().config().configKeys().get("hmac.key");
        assertEquals(ConfigDef.Type.PASSWORD, key.type);
        ConfigException e = assertThrows(ConfigException.class,
                () -> value(Map.of("fields", "f", "algorithm", "HmacSM3", "hmac.key", "", "encoding", "x")));
        assertFalse(e.getMessage().contains(KEY));
        // A key given alone, with SM3, is accepted and unused: the digest is SM3's.
        HashField<SourceRecord> t = value(Map.of("fields", "f", "hmac.key", KEY));
        assertEquals(sm3Hex("x"), ((Map<?, ?>) t.apply(record(null, null, null, Map.of("f", "x"))).value()).get("f"));
    }

    @Test
    void aFieldOfAnotherTypeIsADataExceptionNamingIt() {
        HashField<SourceRecord> t = value(Map.of("fields", "id"));
        DataException withSchema = assertThrows(DataException.class, () -> t.apply(record(null, null, VALUE_SCHEMA,
                new Struct(VALUE_SCHEMA).put("id", 1L).put("name", "a"))));
        assertTrue(withSchema.getMessage().contains("'id'") && withSchema.getMessage().contains("INT64"),
                withSchema.getMessage());

        DataException schemaless = assertThrows(DataException.class,
                () -> t.apply(record(null, null, null, Map.of("id", 1L))));
        assertTrue(schemaless.getMessage().contains("'id'") && schemaless.getMessage().contains("Long"),
                schemaless.getMessage());

        Schema decimal = SchemaBuilder.struct().field("id", Decimal.schema(2)).build();
        DataException logical = assertThrows(DataException.class, () -> t.apply(record(null, null, decimal,
                new Struct(decimal).put("id", new BigDecimal("1.25")))));
        assertTrue(logical.getMessage().contains("'id'") && logical.getMessage().contains(Decimal.LOGICAL_NAME),
                logical.getMessage());
    }

    @Test
    void anOperatingSideThatIsNotAStructOrMapIsADataException() {
        HashField<SourceRecord> t = value(Map.of("fields", "f"));
        assertThrows(DataException.class, () -> t.apply(record(null, null, Schema.STRING_SCHEMA, "line")));
        assertThrows(DataException.class, () -> t.apply(record(null, null, null, List.of("f"))));
    }

    @Test
    void tombstonesPassThrough() {
        HashField<SourceRecord> t = value(Map.of("fields", "f"));
        SourceRecord tombstone = record(Schema.STRING_SCHEMA, "k", VALUE_SCHEMA, null);
        assertSame(tombstone, t.apply(tombstone));
        HashField<SourceRecord> k = key(Map.of("fields", "f"));
        SourceRecord noKey = record(null, null, null, Map.of("f", "x"));
        assertSame(noKey, k.apply(noKey));
    }

    @Test
    void versionIsTheModulesOwn() {
        String version = new HashField.Key<SourceRecord>().version();
        assertTrue(version.matches("\\d+\\.\\d+\\.\\d+.*"), version);
    }

    @Test
    void closeLeavesAnInstanceThatCanBeConfiguredAgain() {
        HashField<SourceRecord> t = value(Map.of("fields", "f", "algorithm", "HmacSM3", "hmac.key", "one"));
        t.close();
        t.configure(Map.of("fields", "f", "algorithm", "HmacSM3", "hmac.key", "two"));
        assertEquals(HEX.formatHex(BouncyCastleSM3.hmacSm3("two".getBytes(StandardCharsets.UTF_8),
                        "x".getBytes(StandardCharsets.UTF_8))),
                ((Map<?, ?>) t.apply(record(null, null, null, Map.of("f", "x"))).value()).get("f"));
    }
}
