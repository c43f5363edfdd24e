package io.github.sm3ffm.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.FailEachCall;
import io.github.sm3ffm.internal.libcrypto.Faults;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * HashField applied record after record on one thread, as a task applies it, while the library's native calls
 * fail one at a time (the library's test seam, {@link Faults}): every failable call a record makes, each followed
 * by the next records (the same one, other lengths, the other algorithm) checked against BouncyCastle. A failed
 * record must be a {@link RetriableException} naming the field. Runs in a Surefire execution of its own, since the
 * failing backend must be installed before anything in the JVM loads libcrypto.
 */
class HashFieldFailuresTest {
    private static final byte[] SOURCE = new byte[1 << 14];
    private static final int[] LENGTHS = {0, 16, 64, 1000, 5000};
    private static final HexFormat HEX = HexFormat.of();
    private static final String KEY = "a key of the connector's";
    private static final String LONG_KEY = "k".repeat(100);
    private static final Schema SCHEMA = SchemaBuilder.struct().field("line", Schema.OPTIONAL_STRING_SCHEMA)
            .field("blob", Schema.OPTIONAL_BYTES_SCHEMA).build();

    @BeforeAll
    static void installFaults() {
        Faults.install();
        new Random(42).nextBytes(SOURCE);
    }

    private static HashField<SourceRecord> transform(Map<String, String> props) {
        HashField<SourceRecord> t = new HashField.Value<>();
        t.configure(props);
        return t;
    }

    private static SourceRecord record(String line, byte[] blob) {
        Struct v = new Struct(SCHEMA).put("line", line).put("blob", blob == null ? null : ByteBuffer.wrap(blob));
        return new SourceRecord(null, null, "t", SCHEMA, v);
    }

    private static byte[] field(HashField<SourceRecord> t, SourceRecord r, String name) {
        return HEX.parseHex(((Struct) t.apply(r).value()).getString(name));
    }

    private static boolean isRecordError(RuntimeException e, String field) {
        return e instanceof RetriableException
                && e.getMessage().startsWith("HashField: hashing field '" + field + "' failed");
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void everyFailedNativeCallFailsItsRecordOnlyAndTheNextRecordsAreRight() {
        HashField<SourceRecord> sm3 = transform(Map.of("fields", "line,blob"));
        HashField<SourceRecord> hmac = transform(Map.of("fields", "line,blob", "algorithm", "HmacSM3",
                "hmac.key", KEY));
        HashField<SourceRecord> longKey = transform(Map.of("fields", "line,blob", "algorithm", "HmacSM3",
                "hmac.key", LONG_KEY));
        List<FailEachCall.Outcome> outcomes = new ArrayList<>();
        for (int length : LENGTHS) {
            byte[] blob = Arrays.copyOfRange(SOURCE, 7, 7 + length);
            String line = "\u00e9".repeat(length / 2);
            SourceRecord r = record(line, null);
            Runnable nextRecords = () -> nextRecords(sm3, hmac, longKey, line, blob);
            // Warm: the library loaded and the keys cached, as when the calls are counted.
            nextRecords.run();
            outcomes.add(FailEachCall.run("SM3 of a STRING, " + line.length() + " chars",
                    () -> field(sm3, r, "line"), BouncyCastleSM3.sm3(utf8(line)), e -> isRecordError(e, "line"),
                    nextRecords));
            outcomes.add(FailEachCall.run("SM3 of BYTES, " + length + " B", () -> field(sm3, record(null, blob),
                    "blob"), BouncyCastleSM3.sm3(blob), e -> isRecordError(e, "blob"), nextRecords));
            outcomes.add(FailEachCall.run("HmacSM3 of BYTES, " + length + " B", () -> field(hmac, record(null, blob),
                    "blob"), BouncyCastleSM3.hmacSm3(utf8(KEY), blob), e -> isRecordError(e, "blob"), nextRecords));
            outcomes.add(FailEachCall.run("HmacSM3 of a STRING, 100-byte key, " + line.length() + " chars",
                    () -> field(longKey, r, "line"), BouncyCastleSM3.hmacSm3(utf8(LONG_KEY), utf8(line)),
                    e -> isRecordError(e, "line"), nextRecords));
        }
        outcomes.forEach(o -> System.out.println("HashFieldFailuresTest: " + o));
        assertTrue(outcomes.stream().mapToInt(FailEachCall.Outcome::failedRows).sum() > 0);
    }

    /** The record again under each transform, each field against BouncyCastle. */
    private static void nextRecords(HashField<SourceRecord> sm3, HashField<SourceRecord> hmac,
                                    HashField<SourceRecord> longKey, String line, byte[] blob) {
        for (int i = 0; i < 2; i++) {
            Struct plain = (Struct) sm3.apply(record(line, blob)).value();
            assertEquals(HEX.formatHex(BouncyCastleSM3.sm3(utf8(line))), plain.get("line"));
            assertEquals(HEX.formatHex(BouncyCastleSM3.sm3(blob)), plain.get("blob"));
            Struct tagged = (Struct) hmac.apply(record(line, blob)).value();
            assertEquals(HEX.formatHex(BouncyCastleSM3.hmacSm3(utf8(KEY), utf8(line))), tagged.get("line"));
            assertEquals(HEX.formatHex(BouncyCastleSM3.hmacSm3(utf8(KEY), blob)), tagged.get("blob"));
            Struct longTagged = (Struct) longKey.apply(record(line, blob)).value();
            assertEquals(HEX.formatHex(BouncyCastleSM3.hmacSm3(utf8(LONG_KEY), blob)), longTagged.get("blob"));
        }
    }

    /**
     * A connector started while another's key is cached: keying the new connector's Mac fails (its key is longer
     * than a block, so the library hashes it natively while keying); the record fails, and the next records of
     * both connectors carry their own keys' tags.
     */
    @Test
    void aKeyRefusedByOpenSSLLeavesNoStaleKey() {
        HashField<SourceRecord> a = transform(Map.of("fields", "line", "algorithm", "HmacSM3", "hmac.key", KEY));
        HashField<SourceRecord> b = transform(Map.of("fields", "line", "algorithm", "HmacSM3",
                "hmac.key", "b".repeat(90)));
        SourceRecord r = record("row", null);
        assertEquals(HEX.formatHex(BouncyCastleSM3.hmacSm3(utf8(KEY), utf8("row"))),
                ((Struct) a.apply(r).value()).get("line"));
        try (Faults.Armed armed = Faults.failNth(1)) {
            RetriableException e = assertThrows(RetriableException.class, () -> b.apply(r));
            assertTrue(isRecordError(e, "line"), e.getMessage());
            assertTrue(armed.injected());
        }
        for (int i = 0; i < 3; i++) {
            SourceRecord next = record("row " + i, null);
            assertEquals(HEX.formatHex(BouncyCastleSM3.hmacSm3(utf8(KEY), utf8("row " + i))),
                    ((Struct) a.apply(next).value()).get("line"));
            assertEquals(HEX.formatHex(BouncyCastleSM3.hmacSm3(utf8("b".repeat(90)), utf8("row " + i))),
                    ((Struct) b.apply(next).value()).get("line"));
        }
    }
}
