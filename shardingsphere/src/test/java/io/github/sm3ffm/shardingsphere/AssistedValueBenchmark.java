package io.github.sm3ffm.shardingsphere;

import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The time to compute one assisted-query value, as ShardingSphere asks for it on each written or queried value:
 * this module's {@code SM3} and {@code HMAC_SM3} against the shardingsphere-plugin's {@code SM3} (BouncyCastle's
 * {@code SM3Digest} over the value and the salt, its exact computation: {@link BouncyCastleReference#pluginSm3}),
 * over 1,024 different values of one kind taken in turn. {@link SpeedRounds} runs it in rounds and gives ratios.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class AssistedValueBenchmark {
    static final String SALT = "Q7x2Lm9p";

    /** {@code plugin}: the plugin's SM3; {@code SM3} and {@code HMAC_SM3}: this module's encryptors. */
    @Param({"plugin", "SM3", "HMAC_SM3"})
    public String algorithm;

    /** 18-character ID numbers, 11-digit phone numbers, or texts of 1,024 characters (Chinese and ASCII). */
    @Param({"id-number", "phone", "1KiB-text"})
    public String values;

    private final String[] plain = new String[1024];
    private IntFunction<String> assisted;
    private int next;

    @Setup
    public void setUp() {
        Random random = new Random(5);
        for (int i = 0; i < plain.length; i++) {
            plain[i] = switch (values) {
                case "id-number" -> RealisticValues.idNumber(random);
                case "phone" -> RealisticValues.phoneNumber(random);
                case "1KiB-text" -> RealisticValues.text(random, 1024);
                default -> throw new IllegalArgumentException(values);
            };
        }
        Properties props = new Properties();
        assisted = switch (algorithm) {
            case "plugin" -> i -> BouncyCastleReference.pluginSm3(plain[i], SALT);
            case "SM3" -> {
                props.setProperty("sm3-salt", SALT);
                SM3AssistedEncryptAlgorithm sm3 = new SM3AssistedEncryptAlgorithm();
                sm3.init(props);
                yield i -> sm3.encrypt(plain[i], null);
            }
            case "HMAC_SM3" -> {
                props.setProperty("hmac-sm3-key", "a key of 32 bytes for the bench.");
                HmacSM3AssistedEncryptAlgorithm hmac = new HmacSM3AssistedEncryptAlgorithm();
                hmac.init(props);
                yield i -> hmac.encrypt(plain[i], null);
            }
            default -> throw new IllegalArgumentException(algorithm);
        };
    }

    @Benchmark
    public String assistedValue() {
        int i = next;
        next = (i + 1) & (plain.length - 1);
        return assisted.apply(i);
    }
}
