package io.github.sm3ffm.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class OpenSslSpeedTest {
    /** What OpenSSL 3.0.19's {@code openssl speed -elapsed -mr -seconds 1 -bytes 64 -evp sm3} prints. */
    private static final String MR_OUTPUT = """
            You have chosen to measure elapsed time instead of user CPU time.
            +DT:sm3:1:64
            +R:1528142:sm3:0.990000
            +H:64
            +F:25:sm3:98788977.78
            """;

    @Test
    void readsTheRateOfTheOneSize() {
        assertEquals(98788977.78, OpenSslSpeed.parse(MR_OUTPUT).getAsDouble(), 1e-6);
    }

    @Test
    void refusesOutputWithoutExactlyOneRate() {
        assertTrue(OpenSslSpeed.parse("speed: Unknown algorithm sm3\n").isEmpty());
        assertTrue(OpenSslSpeed.parse(MR_OUTPUT + "+F:25:sm3:1.0\n").isEmpty());
        assertTrue(OpenSslSpeed.parse("+F:25:sm3:fast\n").isEmpty());
    }

    @Test
    void commandAsksForWallClockMachineReadableSm3() {
        assertEquals("openssl speed -elapsed -mr -seconds 2 -bytes 1024 -evp sm3",
                String.join(" ", new OpenSslSpeed("openssl").command(1024, 2)));
    }
}
