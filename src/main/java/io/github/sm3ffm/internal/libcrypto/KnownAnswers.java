package io.github.sm3ffm.internal.libcrypto;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * Known answers that more than one check compares with: the self-tests of {@link Algorithm} and the checks of the
 * provider's own functions ({@link DirectSm3}) read them here, so that neither has to know the other.
 */
final class KnownAnswers {
    /** SM3("abc"), GB/T 32905-2016 Appendix A example 1: also what the provider's own functions must give. */
    static final String SM3_ABC = "66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0";

    private static final HexFormat HEX = HexFormat.of();

    private KnownAnswers() {
    }

    /** The first of (what, got, expected hex) triples whose bytes differ, as "what gave ..."; else null. */
    static String differs(Object... whatGotExpected) {
        for (int i = 0; i < whatGotExpected.length; i += 3) {
            byte[] got = (byte[]) whatGotExpected[i + 1];
            if (!Arrays.equals(got, HEX.parseHex((String) whatGotExpected[i + 2]))) {
                return whatGotExpected[i] + " gave " + HEX.formatHex(got);
            }
        }
        return null;
    }
}
