package io.github.sm3ffm.trino;

import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;

/**
 * cluster/run's check: reads the rows the cluster returned (TSV: order key, comment, hex SM3 of the comment's
 * UTF-8, hex HMAC-SM3 of it keyed with the order key's decimal text, as the query computes them) and checks
 * every one against BouncyCastle. Exits 1 at the first row that differs, or when there are none.
 */
public final class ClusterCheck {
    private ClusterCheck() {
    }

    public static void main(String[] args) throws Exception {
        // The CLI writes TSV with tabs, newlines and backslashes in a value escaped; comments have none.
        long rows = 0;
        try (BufferedReader in = Files.newBufferedReader(Path.of(args[0]), StandardCharsets.UTF_8)) {
            for (String line; (line = in.readLine()) != null; rows++) {
                String[] f = line.split("\t", -1);
                if (f.length != 4) {
                    fail("row " + (rows + 1) + " has " + f.length + " fields: " + line);
                }
                byte[] key = f[0].getBytes(StandardCharsets.UTF_8);
                byte[] comment = f[1].getBytes(StandardCharsets.UTF_8);
                String sm3 = hex(BouncyCastleSM3.sm3(comment));
                if (!sm3.equalsIgnoreCase(f[2])) {
                    fail("row " + (rows + 1) + ": sm3 gave " + f[2] + ", BouncyCastle " + sm3);
                }
                String mac = hex(BouncyCastleSM3.hmac(key, comment));
                if (!mac.equalsIgnoreCase(f[3])) {
                    fail("row " + (rows + 1) + ": hmac_sm3 gave " + f[3] + ", BouncyCastle " + mac);
                }
            }
        }
        if (rows == 0) {
            fail("no rows");
        }
        System.out.println("ClusterCheck: " + rows + " rows, sm3 and hmac_sm3 equal to BouncyCastle's");
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    private static void fail(String message) {
        System.err.println("ClusterCheck: " + message);
        System.exit(1);
    }
}
