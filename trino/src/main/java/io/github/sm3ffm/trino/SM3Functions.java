package io.github.sm3ffm.trino;

import static io.trino.spi.StandardErrorCode.FUNCTION_IMPLEMENTATION_ERROR;
import static io.trino.spi.StandardErrorCode.INVALID_FUNCTION_ARGUMENT;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.github.sm3ffm.SM3Provider;
import io.trino.spi.TrinoException;
import io.trino.spi.function.Description;
import io.trino.spi.function.ScalarFunction;
import io.trino.spi.function.SqlType;
import io.trino.spi.type.StandardTypes;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.Provider;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.SecretKey;

/**
 * {@code sm3} and {@code hmac_sm3}, shaped like Trino's own {@code sha256} and {@code hmac_sha256}: VARBINARY
 * in and out, NULL in gives NULL out, deterministic. Computed by sm3-ffm's provider, taken as an instance (no
 * process-wide {@code Security.addProvider} inside a server). A Slice's bytes are hashed where they lie.
 *
 * <p>Each thread that evaluates the functions keeps one {@code MessageDigest} and one {@code Mac}, reused
 * row after row; the {@code Mac} is keyed again only when a row's key differs from the previous row's, so a
 * constant key is set once per thread.
 */
public final class SM3Functions {
    private static final Provider PROVIDER = new SM3Provider();
    private static final ThreadLocal<Hasher> HASHER = ThreadLocal.withInitial(Hasher::new);

    private SM3Functions() {
    }

    @Description("Computes the SM3 hash (GB/T 32905-2016) of binary")
    @ScalarFunction("sm3")
    @SqlType(StandardTypes.VARBINARY)
    public static Slice sm3(@SqlType(StandardTypes.VARBINARY) Slice slice) {
        MessageDigest md = HASHER.get().digest();
        md.update(slice.byteArray(), slice.byteArrayOffset(), slice.length());
        return Slices.wrappedBuffer(md.digest());
    }

    @Description("Computes HMAC-SM3 (GM/T 0042-2015) of binary with the given key")
    @ScalarFunction("hmac_sm3")
    @SqlType(StandardTypes.VARBINARY)
    public static Slice hmacSm3(@SqlType(StandardTypes.VARBINARY) Slice slice,
                                @SqlType(StandardTypes.VARBINARY) Slice key) {
        Mac mac = HASHER.get().mac(key);
        mac.update(slice.byteArray(), slice.byteArrayOffset(), slice.length());
        return Slices.wrappedBuffer(mac.doFinal());
    }

    /** One thread's digest and Mac, and the key the Mac holds. */
    private static final class Hasher {
        private MessageDigest digest;
        private Mac mac;
        /** The only copy of the key kept here; zeroed when another key replaces it. */
        private byte[] macKey;

        MessageDigest digest() {
            if (digest == null) {
                try {
                    digest = MessageDigest.getInstance("SM3", PROVIDER);
                } catch (GeneralSecurityException e) {
                    throw unavailable("sm3", e);
                }
            }
            return digest;
        }

        Mac mac(Slice key) {
            if (key.length() == 0) {
                throw new TrinoException(INVALID_FUNCTION_ARGUMENT, "hmac_sm3: the key is empty. RFC 2104 defines HMAC"
                        + " for an empty key, but hmac_sm3 refuses one, as hmac_sha256 does: an empty key is almost"
                        + " always a missing one");
            }
            if (mac == null) {
                try {
                    mac = Mac.getInstance("HmacSM3", PROVIDER);
                } catch (GeneralSecurityException e) {
                    throw unavailable("hmac_sm3", e);
                }
            }
            byte[] array = key.byteArray();
            int from = key.byteArrayOffset();
            if (macKey == null || !Arrays.equals(macKey, 0, macKey.length, array, from, from + key.length())) {
                byte[] copy = Arrays.copyOfRange(array, from, from + key.length());
                try {
                    mac.init(new RowKey(copy));
                } catch (GeneralSecurityException e) {
                    Arrays.fill(copy, (byte) 0);
                    throw new TrinoException(INVALID_FUNCTION_ARGUMENT, "hmac_sm3: the key was refused: "
                            + e.getMessage(), e);
                }
                if (macKey != null) {
                    Arrays.fill(macKey, (byte) 0);
                }
                macKey = copy;
            }
            return mac;
        }
    }

    /** The library's own reason (no libcrypto, no SM3 in it, no native access), where the user reads it. */
    private static TrinoException unavailable(String function, GeneralSecurityException e) {
        String reason = SM3Provider.unavailability().map(Exception::getMessage).orElse(e.getMessage());
        return new TrinoException(FUNCTION_IMPLEMENTATION_ERROR, function + ": SM3 from OpenSSL is unavailable in"
                + " this JVM (" + PROVIDER.getName() + "): " + reason, e);
    }

    /**
     * A row's key over an array the hasher owns: it hands out copies only, and the provider's {@code Mac} zeroes
     * the copy it takes once it has the key's pads.
     */
    private static final class RowKey implements SecretKey {
        private static final long serialVersionUID = 1L;
        private final transient byte[] bytes;

        RowKey(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public String getAlgorithm() {
            return "HmacSM3";
        }

        @Override
        public String getFormat() {
            return "RAW";
        }

        @Override
        public byte[] getEncoded() {
            return bytes.clone();
        }
    }
}
