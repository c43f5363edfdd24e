package io.github.sm3ffm.internal.libcrypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.ChildJvm;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * No native context keeps a key's HMAC pads, an unfinished keyed message, a finished HMAC or a KDF's output or
 * block (finished states: after a final an SM3 state still holds its digest) once its user is done with it or
 * collected, on both backends: the provider's SM3 functions (where this machine's OpenSSL
 * allows them) and EVP. The probe reads each context's states through the library's own handles; while the
 * {@code Mac} is alive it must find them there, which shows the reading can see what it looks for. Each
 * backend runs in a child JVM of its own, where nothing else uses the pools.
 */
class ReleasedContextsTest {
    @ParameterizedTest
    @ValueSource(strings = {"direct", "evp", "dupctx"})
    void releasedContextsHoldNoSecret(String backend) throws Exception {
        boolean direct = !backend.equals("evp");
        // dupctx: the provider's functions, with copies through EVP_MD_CTX_dup instead of the state copy.
        ChildJvm.Result r = ChildJvm.run(Map.of(), List.of("-D" + DirectSm3.PROPERTY + "=" + direct,
                "-D" + DirectSm3.STATE_COPY_PROPERTY + "=" + !backend.equals("dupctx")), ReleasedContextsProbe.class);
        String out = r.output();
        assertEquals(0, r.exitCode(), out);
        // With the state copy off, copies go through dupctx, or copyctx where the provider has it (OpenSSL 3.5+).
        if (backend.equals("dupctx") && out.contains("direct=true")) {
            assertTrue(out.contains("backend=Dupctx") || out.contains("backend=Copyctx"), out);
        }
        // The inner and outer pads, and the message's state over the unfinished 600 bytes; then in the copy.
        assertTrue(out.contains("mac alive: found=3 "), out);
        assertTrue(out.contains("mac copy alive: found=3 "), out);
        // A finished HMAC's inner and outer states, where the reading can see finished states (EVP from
        // OpenSSL 3.2 on refuses to finish one again, and the probe finds none there). Without keyed states the
        // inner hash runs on the same context before the outer one, so one finished state is left.
        boolean finishedReadable = !out.contains("finished control: found=0 ");
        assertTrue(finishedReadable || !direct, out);
        if (finishedReadable) {
            assertTrue(out.contains("finished control: found=1 "), out);
        }
        for (String look : List.of("finished control returned", "mac collected", "mac copy collected", "mac one message", "pbkdf2 1",
                "pbkdf2 2", "pbkdf2 1000", "hkdf", "x963")) {
            assertTrue(out.contains(look + ": found=0 dirtyStaging=0"), out);
        }
    }
}
