package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MAC_final;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MAC_init;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.HexFormat;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.KeyParameter;

/**
 * Child-JVM entry point: one derivation ("hkdf" or "x963"), then a look at the context it gave back to the
 * pool, which is the one this thread borrows next when nothing else runs: its staging bytes, and what its
 * states still hold.
 */
public final class DerivationScrubProbe {
    private static final HexFormat HEX = HexFormat.of();

    private DerivationScrubProbe() {
    }

    public static void main(String[] args) throws Exception {
        boolean hkdf = args[0].equals("hkdf");
        // As the provider does before it hands out an engine: loads libcrypto and runs the self-tests.
        (hkdf ? Algorithm.HKDF_SM3 : Algorithm.X963KDF_SM3).check();
        byte[] secret = new byte[64];
        Arrays.fill(secret, (byte) 0x0b);
        PooledContext c;
        long live;
        if (hkdf) {
            NativeHkdf.create().derive(NativeHkdf.Mode.EXTRACT_THEN_EXPAND, secret, new byte[13], new byte[10], 64);
            live = PooledContext.live();
            c = NativeHmac.create().pool().acquire();
        } else {
            NativeX963Kdf.create().derive(secret, new byte[10], 64);
            live = PooledContext.live();
            c = NativeSm3.create().pool().acquire();
        }
        System.out.println("direct=" + DirectSm3.ENABLED + " reused=" + (PooledContext.live() == live));
        boolean zero = true;
        for (long i = 0; i < c.staging.byteSize(); i++) {
            zero &= c.staging.get(JAVA_BYTE, i) == 0;
        }
        System.out.println("staging=" + (zero ? "zero" : "dirty"));
        if (!hkdf) {
            // Finished as it is, the state hashes nothing: no message is left in it.
            byte[] out = new byte[Sm3Sizes.DIGEST_LENGTH];
            NativeSm3.create().finalInto((NativeSm3.Context) c, out, 0);
            System.out.println("state=" + HEX.formatHex(out));
            return;
        }
        NativeHmac.Context mac = (NativeHmac.Context) c;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(Sm3Sizes.DIGEST_LENGTH + JAVA_LONG.byteSize());
            MemorySegment written = out.asSlice(Sm3Sizes.DIGEST_LENGTH);
            if (DirectSm3.ENABLED) {
                // Each state, finished as it is, hashes nothing: no pad and no message is left in it.
                for (MemorySegment state : new MemorySegment[] {mac.ctx, mac.inner, mac.outer}) {
                    MemorySegment copy = DirectSm3.dup(state);
                    DirectSm3.finalInto(copy, out, written);
                    DirectSm3.free(copy);
                    System.out.println("state=" + HEX.formatHex(out.asSlice(0, Sm3Sizes.DIGEST_LENGTH).toArray(JAVA_BYTE)));
                }
                return;
            }
            // Restarted with the key it holds, the context gives the MAC of the empty message under that key.
            OpenSSLErrors.check(EVP_MAC_init(mac.ctx, MemorySegment.NULL, 0, MemorySegment.NULL), "EVP_MAC_init");
            OpenSSLErrors.check(EVP_MAC_final(mac.ctx, out, written, Sm3Sizes.DIGEST_LENGTH), "EVP_MAC_final");
            byte[] got = out.asSlice(0, Sm3Sizes.DIGEST_LENGTH).toArray(JAVA_BYTE);
            HMac empty = new HMac(new SM3Digest());
            empty.init(new KeyParameter(new byte[0]));
            byte[] expected = new byte[Sm3Sizes.DIGEST_LENGTH];
            empty.doFinal(expected, 0);
            System.out.println("key=" + (Arrays.equals(got, expected) ? "empty" : HEX.formatHex(got)));
        }
    }
}
