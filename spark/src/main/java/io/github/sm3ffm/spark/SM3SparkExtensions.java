package io.github.sm3ffm.spark;

import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.analysis.FunctionRegistryBase;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.ExpressionInfo;
import scala.Function1;
import scala.Option;
import scala.Tuple2;
import scala.Tuple3;
import scala.collection.immutable.Seq;
import scala.reflect.ClassTag;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * Registers the SQL functions {@code sm3(expr)} and {@code hmac_sm3(expr, key)} in every session of an
 * application started with {@code spark.sql.extensions=io.github.sm3ffm.spark.SM3SparkExtensions}: SQL,
 * PySpark, and the DataFrame API through {@link SM3Functions}.
 *
 * <p>They are built the way Spark builds its own functions ({@code FunctionRegistryBase.build}), so a wrong
 * number of arguments fails at analysis with Spark's {@code WRONG_NUM_ARGS}, and {@code DESCRIBE FUNCTION}
 * shows their usage.
 */
public final class SM3SparkExtensions extends AbstractFunction1<SparkSessionExtensions, BoxedUnit> {
    /** Spark constructs the class named in {@code spark.sql.extensions} with this constructor. */
    public SM3SparkExtensions() {
    }

    @Override
    public BoxedUnit apply(SparkSessionExtensions extensions) {
        extensions.injectFunction(function("sm3", SM3Expression.class));
        extensions.injectFunction(function("hmac_sm3", HmacSM3Expression.class));
        return BoxedUnit.UNIT;
    }

    private static <T extends Expression> Tuple3<FunctionIdentifier, ExpressionInfo, Function1<Seq<Expression>, Expression>>
            function(String name, Class<T> expression) {
        Tuple2<ExpressionInfo, Function1<Seq<Expression>, T>> built =
                FunctionRegistryBase.build(name, Option.empty(), ClassTag.apply(expression));
        Function1<Seq<Expression>, T> builder = built._2();
        return new Tuple3<>(FunctionIdentifier.apply(name), built._1(), builder::apply);
    }
}
