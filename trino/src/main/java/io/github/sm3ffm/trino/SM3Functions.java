package io.github.sm3ffm.trino;

import static io.trino.spi.StandardErrorCode.FUNCTION_IMPLEMENTATION_ERROR;
import static io.trino.spi.StandardErrorCode.INVALID_FUNCTION_ARGUMENT;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.github.sm3ffm.RowHasher;
import io.trino.spi.TrinoException;
import io.trino.spi.function.Description;
import io.trino.spi.function.ScalarFunction;
import io.trino.spi.function.SqlType;
import io.trino.spi.type.StandardTypes;

/**
 * {@code sm3} and {@code hmac_sm3}, shaped like Trino's own {@code sha256} and {@code hmac_sha256}: VARBINARY
 * in and out, NULL in gives NULL out, deterministic. Trino's glue over the library's {@link RowHasher}, which
 * keeps nothing per thread and caches keys' HMAC states across rows (its Javadoc says how, and for how long).
 * A Slice's bytes are hashed where they lie.
 *
 * <p>Every failure becomes a {@link TrinoException} that fails the query, and leaves nothing behind: the next row
 * on the same thread, of this query or another, computes correctly.
 */
public final class SM3Functions {
    private static final RowHasher ROWS = RowHasher.of();

    private SM3Functions() {
    }

    @Description("Computes the SM3 hash (GB/T 32905-2016) of binary")
    @ScalarFunction("sm3")
    @SqlType(StandardTypes.VARBINARY)
    public static Slice sm3(@SqlType(StandardTypes.VARBINARY) Slice slice) {
        try {
            return Slices.wrappedBuffer(ROWS.sm3(slice.byteArray(), slice.byteArrayOffset(), slice.length()));
        } catch (RuntimeException e) {
            throw failed("sm3", e);
        }
    }

    @Description("Computes HMAC-SM3 (GM/T 0042-2015) of binary with the given key")
    @ScalarFunction("hmac_sm3")
    @SqlType(StandardTypes.VARBINARY)
    public static Slice hmacSm3(@SqlType(StandardTypes.VARBINARY) Slice slice,
                                @SqlType(StandardTypes.VARBINARY) Slice key) {
        try {
            RowHasher.checkKeyLength(key.length());
            return Slices.wrappedBuffer(ROWS.hmacSm3(key.byteArray(), key.byteArrayOffset(), key.length(),
                    slice.byteArray(), slice.byteArrayOffset(), slice.length()));
        } catch (RuntimeException e) {
            throw failed("hmac_sm3", e);
        }
    }

    /**
     * The library's reason where the user reads it: OpenSSL unavailable (no libcrypto, no SM3 in it, no native
     * access) or failing, or a key refused.
     */
    private static TrinoException failed(String function, RuntimeException e) {
        return new TrinoException(e instanceof IllegalArgumentException ? INVALID_FUNCTION_ARGUMENT
                : FUNCTION_IMPLEMENTATION_ERROR, function + ": " + e.getMessage(), e);
    }
}
