package io.github.sm3ffm.kafka;

import io.debezium.relational.Column;
import io.debezium.relational.mapping.MaskStrings;
import io.debezium.relational.mapping.MaskStrings.HashingByteArrayStrategy;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.Security;
import java.sql.Types;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What a Debezium connector does with {@code column.mask.hash.SM3.with.salt.<salt>} (V1) and
 * {@code column.mask.hash.v2.SM3.with.salt.<salt>} (V2), in a JVM whose {@code java.security} names SM3FFM:
 * prints the JVM's providers, SM3's provider, then for each value (arguments after the salt) its V1 and V2 masks
 * of a VARCHAR column without a length, and V2's of a VARCHAR(16), one tab-separated line each.
 */
public final class DebeziumMasking {
    private DebeziumMasking() {
    }

    public static void main(String[] args) throws Exception {
        byte[] salt = args[0].getBytes(StandardCharsets.UTF_8);
        System.out.println(Arrays.stream(Security.getProviders()).map(Provider::getName)
                .collect(Collectors.joining(",")));
        System.out.println(MessageDigest.getInstance("SM3").getProvider().getName());
        Column text = Column.editor().name("email").type("VARCHAR").jdbcType(Types.VARCHAR).create();
        Column short16 = Column.editor().name("code").type("VARCHAR").jdbcType(Types.VARCHAR).length(16).create();
        MaskStrings v1 = new MaskStrings(salt, "SM3", HashingByteArrayStrategy.V1);
        MaskStrings v2 = new MaskStrings(salt, "SM3", HashingByteArrayStrategy.V2);
        for (String value : Arrays.asList(args).subList(1, args.length)) {
            System.out.println(v1.create(text).convert(value) + "\t" + v2.create(text).convert(value) + "\t"
                    + v2.create(short16).convert(value));
        }
    }
}
