package io.github.sm3ffm.kafka;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * HashField$Value over a million records as the pipeline test has them (a Struct with one STRING field, a line of
 * 20 to 200 characters), SM3 in hex: the library's, against the same transform computing with BouncyCastle's
 * {@code SM3Digest} (one per transform, as one task's transform would keep it). Nanoseconds per record.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class HashFieldBenchmark {
    static final int RECORDS = 1_000_000;
    private static final int DISTINCT = 4096;
    private static final Schema SCHEMA = SchemaBuilder.struct().field("line", Schema.STRING_SCHEMA).build();

    @Param({"SM3FFM", "BouncyCastle"})
    public String implementation;

    private final SourceRecord[] records = new SourceRecord[DISTINCT];
    private HashField<SourceRecord> transform;

    @Setup
    public void setUp() {
        for (int i = 0; i < DISTINCT; i++) {
            String line = "record " + i + " " + "abcdefghij\u5f20".repeat(i % 17) + "x".repeat(i % 13);
            records[i] = new SourceRecord(null, null, "lines", SCHEMA, new Struct(SCHEMA).put("line", line));
        }
        transform = new HashField.Value<>();
        transform.configure(Map.of("fields", "line"));
        if (implementation.equals("BouncyCastle")) {
            SM3Digest digest = new SM3Digest();
            transform.digestWith((data, offset, length) -> BouncyCastleSM3.sm3(digest, data, offset, length));
        }
    }

    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public void millionRecords(Blackhole bh) {
        for (int i = 0; i < RECORDS; i++) {
            bh.consume(transform.apply(records[i & (DISTINCT - 1)]));
        }
    }
}
