package io.github.sm3ffm.spark;

import java.util.Arrays;
import java.util.List;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The job {@code cluster/run} submits: hashes {@code rows} rows of {@link TestRows} (their cluster lengths)
 * in {@code partitions} partitions with {@link TestRows#QUERY}, and checks every value against BouncyCastle
 * where it was computed, on the executors. The session comes from {@code spark-submit}'s settings, as a user's would. Exit status: 0
 * when every value matched, 1 when some did not, 3 when the query failed (its error printed on one line
 * starting {@code query failed: }).
 */
public final class ClusterJob {
    private static final long SEED = 1126;
    private static final StructType VERDICT = new StructType()
            .add("id", DataTypes.LongType)
            .add("ok", DataTypes.BooleanType)
            .add("pid", DataTypes.LongType);

    private ClusterJob() {
    }

    public static void main(String[] args) {
        long rows = Long.parseLong(args[0]);
        int partitions = Integer.parseInt(args[1]);
        SparkSession spark = SparkSession.builder().appName("sm3-ffm-spark cluster check").getOrCreate();
        int status;
        try {
            status = check(spark, rows, partitions);
        } catch (Exception e) {
            System.out.println("query failed: " + e.getMessage().replace('\n', ' '));
            status = 3;
        }
        spark.stop();
        System.exit(status);
    }

    private static int check(SparkSession spark, long rows, int partitions) {
        spark.range(0, rows, 1, partitions)
                .map((MapFunction<Long, Row>) id -> TestRows.row(SEED, TestRows.Lengths.CLUSTER, id), Encoders.row(TestRows.SCHEMA))
                .createOrReplaceTempView("rows");
        // The inputs beside their hashes, so that each executor checks its own rows.
        Dataset<Row> hashed = spark.sql(TestRows.QUERY.replace("SELECT id,", "SELECT id, s, b, k, kb,"));
        System.out.println(hashed.queryExecution().executedPlan().toString().lines().findFirst().orElse(""));
        long start = System.nanoTime();
        // One pass: each row's verdict and the executor JVM that gave it, then counted on the driver.
        spark.createDataFrame(hashed.javaRDD().map(row -> RowFactory.create(row.getLong(0), matches(row),
                        ProcessHandle.current().pid())), VERDICT)
                .createOrReplaceTempView("verdicts");
        Row result = spark.sql("SELECT count(*), count_if(NOT ok), array_sort(collect_set(pid)),"
                + " min(CASE WHEN NOT ok THEN id END) FROM verdicts").first();
        long checked = result.getLong(0);
        long wrong = result.getLong(1);
        List<Long> executorPids = result.getList(2);
        long driverPid = ProcessHandle.current().pid();
        System.out.printf("checked %,d rows in %d partitions against BouncyCastle, on executors in JVMs %s"
                        + " (driver %d): %,d wrong%s, %.1f s%n",
                checked, partitions, executorPids, driverPid, wrong,
                wrong == 0 ? "" : " (first: row " + result.get(3) + ")", (System.nanoTime() - start) / 1e9);
        return wrong == 0 && checked == rows && executorPids.size() >= 2 && !executorPids.contains(driverPid)
                ? 0 : 1;
    }

    private static boolean matches(Row row) {
        String[] want = TestRows.expected(row);
        String[] got = new String[want.length];
        for (int c = 0; c < got.length; c++) {
            got[c] = row.getString(5 + c);
        }
        return Arrays.equals(want, got);
    }
}
