package io.github.sm3ffm.spark;

import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.analysis.TypeCheckResult;
import org.apache.spark.sql.catalyst.expressions.ExpectsInputTypes$;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.ImplicitCastInputTypes;
import org.apache.spark.sql.catalyst.expressions.codegen.Block;
import org.apache.spark.sql.catalyst.expressions.codegen.CodegenContext;
import org.apache.spark.sql.catalyst.expressions.codegen.ExprCode;
import org.apache.spark.sql.types.AbstractDataType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.TypeCollection;
import org.apache.spark.unsafe.types.UTF8String;
import scala.StringContext;
import scala.collection.immutable.IndexedSeq;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A function of STRING or BINARY arguments that gives 64 hex characters from the task's
 * {@link SM3RowHasher}: an expression of Spark's own kind, shaped like its {@code sha1} and {@code sha2}
 * (null-intolerant, argument types checked and cast by the analyzer, Java code generated for whole-stage
 * code generation).
 *
 * <p>Written against {@code Expression} itself: Java cannot extend {@code UnaryExpression} or
 * {@code BinaryExpression}, whose final {@code withNewChildrenInternal} javac does not see as implementing
 * {@code TreeNode}'s, so the null-safe code those classes generate is written out here.
 */
abstract sealed class RowHashExpression extends Expression implements ImplicitCastInputTypes, Serializable
        permits SM3Expression, HmacSM3Expression {
    @Serial
    private static final long serialVersionUID = 1L;
    /** STRING (hashed as its UTF-8 bytes) or BINARY; others are cast to STRING where Spark may cast them. */
    private static final AbstractDataType STRING_OR_BINARY =
            TypeCollection.apply(seq(List.of(DataTypes.StringType, DataTypes.BinaryType)));

    /** The SQL function's name. */
    private final String name;
    /** The {@link SM3RowHasher} method that generated code calls with the arguments' values. */
    private final String hasherMethod;
    private final List<Expression> arguments;
    private final Seq<Expression> children;

    RowHashExpression(String name, String hasherMethod, List<Expression> arguments) {
        this.name = name;
        this.hasherMethod = hasherMethod;
        this.arguments = List.copyOf(arguments);
        this.children = seq(this.arguments);
    }

    /** The same call, interpreted: each value a {@link UTF8String} or a {@code byte[]}, none null. */
    abstract UTF8String hash(SM3RowHasher hasher, Object[] values);

    abstract RowHashExpression withArguments(List<Expression> newArguments);

    @Override
    public final String prettyName() {
        return name;
    }

    @Override
    public final Seq<Expression> children() {
        return children;
    }

    @Override
    public final DataType dataType() {
        return DataTypes.StringType;
    }

    @Override
    public final boolean nullable() {
        return arguments.stream().anyMatch(Expression::nullable);
    }

    @Override
    public final boolean nullIntolerant() {
        return true;
    }

    @Override
    public final boolean foldable() {
        return arguments.stream().allMatch(Expression::foldable);
    }

    @Override
    public final boolean contextIndependentFoldable() {
        return arguments.stream().allMatch(Expression::contextIndependentFoldable);
    }

    @Override
    public final Seq<AbstractDataType> inputTypes() {
        // Made when asked (while analysing), as Spark's type classes do not serialise.
        return seq(Collections.nCopies(arguments.size(), STRING_OR_BINARY));
    }

    /** The mixin's check, which Java does not inherit over {@code Expression}'s. */
    @Override
    public final TypeCheckResult checkInputDataTypes() {
        return ExpectsInputTypes$.MODULE$.checkInputDataTypes(children, inputTypes());
    }

    @Override
    public final Object eval(InternalRow row) {
        Object[] values = new Object[arguments.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = arguments.get(i).eval(row);
            if (values[i] == null) {
                return null;
            }
        }
        return hash(SM3RowHasher.shared(), values);
    }

    /**
     * Each argument's code runs only when the ones before it were not NULL, as in the null-safe code of
     * {@code BinaryExpression}; the generated class makes its own hasher, which holds nothing.
     */
    @Override
    public final ExprCode doGenCode(CodegenContext ctx, ExprCode ev) {
        String hasherType = SM3RowHasher.class.getName();
        String hasher = "sm3RowHasher";
        ctx.addImmutableStateIfNotExists(hasherType, hasher, v -> v + " = new " + hasherType + "();");

        List<ExprCode> args = arguments.stream().map(a -> a.genCode(ctx)).toList();
        List<String> parts = new ArrayList<>();
        List<Object> inputs = new ArrayList<>();
        StringBuilder part = new StringBuilder("\n");
        StringBuilder call = new StringBuilder(hasher + "." + hasherMethod + "(");
        for (int i = 0; i < args.size(); i++) {
            ExprCode arg = args.get(i);
            appendInput(parts, inputs, part, arg.code());
            if (i == 0) {
                part.append("\nboolean ");
                appendInput(parts, inputs, part, ev.isNull());
                part.append(" = ");
                appendInput(parts, inputs, part, arg.isNull());
                part.append(";\nUTF8String ");
                appendInput(parts, inputs, part, ev.value());
                part.append(" = null;\n");
            } else {
                appendInput(parts, inputs, part, ev.isNull());
                part.append(" = ");
                appendInput(parts, inputs, part, arg.isNull());
                part.append(";\n");
            }
            part.append("if (!");
            appendInput(parts, inputs, part, ev.isNull());
            part.append(") {\n");
            call.append(i == 0 ? "" : ", ").append(arg.value());
        }
        appendInput(parts, inputs, part, ev.value());
        part.append(" = ").append(call).append(");\n").append("}\n".repeat(args.size()));
        parts.add(part.toString());
        Block code = new Block.BlockHelper(new StringContext(seq(parts))).code(seq(inputs));
        return ev.copy(code, ev.isNull(), ev.value());
    }

    /** Ends the literal text so far and adds a code input, as Spark's {@code code"..."} interpolation does. */
    private static void appendInput(List<String> parts, List<Object> inputs, StringBuilder part, Object input) {
        parts.add(part.toString());
        part.setLength(0);
        inputs.add(input);
    }

    @Override
    public final Expression withNewChildrenInternal(IndexedSeq<Expression> newChildren) {
        return withArguments(CollectionConverters.asJava(newChildren));
    }

    @Override
    public final int productArity() {
        return arguments.size();
    }

    @Override
    public final Object productElement(int n) {
        return arguments.get(n);
    }

    @Override
    public final boolean canEqual(Object that) {
        return that != null && that.getClass() == getClass();
    }

    @Override
    public final boolean equals(Object o) {
        return canEqual(o) && arguments.equals(((RowHashExpression) o).arguments);
    }

    @Override
    public final int hashCode() {
        return 31 * getClass().hashCode() + arguments.hashCode();
    }

    static <T> Seq<T> seq(List<T> list) {
        return CollectionConverters.asScala(list).toSeq();
    }
}
