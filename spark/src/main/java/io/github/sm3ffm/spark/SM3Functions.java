package io.github.sm3ffm.spark;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.functions;

/**
 * The SQL functions {@code sm3} and {@code hmac_sm3} for the DataFrame API. They call the functions that
 * {@link SM3SparkExtensions} registers, so the session must have been started with
 * {@code spark.sql.extensions=io.github.sm3ffm.spark.SM3SparkExtensions}; a column built here is the same
 * expression as the SQL call.
 */
public final class SM3Functions {
    private SM3Functions() {
    }

    /**
     * SM3 (GB/T 32905-2016) of each value.
     *
     * @param expr a STRING column (hashed as its UTF-8 bytes) or a BINARY column
     * @return the digest as 64 lowercase hex characters; NULL where {@code expr} is NULL
     */
    public static Column sm3(Column expr) {
        return functions.call_function("sm3", expr);
    }

    /**
     * HMAC-SM3 (GM/T 0042-2015) of each value: the data first, the key second, as in SQL.
     *
     * @param expr the message, STRING (its UTF-8 bytes) or BINARY
     * @param key  the key, STRING (its UTF-8 bytes) or BINARY; an empty key fails the query
     * @return the MAC as 64 lowercase hex characters; NULL where the message or the key is NULL
     */
    public static Column hmac_sm3(Column expr, Column key) {
        return functions.call_function("hmac_sm3", expr, key);
    }
}
