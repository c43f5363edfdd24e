package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.KnownAnswers.SM3_ABC;
import static io.github.sm3ffm.internal.libcrypto.KnownAnswers.differs;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The algorithms this library computes, and the one place that decides whether each can be handed out:
 * what libcrypto gives (the loader's outcome and the fetch) and a known-answer self-test through the same
 * native paths the engines use, run once, before the first instance. An algorithm built on another is
 * usable only when that one is.
 *
 * <p>It is also the only way to the facade's streams and KDFs ({@link #sm3Stream()}, {@link #hmacStream()},
 * {@link #pbkdf2()}, {@link #hkdf()}, {@link #x963Kdf()}): each checks its algorithm first, so no engine
 * reaches native code before the self-test has passed, and nothing after the gate has a reason to fail
 * for want of libcrypto.
 */
public enum Algorithm {
    /** SM3, GB/T 32905-2016. */
    SM3("SM3") {
        @Override
        String selfTest() throws LibCryptoUnavailableException {
            // The backend is chosen before the first context: a choice that could not run throws, as a test does.
            BackendChoice.selected();
            return sm3SelfTest();
        }
    },
    /** HMAC-SM3, GM/T 0042-2015. */
    HMAC_SM3("HMAC-SM3") {
        @Override
        String selfTest() throws LibCryptoUnavailableException {
            SM3.check();
            return hmacSelfTest();
        }
    },
    /** PBKDF2 (RFC 8018) with HMAC-SM3. */
    PBKDF2_HMAC_SM3("PBKDF2WithHmacSM3") {
        @Override
        String selfTest() throws LibCryptoUnavailableException {
            HMAC_SM3.check();
            return pbkdf2SelfTest();
        }
    },
    /** HKDF (RFC 5869) with HMAC-SM3; a KDF service from JDK 25 on. */
    HKDF_SM3("HKDF-SM3") {
        @Override
        String selfTest() throws LibCryptoUnavailableException {
            HMAC_SM3.check();
            return hkdfSelfTest();
        }
    },
    /** The ANSI X9.63 KDF with SM3, the SM2 KDF (GM/T 0003-2012); a KDF service from JDK 25 on. */
    X963KDF_SM3("X963KDF-SM3") {
        @Override
        String selfTest() throws LibCryptoUnavailableException {
            SM3.check();
            return x963SelfTest();
        }
    };

    private static final HexFormat HEX = HexFormat.of();

    private final String displayName;
    /** Empty when usable, else why not; null until decided. Package-private: tests set it to see what follows. */
    volatile Optional<LibCryptoUnavailableException> outcome;

    Algorithm(String displayName) {
        this.displayName = displayName;
    }

    /** The name messages give it, such as "HMAC-SM3". */
    String displayName() {
        return displayName;
    }

    /**
     * Why this algorithm cannot be handed out; empty when it can. Decided on the first call, then kept, except when
     * the self-test could not run (a native call failed, such as an allocation): that is decided again at the next
     * call. Only a wrong answer, or a libcrypto without SM3, disables the algorithm for the JVM's life.
     */
    public Optional<LibCryptoUnavailableException> unavailability() {
        Optional<LibCryptoUnavailableException> o = outcome;
        if (o == null) {
            synchronized (this) {
                o = outcome;
                if (o == null) {
                    Decision d = decide();
                    o = Optional.ofNullable(d.problem);
                    if (d.kept) {
                        outcome = o;
                    }
                }
            }
        }
        return o;
    }

    /** Whether a lasting decision was made, for tests. */
    boolean decided() {
        return outcome != null;
    }

    /** Throws why this algorithm cannot be handed out, if it cannot. */
    public void check() throws LibCryptoUnavailableException {
        Optional<LibCryptoUnavailableException> o = unavailability();
        if (o.isPresent()) {
            throw o.get();
        }
    }

    /** A stream for a new SM3 message, for the {@code MessageDigest} engine. */
    public static DigestStream sm3Stream() throws LibCryptoUnavailableException {
        SM3.check();
        return new DigestStream();
    }

    /** A stream that needs a key next, for the {@code Mac} engine. */
    public static MacStream hmacStream() throws LibCryptoUnavailableException {
        HMAC_SM3.check();
        return new MacStream();
    }

    /** PBKDF2 with HMAC-SM3. */
    public static Pbkdf2 pbkdf2() throws LibCryptoUnavailableException {
        PBKDF2_HMAC_SM3.check();
        return Pbkdf2.INSTANCE;
    }

    /** HKDF with HMAC-SM3. */
    public static Hkdf hkdf() throws LibCryptoUnavailableException {
        HKDF_SM3.check();
        return Hkdf.INSTANCE;
    }

    /** The X9.63 KDF with SM3. */
    public static X963Kdf x963Kdf() throws LibCryptoUnavailableException {
        X963KDF_SM3.check();
        return X963Kdf.INSTANCE;
    }

    /** A decision, and whether it holds for the JVM's life. */
    record Decision(LibCryptoUnavailableException problem, boolean kept) {
    }

    /** Decides now, whatever was decided before: for {@link #unavailability} and for tests. */
    Decision decide() {
        Optional<LibCryptoUnavailableException> loading = LibCrypto.loadingError();
        if (loading.isPresent()) {
            // Before any class that links a binding is touched: without a library, none can link.
            return new Decision(loading.get(), true);
        }
        try {
            String problem = selfTest();
            return new Decision(problem == null ? null
                    : new LibCryptoUnavailableException(displayName + " known-answer self-test failed: " + problem,
                    null), true);
        } catch (LibCryptoUnavailableException e) {
            // An algorithm this one is built on is unavailable: final when that one's decision was.
            return new Decision(e, outcomeOfBase() != null);
        } catch (RuntimeException e) {
            // A call failed, so the test gave no answer: it runs again at the next use.
            return new Decision(new LibCryptoUnavailableException(
                    displayName + " known-answer self-test could not run: " + e, e), false);
        }
    }

    /** The kept outcome of the algorithm this one is built on, or null when none is kept (or none is needed). */
    private Optional<LibCryptoUnavailableException> outcomeOfBase() {
        return switch (this) {
            case SM3 -> Optional.empty();
            case HMAC_SM3, X963KDF_SM3 -> SM3.outcome;
            case PBKDF2_HMAC_SM3, HKDF_SM3 -> HMAC_SM3.outcome;
        };
    }

    /** Null when libcrypto gives the known answers, else what it gave. */
    abstract String selfTest() throws LibCryptoUnavailableException;

    /** The two GB/T 32905-2016 examples, the second through a read-only buffer (copied, not in place). */
    private static String sm3SelfTest() {
        byte[] abc = {'a', 'b', 'c'};
        byte[] abcd16 = "abcd".repeat(16).getBytes(StandardCharsets.US_ASCII);
        DigestStream sm3 = new DigestStream();
        byte[] first = new byte[Sm3Sizes.DIGEST_LENGTH];
        byte[] second = new byte[Sm3Sizes.DIGEST_LENGTH];
        sm3.update(abc, 0, abc.length);
        sm3.finish(first, 0);
        ByteBuffer readOnly = ByteBuffer.wrap(abcd16).asReadOnlyBuffer();
        sm3.update(readOnly, 0, readOnly.remaining());
        sm3.finish(second, 0);
        return differs("SM3(\"abc\")", first, SM3_ABC,
                "SM3(\"abcd\" x 16)", second, "debe9ff92275b8a138604889c18e5a4d6fdb70e5387e5765293dcba39c0c5732");
    }

    /** The two GM/T 0042-2015 Appendix D.3 examples: a key, a new key, and a restart with that key. */
    private static String hmacSelfTest() {
        byte[] key2 = new byte[37];
        for (int i = 0; i < key2.length; i++) {
            key2[i] = (byte) (i + 1);
        }
        byte[] key1 = Arrays.copyOf(key2, 32);
        byte[] message1 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".repeat(2)
                .getBytes(StandardCharsets.US_ASCII);
        byte[] message2 = new byte[50];
        Arrays.fill(message2, (byte) 0xcd);
        MacStream mac = new MacStream();
        byte[] first = new byte[Sm3Sizes.DIGEST_LENGTH];
        byte[] second = new byte[Sm3Sizes.DIGEST_LENGTH];
        mac.init(key1);
        mac.update(message1, 0, message1.length);
        mac.finish(first, 0);
        mac.init(key2);
        mac.update(message1, 0, 7);
        mac.reset();
        mac.update(message2, 0, message2.length);
        mac.finish(second, 0);
        return differs("the first example", first, "ca05e144ed05d1857840d1f318a4a8669e559fc8391f414485bfdf7bb408963a",
                "the second example", second, "220bf579ded555393f0159f66c99877822a3ecf610d1552154b41d44b94db3ae");
    }

    /**
     * 40 bytes (two blocks, the second cut short) with two iterations from the PBKDF2 loop, and again by the
     * definition in RFC 8018 section 5.2 from the HMAC-SM3 stream, which has passed its own test. A loop that
     * dropped the block counter, an iteration or the XOR would disagree.
     */
    private static String pbkdf2SelfTest() {
        byte[] password = "password".getBytes(StandardCharsets.US_ASCII);
        byte[] salt = "salt".getBytes(StandardCharsets.US_ASCII);
        int length = 40;
        byte[] derived = Pbkdf2.INSTANCE.derive(password, salt, 2, length);
        MacStream prf = new MacStream();
        prf.init(password);
        byte[] expected = new byte[length];
        byte[] u1 = new byte[Sm3Sizes.DIGEST_LENGTH];
        byte[] u2 = new byte[Sm3Sizes.DIGEST_LENGTH];
        for (int block = 1; (block - 1) * Sm3Sizes.DIGEST_LENGTH < length; block++) {
            prf.update(salt, 0, salt.length);
            prf.update(new byte[] {0, 0, 0, (byte) block}, 0, 4);
            prf.finish(u1, 0);
            prf.update(u1, 0, u1.length);
            prf.finish(u2, 0);
            int offset = (block - 1) * Sm3Sizes.DIGEST_LENGTH;
            for (int i = 0; i < Sm3Sizes.DIGEST_LENGTH && offset + i < length; i++) {
                expected[offset + i] = (byte) (u1[i] ^ u2[i]);
            }
        }
        return Arrays.equals(derived, expected) ? null
                : "PBKDF2 gave " + HEX.formatHex(derived) + ", HMAC-SM3 gives " + HEX.formatHex(expected);
    }

    /**
     * RFC 5869's test case 1 inputs with SM3, whose PRK and OKM GmSSL publishes (tests/hkdftest.c), in each
     * of the three modes: a mode ignored, or a salt or info dropped, would disagree.
     */
    private static String hkdfSelfTest() {
        byte[] ikm = new byte[22];
        Arrays.fill(ikm, (byte) 0x0b);
        byte[] salt = HEX.parseHex("000102030405060708090a0b0c");
        byte[] info = HEX.parseHex("f0f1f2f3f4f5f6f7f8f9");
        String okm = "c69fe91b7aaee2dd5718d72dcaee0cce93f1b8e41f792da51261b6a517e68b36ed2c595572b01dfa359b";
        Hkdf hkdf = Hkdf.INSTANCE;
        byte[] prk = hkdf.derive(Hkdf.Mode.EXTRACT, ikm, salt, new byte[0], Sm3Sizes.DIGEST_LENGTH);
        return differs("extract", prk, "e0d6f7b0bd056327b7659f1f39ad850561fbcf4fb10fb58e88eafa55cf7cd01e",
                "expand", hkdf.derive(Hkdf.Mode.EXPAND, prk, new byte[0], info, 42), okm,
                "extract then expand", hkdf.derive(Hkdf.Mode.EXTRACT_THEN_EXPAND, ikm, salt, info, 42), okm);
    }

    /** GM/T 0003.4-2012 Annex A.2 example 2, step A5 (t = KDF(x2 || y2, 152)); then with a SharedInfo. */
    private static String x963SelfTest() {
        byte[] z = HEX.parseHex("64d20d27d0632957f8028c1e024f6b02edf23102a566c932ae8bd613a8e865fe"
                + "58d225eca784ae300a81a2d48281a828e1cedf11c4219099840265375077bf78");
        X963Kdf x963 = X963Kdf.INSTANCE;
        byte[] t = x963.derive(z, new byte[0], 19);
        // Two counter blocks over Z || counter || info, by SM3 itself, which has passed its own test.
        byte[] info = {'s', 'm', '3'};
        byte[] expected = new byte[40];
        DigestStream sm3 = new DigestStream();
        byte[] block = new byte[Sm3Sizes.DIGEST_LENGTH];
        for (int counter = 1; counter <= 2; counter++) {
            sm3.update(z, 0, z.length);
            sm3.update(new byte[] {0, 0, 0, (byte) counter}, 0, 4);
            sm3.update(info, 0, info.length);
            sm3.finish(block, 0);
            System.arraycopy(block, 0, expected, (counter - 1) * 32, counter == 1 ? 32 : 8);
        }
        return differs("KDF(x2 || y2, 152)", t, "006e30dae231b071dfad8aa379e90264491603",
                "KDF with SharedInfo", x963.derive(z, info, 40), HEX.formatHex(expected));
    }
}
