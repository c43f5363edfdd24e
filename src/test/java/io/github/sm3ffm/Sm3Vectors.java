package io.github.sm3ffm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every SM3 known answer in src/test/resources/vectors (provenance in SOURCES there), as message and digest. */
public final class Sm3Vectors {
    /** One known answer; {@code name} says where it comes from. */
    public record Vector(String name, byte[] message, byte[] digest) {
        @Override
        public String toString() {
            return name + " (" + message.length + " B)";
        }
    }

    private static final List<String> FILES = List.of("openssl_evpmd_sm3.txt", "gmssl_sm3test_vectors.txt",
            "bc_sm3_vectors.txt", "rustcrypto_sm3_kat.txt", "kona_sm3_vectors.txt", "linux_sm3_testvecs.txt");

    private Sm3Vectors() {
    }

    public static List<Vector> all() {
        List<Vector> out = new ArrayList<>();
        for (String file : FILES) {
            out.addAll(read(ChildJvm.vectors().resolve(file)));
        }
        return out;
    }

    /** The 4096 pseudo-random bytes behind the Linux "Consolidated" vector, and its expected digest. */
    public static byte[] linuxRandBytes(int len) {
        byte[] b = new byte[len];
        long seed = len;
        for (int i = 0; i < len; i++) {
            seed = (seed * 25214903917L + 11) & ((1L << 48) - 1);
            b[i] = (byte) (seed >>> 16);
        }
        return b;
    }

    public static byte[] linuxConsolidatedDigest() {
        return records(ChildJvm.vectors().resolve("linux_sm3_testvecs.txt")).stream()
                .filter(r -> r.containsKey("Consolidated")).map(r -> HexFormat.of().parseHex(r.get("Consolidated")))
                .findFirst().orElseThrow();
    }

    static List<Vector> read(Path file) {
        List<Vector> out = new ArrayList<>();
        String section = "";
        int index = 0;
        for (Map<String, String> r : records(file)) {
            section = r.getOrDefault("[section]", section);
            String name = file.getFileName() + "#" + index++;
            if (r.containsKey("Digest") && !r.get("Digest").equals("SM3")) {
                continue; // the OpenSSL file ends with tests of other algorithms
            }
            if (r.containsKey("Key") || section.startsWith("[HMAC")) {
                continue; // HMAC vectors live beside the digest ones
            }
            String md = r.containsKey("MD") ? r.get("MD") : r.get("Output");
            if (md == null) {
                continue;
            }
            out.add(new Vector(name, message(r), HexFormat.of().parseHex(md.toLowerCase())));
        }
        return out;
    }

    private static byte[] message(Map<String, String> r) {
        if (r.containsKey("MsgPattern")) { // "i & 0xff"
            byte[] b = new byte[Integer.parseInt(r.get("Len"))];
            for (int i = 0; i < b.length; i++) {
                b[i] = (byte) i;
            }
            return b;
        }
        if (r.containsKey("MsgRepeat")) { // "61 x 1000000"
            String[] parts = r.get("MsgRepeat").split(" x ");
            byte[] b = new byte[Integer.parseInt(parts[1].trim())];
            java.util.Arrays.fill(b, (byte) Integer.parseInt(parts[0].trim(), 16));
            return b;
        }
        if (r.containsKey("FeedRand16MiB")) {
            return feedRand16MiB();
        }
        String hex = r.containsKey("Msg") ? r.get("Msg") : r.get("Input");
        byte[] b = HexFormat.of().parseHex(hex);
        if (r.containsKey("Len") && Integer.parseInt(r.get("Len")) != b.length) {
            throw new IllegalStateException("Len disagrees with Msg in " + r);
        }
        return b;
    }

    /** RustCrypto's digest::dev::feed_rand_16mib input: xorshift128 blocks of 1024 bytes, each followed by 0x2a. */
    private static byte[] feedRand16MiB() {
        int x = 0x07873B4A;
        int y = 0xFAAB8FFE;
        int z = 0x1745980F;
        int w = 0xB0ADB4F3;
        byte[] out = new byte[16384 * 1025];
        int p = 0;
        for (int block = 0; block < 16384; block++) {
            for (int i = 0; i < 256; i++) {
                int t = x ^ (x << 11);
                x = y;
                y = z;
                z = w;
                w = w ^ (w >>> 19) ^ (t ^ (t >>> 8));
                out[p++] = (byte) w;
                out[p++] = (byte) (w >>> 8);
                out[p++] = (byte) (w >>> 16);
                out[p++] = (byte) (w >>> 24);
            }
            out[p++] = 0x2a;
        }
        return out;
    }

    /** Blank-line separated records of "Key = value" lines; '#' comments; "[name]" opens a section. */
    private static List<Map<String, String>> records(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Map<String, String>> out = new ArrayList<>();
        Map<String, String> current = new LinkedHashMap<>();
        for (String raw : lines) {
            String line = raw.strip();
            if (line.startsWith("#")) {
                continue;
            }
            if (line.isEmpty()) {
                if (!current.isEmpty()) {
                    out.add(current);
                    current = new LinkedHashMap<>();
                }
                continue;
            }
            if (line.startsWith("[")) {
                current.put("[section]", line);
                continue;
            }
            int eq = line.indexOf('=');
            if (eq < 0) {
                current.put(line, "");
            } else {
                current.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
            }
        }
        if (!current.isEmpty()) {
            out.add(current);
        }
        return out;
    }
}
