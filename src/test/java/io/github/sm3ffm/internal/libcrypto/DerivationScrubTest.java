package io.github.sm3ffm.internal.libcrypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.ChildJvm;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An HKDF or X9.63 derivation hands its pooled context back holding none of its secrets, on both paths:
 * directly over the provider's SM3 functions (where this machine's OpenSSL allows it), and through EVP. Each
 * runs in a child JVM, where nothing else uses the pool, so the context this thread borrows next is the
 * derivation's.
 */
class DerivationScrubTest {
    /** SM3 of the empty message (GB/T 32905-2016): a state that was reset and never fed. */
    private static final String SM3_EMPTY = "1ab21d8355cfa17f8e61194831e81a8f22bec8c728fefb747ed035eb5082aa2b";

    @ParameterizedTest
    @CsvSource({"hkdf, true", "hkdf, false", "x963, true", "x963, false"})
    void derivationGivesItsContextBackHoldingNoSecret(String kdf, boolean direct) throws Exception {
        ChildJvm.Result r = ChildJvm.run(Map.of(), List.of("-D" + DirectSm3.PROPERTY + "=" + direct),
                DerivationScrubProbe.class, kdf);
        String out = r.output();
        assertEquals(0, r.exitCode(), out);
        assertTrue(out.contains("reused=true"), "the derivation's context was not back in the pool:\n" + out);
        assertTrue(out.contains("staging=zero"), out);
        if (kdf.equals("x963")) {
            assertTrue(out.contains("state=" + SM3_EMPTY), out);
        } else if (out.contains("direct=true")) {
            assertEquals(3, out.lines().filter(l -> l.equals("state=" + SM3_EMPTY)).count(), out);
        } else {
            assertTrue(out.contains("key=empty"), out);
        }
    }
}
