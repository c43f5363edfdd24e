package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every failable native call of a {@link RowHasher} row failed in turn, and the rows after it checked, in a child
 * JVM ({@link RowHasherFaults}) that installs the failing backend before anything else: with the provider's own
 * functions, and through EVP.
 */
class RowHasherFailuresTest {
    @ParameterizedTest
    @ValueSource(strings = {"true", "false"})
    void aFailedRowNeverBreaksTheNext(String direct) throws Exception {
        ChildJvm.Result r = ChildJvm.run(Map.of(), List.of("-Dsm3ffm.sm3.direct=" + direct), RowHasherFaults.class);
        System.out.print(r.output());
        assertEquals(0, r.exitCode(), r.output());
        assertTrue(r.output().contains("every next row right"), r.output());
    }
}
