package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import cn.hutool.crypto.GlobalBouncyCastleProvider;
import cn.hutool.crypto.SmUtil;
import cn.hutool.crypto.digest.DigestUtil;
import cn.hutool.crypto.digest.Digester;
import cn.hutool.crypto.digest.HMac;
import cn.hutool.crypto.digest.HmacAlgorithm;
import cn.hutool.crypto.digest.SM3;
import cn.hutool.crypto.digest.mac.BCHMacEngine;
import cn.hutool.crypto.digest.mac.DefaultHMacEngine;
import cn.hutool.crypto.symmetric.SymmetricCrypto;
import io.github.sm3ffm.internal.libcrypto.HutoolWithoutBcProbe;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.Security;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.crypto.params.KeyParameter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that pins BouncyCastle unless told otherwise: Hutool ({@code cn.hutool:hutool-all}). Its digesters
 * ({@code SmUtil.sm3()}, {@code new SM3()}, {@code DigestUtil.digester("SM3")}, {@code new Digester("SM3")})
 * take their {@code MessageDigest} from Hutool's own BC provider object while its switch
 * {@code GlobalBouncyCastleProvider} is on, the default, and from the JCA's order once it is off. Its HmacSM3
 * ({@code HMac}, {@code SmUtil.hmacSm3}) is BC's HMac over BC's {@code SM3Digest}, built without the JCA, so
 * neither the switch nor the order moves it; an {@code HMac} over Hutool's {@code DefaultHMacEngine} asks the
 * JCA for its {@code Mac}.
 *
 * <p>A recorder registered first counts what the JCA asks it for and answers with SM3FFM's services, so each
 * entry point's route is observed: by its {@code MessageDigest}'s or {@code Mac}'s provider where Hutool
 * exposes it, by the recorder's count where it does not. Hutool's switch and the providers are global: each
 * test restores the switch and removes the providers it added, and the class removes the BC that Hutool adds.
 */
class HutoolSm3IT {
    /** SM3("abc"), GB/T 32905-2016 example 1. */
    private static final String ABC = "66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0";
    private static final byte[] KEY = "a key for HmacSM3".getBytes(StandardCharsets.US_ASCII);
    /** The empty message, one of three bytes, one of 1000 (15 blocks and a part). */
    private static final List<byte[]> MESSAGES = List.of(new byte[0], "abc".getBytes(StandardCharsets.US_ASCII),
            random(1000, 1));
    private static final byte[] LARGE = random(5 << 20, 5);

    private static List<String> providersBeforeHutool;
    private static boolean hutoolUsesBc;

    private final SM3Provider sm3ffm = new SM3Provider();
    private final Recorder recorder = new Recorder(sm3ffm);
    private List<String> providersBefore;

    @TempDir
    Path dir;

    /** Hutool's start, as an application sees it once: reading the switch first registers BC, last, if absent. */
    @BeforeAll
    static void startHutool() {
        providersBeforeHutool = providerNames();
        hutoolUsesBc = GlobalBouncyCastleProvider.INSTANCE.getProvider() != null;
    }

    @AfterAll
    static void leaveNothingBehind() {
        GlobalBouncyCastleProvider.setUseBouncyCastle(hutoolUsesBc);
        removeProvidersBut(providersBeforeHutool);
    }

    @BeforeEach
    void registerFirst() {
        providersBefore = providerNames();
        Security.insertProviderAt(recorder, 1);
    }

    @AfterEach
    void restore() {
        GlobalBouncyCastleProvider.setUseBouncyCastle(hutoolUsesBc);
        removeProvidersBut(providersBefore);
    }

    @Test
    void byDefaultHutoolsDigestersPinBcWhateverTheOrder() throws Exception {
        assertSame(sm3ffm, MessageDigest.getInstance("SM3").getProvider(), "the JCA's first SM3");
        for (Supplier<Digester> digester : digesters()) {
            Digester d = digester.get();
            assertEquals("BC", d.getDigest().getProvider().getName());
            assertEquals(ABC, d.digestHex("abc"));
        }
        assertEquals(ABC, SmUtil.sm3("abc"));
        assertEquals(1, recorder.asked("MessageDigest", "SM3"), "only the look-up above went through the JCA");
    }

    @Test
    void afterTheSwitchEveryDigesterComputesWithSm3ffm() {
        GlobalBouncyCastleProvider.setUseBouncyCastle(false);
        for (Supplier<Digester> digester : digesters()) {
            Digester d = digester.get();
            assertSame(sm3ffm, d.getDigest().getProvider());
            assertEquals(ABC, d.digestHex("abc"));
            for (byte[] message : MESSAGES) {
                assertEquals(expected(message), d.digestHex(message), message.length + " B");
                assertArrayEquals(HexFormat.of().parseHex(expected(message)), d.digest(message));
            }
        }
        assertEquals(digesters().size(), recorder.asked("MessageDigest", "SM3"));

        // SmUtil's static forms make their digester out of sight: the recorder sees each look-up.
        assertEquals(ABC, SmUtil.sm3("abc"));
        assertEquals(expected(MESSAGES.get(2)), SmUtil.sm3(new ByteArrayInputStream(MESSAGES.get(2))));
        assertEquals(digesters().size() + 2, recorder.asked("MessageDigest", "SM3"));
    }

