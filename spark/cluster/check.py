"""PySpark with the two settings: sm3('abc') gives the known answer, hmac_sm3 gives BouncyCastle's answer.

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
    rows = spark.createDataFrame([(key, message)], "k STRING, m STRING").repartition(2)
    digest, mac = rows.selectExpr("sm3('abc')", "hmac_sm3(k, m)").first()

    # The reference: BouncyCastle's HmacSM3, in the driver's JVM.
    jvm = spark.sparkContext._jvm
    bc = jvm.javax.crypto.Mac.getInstance("HMACSM3", jvm.org.bouncycastle.jce.provider.BouncyCastleProvider())
    bc.init(jvm.javax.crypto.spec.SecretKeySpec(bytearray(key.encode()), "HMACSM3"))
    expected_mac = bytes(bc.doFinal(bytearray(message.encode()))).hex()

    assert digest == SM3_ABC, f"sm3('abc') = {digest}, expected {SM3_ABC}"
    assert mac == expected_mac, f"hmac_sm3 = {mac}, BouncyCastle gives {expected_mac}"
    print(f"check.py: sm3('abc') = {digest}; hmac_sm3 = {mac}, as BouncyCastle's")
finally:
    spark.stop()
