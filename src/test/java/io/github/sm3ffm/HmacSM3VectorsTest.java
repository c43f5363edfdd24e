package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.security.Provider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import org.junit.jupiter.api.Test;

/** Every published HMAC-SM3 vector in src/test/resources/vectors, through every way of feeding a Mac. */
class HmacSM3VectorsTest {
    private static final Provider PROVIDER = new SM3Provider();
    private static final HexFormat HEX = HexFormat.of();

    private record Vector(String name, byte[] key, byte[] message, byte[] tag, boolean valid) {
    }

    @Test
    void wycheproof() throws Exception {
        JsonObject file = JsonParser.parseString(
                Files.readString(ChildJvm.vectors().resolve("wycheproof_hmac_sm3_test.json"))).getAsJsonObject();
        assertEquals("HMACSM3", file.get("algorithm").getAsString());
        List<Vector> vectors = new ArrayList<>();
        for (JsonElement g : file.getAsJsonArray("testGroups")) {
            JsonObject group = g.getAsJsonObject();
            int tagBytes = group.get("tagSize").getAsInt() / 8;
            for (JsonElement t : group.getAsJsonArray("tests")) {
                JsonObject test = t.getAsJsonObject();
                byte[] tag = hex(test, "tag");
                String id = "tcId " + test.get("tcId").getAsInt();
                assertEquals(tagBytes, tag.length, id);
                vectors.add(new Vector(id + " (" + test.get("comment").getAsString() + ")", hex(test, "key"),
                        hex(test, "msg"), tag, "valid".equals(test.get("result").getAsString())));
            }
        }
        assertEquals(file.get("numberOfTests").getAsInt(), vectors.size());
        assertEquals(174, vectors.size());
        assertEquals(66, vectors.stream().filter(Vector::valid).count());
        checkAll(vectors);
    }

    @Test
    void openSslEvpMac() throws Exception {
        List<Vector> vectors = new ArrayList<>();
        for (Map<String, String> s : Stanzas.read(ChildJvm.vectors().resolve("openssl_evpmac_sm3.txt"))) {
            if ("HMAC".equals(s.get("MAC")) && "SM3".equals(s.get("Algorithm"))) {
                vectors.add(new Vector("evpmac " + (vectors.size() + 1), bytes(s.get("Key")), bytes(s.get("Input")),
                        bytes(s.get("Output")), true));
            }
        }
        assertEquals(4, vectors.size());
        checkAll(vectors);
    }

    @Test
    void kona() throws Exception {
        List<Vector> vectors = new ArrayList<>();
        for (Map<String, String> s : Stanzas.read(ChildJvm.vectors().resolve("kona_sm3_vectors.txt"))) {
            if ("[HMAC-SM3]".equals(s.get(Stanzas.SECTION)) && s.containsKey("Mac")) {
                vectors.add(new Vector("kona " + (vectors.size() + 1), bytes(s.get("Key")), bytes(s.get("Msg")),
                        bytes(s.get("Mac")), true));
            }
        }
        assertEquals(1, vectors.size());
        checkAll(vectors);
    }

    @Test
    void everyNameAndAliasGivesTheSameMac() throws Exception {
        byte[] key = HEX.parseHex("0123456789abcdef0123456789abcdef");
        byte[] expected = HEX.parseHex("4d2e8eefcfaa97b2bea04cda000823a4f2e6e264cf7a819d67117ad12cc9a8af");
        for (String name : List.of("HmacSM3", "HMACSM3", "hmacsm3", "HMAC-SM3", "HMAC/SM3", "SM3HMac",
                "1.2.156.10197.1.401.2", "OID.1.2.156.10197.1.401.2")) {
            Mac mac = Mac.getInstance(name, PROVIDER);
            assertEquals(SM3Provider.NAME, mac.getProvider().getName());
            mac.init(new RawKey(key));
            assertArrayEquals(expected, mac.doFinal("abc".getBytes(StandardCharsets.US_ASCII)), name);
        }
    }

    private static void checkAll(List<Vector> vectors) throws Exception {
        Mac mac = Mac.getInstance("HmacSM3", PROVIDER);
        for (Vector v : vectors) {
            mac.init(new RawKey(v.key()));
            for (InputPath feed : InputPath.values()) {
                byte[] full = feed.mac(mac, v.message());
                assertEquals(32, full.length);
                // Truncated tags are the leading bytes of the full MAC.
                boolean matches = MessageDigest.isEqual(Arrays.copyOf(full, v.tag().length), v.tag());
                assertEquals(v.valid(), matches, v.name() + " via " + feed + ": MAC " + HEX.formatHex(full)
                        + ", tag " + HEX.formatHex(v.tag()));
            }
        }
    }

    /** A quoted value is ASCII text, anything else hex. */
    static byte[] bytes(String value) {
        if (value.startsWith("\"") && value.endsWith("\"")) {
            return value.substring(1, value.length() - 1).getBytes(StandardCharsets.US_ASCII);
        }
        return HEX.parseHex(value);
    }

    private static byte[] hex(JsonObject test, String member) {
        return HEX.parseHex(test.get(member).getAsString());
    }
}
