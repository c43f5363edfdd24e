package io.github.sm3ffm.internal.libcrypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.ChildJvm;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * No native context keeps a key's HMAC pads, an unfinished keyed message or a KDF's secret once its user is
 * done with it or collected, on both backends: the provider's SM3 functions (where this machine's OpenSSL
 * allows them) and EVP. The probe reads each context's states through the library's own handles; while the
 * {@code Mac} is alive it must find them there, which shows the reading can see what it looks for. Each
 * backend runs in a child JVM of its own, where nothing else uses the pools.
 */
class ReleasedContextsTest {
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void releasedContextsHoldNoSecret(boolean direct) throws Exception {
        ChildJvm.Result r = ChildJvm.run(Map.of(), List.of("-D" + DirectSm3.PROPERTY + "=" + direct),
                ReleasedContextsProbe.class);
        String out = r.output();
        assertEquals(0, r.exitCode(), out);
        // The inner and outer pads, and the message's state over the unfinished 600 bytes.
        assertTrue(out.contains("mac alive: found=3 "), out);
        for (String look : List.of("mac collected", "mac one message", "pbkdf2", "hkdf", "x963")) {
            assertTrue(out.contains(look + ": found=0 dirtyStaging=0"), out);
        }
    }
}
