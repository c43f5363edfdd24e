package io.github.sm3ffm.trino;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.trino.spi.Plugin;
import io.trino.spi.function.Description;
import io.trino.spi.function.ScalarFunction;
import io.trino.spi.function.SqlType;
import io.trino.spi.type.StandardTypes;
import java.util.Set;
import org.bouncycastle.crypto.digests.SM3Digest;

/**
 * What cluster/speed compares {@code sm3} with: {@code bc_sm3(varbinary)}, the function users write over
 * BouncyCastle today, of the same shape as the plugin's (a Slice's bytes hashed where they lie, one digest per
 * thread reused row after row). Installed only by cluster/speed, never by the plugin's ZIP.
 */
public final class BouncyCastleSM3Plugin implements Plugin {
    private static final ThreadLocal<SM3Digest> DIGEST = ThreadLocal.withInitial(SM3Digest::new);

    @Override
    public Set<Class<?>> getFunctions() {
        return Set.of(BouncyCastleSM3Plugin.class);
    }

    @Description("SM3 by BouncyCastle, for speed comparisons")
    @ScalarFunction("bc_sm3")
    @SqlType(StandardTypes.VARBINARY)
    public static Slice bcSm3(@SqlType(StandardTypes.VARBINARY) Slice slice) {
        SM3Digest d = DIGEST.get();
        d.update(slice.byteArray(), slice.byteArrayOffset(), slice.length());
        byte[] out = new byte[32];
        d.doFinal(out, 0);
        return Slices.wrappedBuffer(out);
    }
}
