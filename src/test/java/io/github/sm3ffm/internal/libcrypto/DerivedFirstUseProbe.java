package io.github.sm3ffm.internal.libcrypto;

import io.github.sm3ffm.SM3Provider;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Child-JVM entry point: the JVM's first use is the service named by the argument (HmacSM3, PBKDF2WithHmacSM3, or
 * HKDF-SM3 through its gate), never SM3 itself, and each call that SM3's decision makes (the backend choice, then
 * its known-answer self-test) is failed in turn during that first use. Each such use must fail without anything
 * being kept; then every service built on SM3 must give BouncyCastle's values. Exits non-zero on the first thing
 * that is wrong.
 */
public final class DerivedFirstUseProbe {
    private static final List<Algorithm> BUILT_ON_SM3 =
            List.of(Algorithm.HMAC_SM3, Algorithm.PBKDF2_HMAC_SM3, Algorithm.HKDF_SM3, Algorithm.X963KDF_SM3);
    private static final byte[] KEY = "a key of HMAC-SM3".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MESSAGE = "the message".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SALT = "salt".getBytes(StandardCharsets.US_ASCII);

    private DerivedFirstUseProbe() {
    }

    public static void main(String[] args) throws Exception {
        Faults.install();
        String first = args[0];
        SM3Provider provider = new SM3Provider();
        int failures = 0;
        // Failures that hit SM3's self-test itself, once a backend was chosen, not the choice.
        int inSelfTest = 0;
        for (int n = 1; ; n++) {
            check(n < 1_000, "SM3 was never decided");
            try (Faults.Armed armed = Faults.failNth(n)) {
                boolean threw = false;
                try {
                    use(first, provider);
                } catch (Exception e) {
                    threw = true;
                }
                if (!armed.injected() || Algorithm.SM3.decided()) {
                    // Past SM3's decision: the failure, if any, hit the derived service's own part.
                    break;
                }
                String at = "call " + n + " (" + armed.failedCall() + ") of SM3's decision";
                check(threw, at + ": the first use of " + first + " succeeded");
                for (Algorithm a : BUILT_ON_SM3) {
                    check(!a.decided(), at + ": " + a + " kept an outcome for the JVM's life");
                }
                if (BackendChoice.made()) {
                    inSelfTest++;
                }
            }
            failures++;
        }
        check(inSelfTest > 0, "no call of SM3's self-test was failed");
        for (String service : List.of("HmacSM3", "PBKDF2WithHmacSM3", "HKDF-SM3")) {
            check(Arrays.equals(bouncyCastle(service), use(service, provider)), service + " differs from BouncyCastle");
        }
        System.out.println("first use " + first + ": " + failures + " failures of SM3's decision survived, "
                + inSelfTest + " in its self-test; " + BackendChoice.selected().description());
    }

    private static byte[] use(String service, SM3Provider provider) throws Exception {
        return switch (service) {
            case "HmacSM3" -> {
                Mac mac = Mac.getInstance(service, provider);
                mac.init(new SecretKeySpec(KEY, service));
                yield mac.doFinal(MESSAGE);
            }
            case "PBKDF2WithHmacSM3" -> SecretKeyFactory.getInstance(service, provider)
                    .generateSecret(new PBEKeySpec("password".toCharArray(), SALT, 3, 320)).getEncoded();
            // Through the gate the KDF engine passes: its service is in the jar's JDK 25 part, not on this class path.
            case "HKDF-SM3" -> Algorithm.hkdf().derive(Hkdf.Mode.EXTRACT_THEN_EXPAND, KEY, SALT, MESSAGE, 42);
            default -> throw new IllegalArgumentException(service);
        };
    }

    private static byte[] bouncyCastle(String service) {
        return switch (service) {
            case "HmacSM3" -> References.hmac(KEY, MESSAGE);
            case "PBKDF2WithHmacSM3" -> References.pbkdf2("password".getBytes(StandardCharsets.UTF_8), SALT, 3, 40);
            case "HKDF-SM3" -> References.hkdf(KEY, SALT, MESSAGE, 42);
            default -> throw new IllegalArgumentException(service);
        };
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            System.out.println("wrong: " + what);
            System.exit(1);
        }
    }
}
