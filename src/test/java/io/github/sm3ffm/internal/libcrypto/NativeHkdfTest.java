package io.github.sm3ffm.internal.libcrypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.ChildJvm;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An HKDF derivation hands its pooled context back holding none of its secrets, on both paths: directly over
 * the provider's SM3 functions (where this machine's OpenSSL allows it), and through {@code EVP_MAC}. Each runs in a child JVM, where nothing else
 * uses the pool, so the context this thread borrows next is the derivation's.
 */
class NativeHkdfTest {
    /** SM3 of the empty message (GB/T 32905-2016): a state that was reset and never fed. */
    private static final String SM3_EMPTY = "1ab21d8355cfa17f8e61194831e81a8f22bec8c728fefb747ed035eb5082aa2b";

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void derivationGivesItsContextBackHoldingNoSecret(boolean direct) throws Exception {
        ChildJvm.Result r = ChildJvm.run(Map.of(), List.of("-D" + DirectSm3.PROPERTY + "=" + direct),
                HkdfScrubProbe.class);
        String out = r.output();
        assertEquals(0, r.exitCode(), out);
        assertTrue(out.contains("reused=true"), "the derivation's context was not back in the pool:\n" + out);
        assertTrue(out.contains("staging=zero"), out);
        if (out.contains("direct=true")) {
            assertEquals(3, out.lines().filter(l -> l.equals("state=" + SM3_EMPTY)).count(), out);
        } else {
            assertTrue(out.contains("key=empty"), out);
        }
    }
}