    @Test
    void afterTheSwitchFilesAndStreamsOfAFewMiBAreHashedBySm3ffm() throws Exception {
        GlobalBouncyCastleProvider.setUseBouncyCastle(false);
        Path file = Files.write(dir.resolve("large.bin"), LARGE);
        String expected = expected(LARGE);
        for (Supplier<Digester> digester : digesters()) {
            Digester d = digester.get();
            assertSame(sm3ffm, d.getDigest().getProvider());
            assertEquals(expected, d.digestHex(file.toFile()), "a file");
            assertEquals(expected, d.digestHex(new ByteArrayInputStream(LARGE)), "a stream");
            assertEquals(expected, d.digestHex(LARGE), "an array");
        }
        int before = recorder.asked("MessageDigest", "SM3");
        assertEquals(expected, SmUtil.sm3(file.toFile()));
        try (InputStream in = Files.newInputStream(file)) {
            assertEquals(expected, SmUtil.sm3(in));
        }
        assertEquals(before + 2, recorder.asked("MessageDigest", "SM3"));
    }

    @Test
    void aDigesterMadeBeforeTheSwitchKeepsBc() {
        Digester early = SmUtil.sm3();
        GlobalBouncyCastleProvider.setUseBouncyCastle(false);
        assertEquals("BC", early.getDigest().getProvider().getName());
        assertSame(sm3ffm, SmUtil.sm3().getDigest().getProvider());
        assertEquals(ABC, early.digestHex("abc"));
    }

    @Test
    void afterTheSwitchSm4StillComesFromBc() {
        GlobalBouncyCastleProvider.setUseBouncyCastle(false);
        SymmetricCrypto sm4 = SmUtil.sm4(Arrays.copyOf(KEY, 16));
        assertEquals("BC", sm4.getCipher().getProvider().getName(), "the JCA's only SM4");
        assertArrayEquals(MESSAGES.get(2), sm4.decrypt(sm4.encrypt(MESSAGES.get(2))));
    }

    /** A documented limitation: Hutool builds BC's HMac over BC's SM3Digest for "HmacSM3", never the JCA's. */
    @Test
    void hmacSm3IsBcsOwnEngineWithTheSwitchOnOrOff() throws Exception {
        for (boolean useBc : new boolean[] {true, false}) {
            GlobalBouncyCastleProvider.setUseBouncyCastle(useBc);
            List<HMac> hmacs = List.of(SmUtil.hmacSm3(KEY), new HMac("HmacSM3", KEY),
                    new HMac(HmacAlgorithm.HmacSM3, KEY), DigestUtil.hmac(HmacAlgorithm.HmacSM3, KEY));
            for (HMac hmac : hmacs) {
                BCHMacEngine engine = assertInstanceOf(BCHMacEngine.class, hmac.getEngine());
                org.bouncycastle.crypto.macs.HMac bcHmac =
                        assertInstanceOf(org.bouncycastle.crypto.macs.HMac.class, engine.getMac());
                assertInstanceOf(SM3Digest.class, bcHmac.getUnderlyingDigest(), "BC's SM3, not a JCA digest");
                for (byte[] message : MESSAGES) {
                    assertEquals(expectedTag(message), hmac.digestHex(message), message.length + " B");
                }
            }
        }
        assertEquals(0, recorder.asked("Mac", "HmacSM3"), "no HmacSM3 was asked of the JCA");
        assertEquals(0, recorder.asked("MessageDigest", "SM3"));
    }

    @Test
    void anHMacOverHutoolsDefaultEngineReachesSm3ffmAfterTheSwitch() throws Exception {
        HMac pinned = new HMac(new DefaultHMacEngine("HmacSM3", KEY));
        assertEquals("BC", ((DefaultHMacEngine) pinned.getEngine()).getMac().getProvider().getName());
        assertEquals(0, recorder.asked("Mac", "HmacSM3"));

        GlobalBouncyCastleProvider.setUseBouncyCastle(false);
        HMac hmac = new HMac(new DefaultHMacEngine("HmacSM3", KEY));
        assertSame(sm3ffm, ((DefaultHMacEngine) hmac.getEngine()).getMac().getProvider());
        assertEquals(1, recorder.asked("Mac", "HmacSM3"));
        for (byte[] message : MESSAGES) {
            assertEquals(expectedTag(message), hmac.digestHex(message), message.length + " B");
            assertEquals(expectedTag(message), pinned.digestHex(message), message.length + " B, BC's");
        }
        assertEquals(expectedTag(LARGE), hmac.digestHex(new ByteArrayInputStream(LARGE)), "a stream");
        Path file = Files.write(dir.resolve("large.bin"), LARGE);
        assertEquals(expectedTag(LARGE), hmac.digestHex(file.toFile()), "a file");
    }

