package io.github.sm3ffm.spark;

import java.io.Serial;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.ExpressionDescription;
import org.apache.spark.unsafe.types.UTF8String;

/** {@code sm3(expr)}: SM3 (GB/T 32905-2016) of each value. */
@ExpressionDescription(
        usage = "_FUNC_(expr) - Returns the SM3 digest (GB/T 32905-2016) of `expr`, a STRING (its UTF-8 bytes)"
                + " or BINARY, as 64 lowercase hex characters.",
        examples = "\n    Examples:\n      > SELECT _FUNC_('abc');\n"
                + "       66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0\n  ",
        group = "hash_funcs")
public final class SM3Expression extends RowHashExpression {
    @Serial
    private static final long serialVersionUID = 1L;

    /** Called by Spark's function registry with the one argument of {@code sm3(expr)}. */
    public SM3Expression(Expression expr) {
        super("sm3", "sm3", List.of(expr));
    }

    @Override
    UTF8String hash(SM3RowHasher hasher, Object[] values) {
        return values[0] instanceof byte[] binary ? hasher.sm3(binary) : hasher.sm3((UTF8String) values[0]);
    }

    @Override
    RowHashExpression withArguments(List<Expression> newArguments) {
        return new SM3Expression(newArguments.getFirst());
    }
}
