package io.github.sm3ffm.spark;

import java.io.Serial;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.ExpressionDescription;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * {@code hmac_sm3(expr, key)}: HMAC-SM3 (GM/T 0042-2015) of each value, the data first and the key second as in
 * Trino's {@code hmac_sha256(data, key)} and PostgreSQL's {@code hmac(data, key, type)}. The library's
 * {@code RowHasher} keeps the HMAC states of the keys it meets, so a constant key is set up once.
 */
@ExpressionDescription(
        usage = "_FUNC_(expr, key) - Returns the HMAC-SM3 (GM/T 0042-2015) of `expr` under `key`, each a STRING"
                + " (its UTF-8 bytes) or BINARY, as 64 lowercase hex characters. An empty key is an error.",
        examples = "\n    Examples:\n      > SELECT _FUNC_('abc', 'key');\n"
                + "       28e63256e7c5a087b1f073265dc53092163f7b82729735d06f28f10af9d52393\n  ",
        group = "hash_funcs")
public final class HmacSM3Expression extends RowHashExpression {
    @Serial
    private static final long serialVersionUID = 1L;

    /** Called by Spark's function registry with the two arguments of {@code hmac_sm3(expr, key)}. */
    public HmacSM3Expression(Expression expr, Expression key) {
        super("hmac_sm3", "hmacSm3", List.of(expr, key));
    }

    @Override
    UTF8String hash(SM3RowHasher hasher, Object[] values) {
        return hasher.hmacSm3(utf8(values[0]), utf8(values[1]));
    }

    /** A BINARY as a string over the same array (no copy): the hasher reads bytes either way. */
    private static UTF8String utf8(Object value) {
        return value instanceof byte[] binary ? UTF8String.fromBytes(binary) : (UTF8String) value;
    }

    @Override
    RowHashExpression withArguments(List<Expression> newArguments) {
        return new HmacSM3Expression(newArguments.get(0), newArguments.get(1));
    }
}
