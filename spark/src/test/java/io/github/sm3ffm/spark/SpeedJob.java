package io.github.sm3ffm.spark;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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
 * one's median and range over the rounds, and sm3's speed over each one's: the median and range of the
 * ratios within a round (runs seconds apart, so a change in the machine's speed touches both sides), and
 * the ratio of the medians. Run by {@code mvn test-compile exec:exec@speed} in {@code spark/}.
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
        System.out.printf("%d rounds after one warm-up; medians (ranges)%n", rounds);
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
        List<Double> sm3 = rates.get("sm3(v)");
        for (Map.Entry<String, List<Double>> rate : rates.entrySet()) {
            List<Double> ratios = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                ratios.add(sm3.get(round) / rate.getValue().get(round));
            }
            System.out.printf("  %-18s %,12.0f rows/s (%,.0f-%,.0f)   sm3(v) / this: %.2fx per round (%.2f-%.2f),"
                            + " %.2fx of medians%n",
                    rate.getKey(), median(rate.getValue()), min(rate.getValue()), max(rate.getValue()),
                    median(ratios), min(ratios), max(ratios), median(sm3) / median(rate.getValue()));
        }
    }

    private static double min(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    }

    private static double max(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    }

    private static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
