package io.github.sm3ffm.internal.libcrypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.ChildJvm;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A transient failure of SM3's decision (its backend choice or known-answer self-test) during the first use of a
 * service built on it fails that use only: HMAC-SM3, PBKDF2 and HKDF are not disabled for the JVM's life, and the
 * next use gives BouncyCastle's values. Other fault tests decide SM3 first; here nothing else has touched SM3, so
 * each case is a child JVM of its own, on both backends.
 */
class DerivedFirstUseTest {
    @ParameterizedTest
    @CsvSource({"HmacSM3, true", "PBKDF2WithHmacSM3, true", "HKDF-SM3, true", "HmacSM3, false",
            "PBKDF2WithHmacSM3, false", "HKDF-SM3, false"})
    void aFailedDecisionOfSm3DuringADerivedFirstUseIsNotKept(String first, boolean direct) throws Exception {
        ChildJvm.Result r = ChildJvm.run(Map.of(), List.of("-D" + DirectSm3.PROPERTY + "=" + direct),
                DerivedFirstUseProbe.class, first);
        assertEquals(0, r.exitCode(), r.output());
        assertTrue(r.output().contains("first use " + first + ": ") && r.output().contains(" in its self-test; "),
                r.output());
    }
}
