package io.github.sm3ffm;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
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
        return Stanzas.read(ChildJvm.vectors().resolve("linux_sm3_testvecs.txt")).stream()
                .filter(r -> r.containsKey("Consolidated")).map(r -> HexFormat.of().parseHex(r.get("Consolidated")))
                .findFirst().orElseThrow();
    }

    static List<Vector> read(Path file) {
        List<Vector> out = new ArrayList<>();
        int index = 0;
        for (Map<String, String> r : Stanzas.read(file)) {
            String section = r.get(Stanzas.SECTION);
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
}
