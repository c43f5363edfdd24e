package io.github.sm3ffm.spark;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.util.encoders.Hex;

/**
 * Rows per second of {@code sm3(v)} against the UDF over BouncyCastle's SM3 that users write today, with
 * Spark's {@code sha2(v, 256)} for reference, in local mode on two cores: 2,000,000 STRING values of 64 B
 * and 500,000 of 4 KiB, cached in memory first, each query written to Spark's {@code noop} sink (every row
 * computed, nothing kept). After a warm-up round, each round runs the three in turn; the report gives each
 * one's median and range over the rounds, and the ratios of medians. Run by {@code mvn exec:exec@speed}.
 */
public final class SpeedJob {
    private SpeedJob() {
    }

    public static void main(String[] args) {
        int rounds = Integer.parseInt(args[0]);
        SparkSession spark = SparkSession.builder()
                .master("local[2]")
                .appName("sm3-ffm-spark speed")
                .config("spark.sql.extensions", SM3SparkExtensions.class.getName())
                .config("spark.ui.enabled", "false")
                .getOrCreate();
        spark.sparkContext().setLogLevel("WARN");
        spark.udf().register("bc_sm3", (UDF1<String, String>) SpeedJob::bouncyCastleUdf, DataTypes.StringType);
        Map<String, String> queries = new LinkedHashMap<>();
        queries.put("sm3(v)", "sm3(v)");
        queries.put("BouncyCastle UDF", "bc_sm3(v)");
        queries.put("sha2(v, 256)", "sha2(v, 256)");
        System.out.printf("rounds: %d after one warm-up; rows/s, median (range)%n", rounds);
        measure(spark, 2_000_000, 64, queries, rounds);
        measure(spark, 500_000, 4096, queries, rounds);
        spark.stop();
    }

    /** The UDF as users write it: a new BouncyCastle digest per row, the text's UTF-8 bytes, hex out. */
    private static String bouncyCastleUdf(String value) {
        if (value == null) {
            return null;
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        SM3Digest digest = new SM3Digest();
        digest.update(bytes, 0, bytes.length);
        byte[] out = new byte[32];
        digest.doFinal(out, 0);
        return Hex.toHexString(out);
    }

    private static void measure(SparkSession spark, int rows, int length, Map<String, String> queries, int rounds) {
        // Distinct ASCII values of exactly `length` bytes, from 128 hex characters per row.
        Dataset<Row> data = spark.range(0, rows, 1, 2)
                .selectExpr("substr(repeat(sha2(CAST(id AS STRING), 512), " + (length / 128 + 1) + "), 1, " + length
                        + ") AS v")
                .cache();
        data.count();
        data.createOrReplaceTempView("data");
        Map<String, List<Double>> rates = new LinkedHashMap<>();
        queries.keySet().forEach(name -> rates.put(name, new ArrayList<>()));
        for (int round = 0; round <= rounds; round++) {
            for (Map.Entry<String, String> query : queries.entrySet()) {
                Dataset<Row> hashed = spark.sql("SELECT " + query.getValue() + " FROM data");
                long start = System.nanoTime();
                hashed.write().format("noop").mode("overwrite").save();
                double seconds = (System.nanoTime() - start) / 1e9;
                if (round > 0) {
                    rates.get(query.getKey()).add(rows / seconds);
                }
            }
        }
        data.unpersist(true);
        System.out.printf("%,d rows of %,d B:%n", rows, length);
        double sm3 = median(rates.get("sm3(v)"));
        for (Map.Entry<String, List<Double>> rate : rates.entrySet()) {
            double median = median(rate.getValue());
            System.out.printf("  %-18s %,12.0f (%,.0f-%,.0f)   sm3(v) / this: %.2fx%n", rate.getKey(), median,
                    rate.getValue().stream().mapToDouble(Double::doubleValue).min().orElseThrow(),
                    rate.getValue().stream().mapToDouble(Double::doubleValue).max().orElseThrow(), sm3 / median);
        }
    }

    private static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