    /**
     * Without BC on the class path Hutool's switch has no provider to pin: its digesters and an HMac over its
     * DefaultHMacEngine take the JCA's first SM3, while SmUtil and HMac("HmacSM3") need BC's classes.
     */
    @Test
    void withoutBcOnTheClassPathTheDigestersNeedNoSwitch() throws Exception {
        String classPath = String.join(File.pathSeparator, ChildJvm.packagedJar().toAbsolutePath().toString(),
                Path.of(HutoolWithoutBcProbe.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                        .toString(),
                Path.of(SmUtil.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        ChildJvm.Result result = ChildJvm.java(Map.of(),
                List.of("--enable-native-access=ALL-UNNAMED", "-cp", classPath, HutoolWithoutBcProbe.class.getName(),
                        new String(KEY, StandardCharsets.US_ASCII)));
        assertEquals(0, result.exitCode(), result.output());
        assertEquals(List.of(
                "DigestUtil.digester: SM3FFM " + ABC,
                "new SM3: SM3FFM " + ABC,
                "HMac over DefaultHMacEngine: SM3FFM " + expectedTag(MESSAGES.get(1)),
                "SmUtil.sm3: " + NoClassDefFoundError.class.getName(),
                "HMac(\"HmacSM3\", key): " + NoClassDefFoundError.class.getName()),
                result.output().lines().toList());
    }

    /** The four ways to a Hutool digester for SM3. */
    private static List<Supplier<Digester>> digesters() {
        return List.of(SmUtil::sm3, SM3::new, () -> DigestUtil.digester("SM3"), () -> new Digester("SM3"));
    }

    /** SM3 of the message as hex, from SM3FFM's MessageDigest after checking it against BC's SM3Digest. */
    private String expected(byte[] message) {
        SM3Digest bc = new SM3Digest();
        bc.update(message, 0, message.length);
        byte[] reference = new byte[32];
        bc.doFinal(reference, 0);
        try {
            byte[] ours = MessageDigest.getInstance("SM3", sm3ffm).digest(message);
            assertArrayEquals(reference, ours, "SM3FFM against BC");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
        return HexFormat.of().formatHex(reference);
    }

    /** HmacSM3 of the message under KEY as hex, from SM3FFM's Mac after checking it against BC's HMac. */
    private String expectedTag(byte[] message) throws Exception {
        org.bouncycastle.crypto.macs.HMac bc = new org.bouncycastle.crypto.macs.HMac(new SM3Digest());
        bc.init(new KeyParameter(KEY));
        bc.update(message, 0, message.length);
        byte[] reference = new byte[32];
        bc.doFinal(reference, 0);
        Mac ours = Mac.getInstance("HmacSM3", sm3ffm);
        ours.init(new SecretKeySpec(KEY, "HmacSM3"));
        assertArrayEquals(reference, ours.doFinal(message), "SM3FFM against BC");
        return HexFormat.of().formatHex(reference);
    }

    private static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    private static void removeProvidersBut(List<String> names) {
        for (String name : providerNames()) {
            if (!names.contains(name)) {
                Security.removeProvider(name);
            }
        }
        assertEquals(names, providerNames(), "the providers as they were");
    }

    private static List<String> providerNames() {
        return Arrays.stream(Security.getProviders()).map(Provider::getName).toList();
    }

    /**
     * A provider that answers every look-up with the target's service and counts the look-ups by type and
     * algorithm. The JCA reaches it only when it searches the provider list, never when a caller names
     * another provider, and what it hands out reports the target as its provider.
     */
    private static final class Recorder extends Provider {
        private final Provider target;
        private final Map<String, AtomicInteger> asked = new ConcurrentHashMap<>();

        Recorder(Provider target) {
            super("SM3FFM-recorder", "1", "Counts the JCA's look-ups and answers with " + target.getName());
            this.target = target;
        }

        @Override
        public Service getService(String type, String algorithm) {
            asked.computeIfAbsent(key(type, algorithm), k -> new AtomicInteger()).incrementAndGet();
            return target.getService(type, algorithm);
        }

        int asked(String type, String algorithm) {
            AtomicInteger count = asked.get(key(type, algorithm));
            return count == null ? 0 : count.get();
        }

        private static String key(String type, String algorithm) {
            return type + "." + algorithm.toUpperCase(Locale.ROOT);
        }
    }
}
