"""PySpark with the two settings: sm3 of 'abc' gives the known answer, hmac_sm3 gives BouncyCastle's answer, both
computed on the executors (rows of spark.range, which the optimizer cannot fold on the driver).

Usage: check.py MASTER JAR... (the sm3-ffm-spark, sm3-ffm and BouncyCastle jars).
"""
import sys

from pyspark.sql import SparkSession

# SM3("abc"), GB/T 32905-2016 appendix A.1.
SM3_ABC = "66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0"

master, jars = sys.argv[1], sys.argv[2:]
spark = (SparkSession.builder.master(master).appName("sm3-ffm-spark PySpark check")
         .config("spark.jars", ",".join(jars))
         .config("spark.sql.extensions", "io.github.sm3ffm.spark.SM3SparkExtensions")
         .config("spark.driver.extraJavaOptions", "--enable-native-access=ALL-UNNAMED")
         .config("spark.executor.extraJavaOptions", "--enable-native-access=ALL-UNNAMED")
         .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
         .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
         .config("spark.cores.max", "2")
         .getOrCreate())
try:
    key, message = "pyspark key 密钥", "SM3 where the data is: 数据 \U0001F600"
    # A literal, or rows of a local DataFrame, would be computed on the driver: Spark folds constants and
    # evaluates projections of local relations there. Rows of a range are computed by the executors' tasks.
    rows = (spark.range(0, 4, 1, 2)
            .selectExpr("IF(id >= 0, 'abc', NULL) AS a", f"IF(id >= 0, '{key}', NULL) AS k",
                        f"IF(id >= 0, '{message}', NULL) AS m")
            .selectExpr("sm3(a) AS digest", "hmac_sm3(m, k) AS mac"))
    assert "LocalTableScan" not in rows._jdf.queryExecution().executedPlan().toString(), "computed on the driver"
    results = rows.collect()
    assert len(results) == 4, f"{len(results)} rows"
    digest, mac = results[0]["digest"], results[0]["mac"]
    assert all(r["digest"] == digest and r["mac"] == mac for r in results), "rows differ"

    # The reference: BouncyCastle's HmacSM3, in the driver's JVM.
    jvm = spark.sparkContext._jvm
    bc = jvm.javax.crypto.Mac.getInstance("HMACSM3", jvm.org.bouncycastle.jce.provider.BouncyCastleProvider())
    bc.init(jvm.javax.crypto.spec.SecretKeySpec(bytearray(key.encode()), "HMACSM3"))
    expected_mac = bytes(bc.doFinal(bytearray(message.encode()))).hex()

    assert digest == SM3_ABC, f"sm3('abc') = {digest}, expected {SM3_ABC}"
    assert mac == expected_mac, f"hmac_sm3 = {mac}, BouncyCastle gives {expected_mac}"
    print(f"check.py: on the executors, sm3 of 'abc' = {digest}; hmac_sm3 = {mac}, as BouncyCastle's")
finally:
    spark.stop()
