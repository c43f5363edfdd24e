package io.github.sm3ffm.trino;

import io.trino.spi.Plugin;
import java.util.Set;

/** The Trino plugin that adds {@code sm3(varbinary)} and {@code hmac_sm3(varbinary, varbinary)}. */
public final class SM3TrinoPlugin implements Plugin {
    @Override
    public Set<Class<?>> getFunctions() {
        return Set.of(SM3Functions.class);
    }
}
