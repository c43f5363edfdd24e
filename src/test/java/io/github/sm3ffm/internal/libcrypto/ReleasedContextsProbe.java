package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.BLOCK_SIZE;
import static io.github.sm3ffm.internal.libcrypto.Sm3Sizes.DIGEST_LENGTH;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.github.sm3ffm.SM3Provider;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.ProviderException;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.KeyParameter;

/**
 * Child-JVM entry point: reads what every native context of this JVM holds, through the library's own handles
 * (each SM3 state of each context is copied and finished as it is), while a {@code Mac} with a known key is
 * alive and after it is collected, and after a one-message {@code Mac}, PBKDF2s, an HKDF and an X9.63
 * derivation with known secrets. A state that holds a key's inner pad, finished, gives SM3(K0 XOR ipad); one that
 * holds an unfinished message after it gives SM3(K0 XOR ipad || message); BouncyCastle computes what to look for.
 * A state already finished (a PRK, a block T(i), a U of PBKDF2, an X9.63 block) is read the same way, and gives
 * what a context holding that message finished gives ({@link #finishedOf}). Prints one line per look:
 * {@code NAME: found=N dirtyStaging=M}.
 */
public final class ReleasedContextsProbe {
    private static final SM3Provider PROVIDER = new SM3Provider();

    private ReleasedContextsProbe() {
    }

    public static void main(String[] args) throws Exception {
        for (Algorithm a : List.of(Algorithm.HMAC_SM3, Algorithm.HKDF_SM3, Algorithm.X963KDF_SM3)) {
            a.check();
        }
        System.out.println("direct=" + BackendChoice.offer().direct()
                + " backend=" + Faults.chosen().getClass().getSimpleName());
        byte[] key = bytes(37, 0x11);
        byte[] unfinished = bytes(600, 0x22);
        List<byte[]> macSecrets = keyedSecrets(key, unfinished);
        Mac mac = reusedMac(key, unfinished);
        look("mac alive", macSecrets, List.of());
        mac = null;
        collect(macSecrets, 200);
        look("mac collected", macSecrets, List.of());

        // A copy of a reused keyed Mac holds copies of the key's states and of the message's: the copy keeps them
        // after its source is collected, until it is collected too.
        byte[] key3 = bytes(40, 0x44);
        byte[] unfinished3 = bytes(600, 0x55);
        List<byte[]> copySecrets = keyedSecrets(key3, unfinished3);
        Mac copy = (Mac) reusedMac(key3, unfinished3).clone();
        collect(copySecrets, 5);
        look("mac copy alive", copySecrets, List.of());
        Reference.reachabilityFence(copy);
        copy = null;
        collect(copySecrets, 200);
        look("mac copy collected", copySecrets, List.of());

        // A new Mac per message: the context serves one message and goes back at once, its MAC finished in it.
        byte[] key2 = bytes(64, 0x33);
        byte[] message2 = bytes(700, 3);
        Mac once = Mac.getInstance("HmacSM3", PROVIDER);
        once.init(new SecretKeySpec(key2, "HmacSM3"));
        once.doFinal(message2);
        look("mac one message", concat(List.of(sm3(pad(key2, 0x36)), sm3(pad(key2, 0x5c))), macFinished(key2, message2)),
                List.of(pad(key2, 0x36), pad(key2, 0x5c)));

        // The reading sees finished states: an HMAC finished on a borrowed context is found until it goes back.
        byte[] controlKey = bytes(20, 0x3c);
        byte[] controlMessage = bytes(40, 0x3d);
        HmacContext control = HmacContext.POOL.borrow();
        byte[] controlPads = control.padsOf(controlKey);
        control.start(controlPads, controlMessage, 0, controlMessage.length);
        control.finish(controlPads, null, 0);
        List<byte[]> controlStates = macFinished(controlKey, controlMessage);
        look("finished control", controlStates, List.of());
        HmacContext.POOL.giveBack(control, true);
        look("finished control returned", controlStates, List.of());

        // PBKDF2 keys a context with the password's pads for its whole loop; its last U is finished in it, and at
        // one iteration that U is the derived key.
        String password = "pbkdf2 password 0123456789";
        byte[] p = password.getBytes(StandardCharsets.UTF_8);
        byte[] pbkdf2Salt = bytes(16, 0x66);
        for (int iterations : new int[] {1, 2, 1_000}) {
            SecretKeyFactory.getInstance("PBKDF2WithHmacSM3", PROVIDER)
                    .generateSecret(new PBEKeySpec(password.toCharArray(), pbkdf2Salt, iterations, 256));
            byte[] u = concat(pbkdf2Salt, new byte[] {0, 0, 0, 1});
            byte[] previous = u;
            for (int j = 1; j <= iterations; j++) {
                previous = u;
                u = hmac(p, u);
            }
            look("pbkdf2 " + iterations, concat(List.of(sm3(pad(p, 0x36)), sm3(pad(p, 0x5c))), macFinished(p, previous)),
                    List.of(pad(p, 0x36), pad(p, 0x5c), u));
        }

        // HKDF: the salt's pads and the PRK (extract), the PRK's pads and T(1), T(2) (expand), each finished.
        byte[] salt = bytes(13, 0x44);
        byte[] ikm = bytes(22, 0x0b);
        byte[] info = bytes(10, 0x55);
        byte[] prk = hmac(salt, ikm);
        byte[] m1 = concat(info, new byte[] {1});
        byte[] t1 = hmac(prk, m1);
        byte[] m2 = concat(t1, info, new byte[] {2});
        byte[] t2 = hmac(prk, m2);
        Algorithm.hkdf().derive(Hkdf.Mode.EXTRACT_THEN_EXPAND, ikm, salt, info, 64);
        look("hkdf", concat(List.of(sm3(pad(salt, 0x36)), sm3(pad(salt, 0x5c)), sm3(pad(prk, 0x36)),
                        sm3(pad(prk, 0x5c))), macFinished(salt, ikm), macFinished(prk, m1), macFinished(prk, m2)),
                List.of(pad(prk, 0x36), pad(prk, 0x5c), prk, t1, t2));

        // X9.63: each block SM3(Z || counter || info), finished.
        byte[] z = bytes(64, 0x66);
        byte[] sharedInfo = bytes(10, 0x77);
        Algorithm.x963Kdf().derive(z, sharedInfo, 64);
        look("x963", readable(finishedOf(z, new byte[] {0, 0, 0, 1}, sharedInfo),
                finishedOf(z, new byte[] {0, 0, 0, 2}, sharedInfo)), List.of(z));
    }

    /** What the inner and outer hash of HMAC(key, message) leave in a context once finished, where readable. */
    private static List<byte[]> macFinished(byte[] key, byte[] message) {
        byte[] inner = concat(pad(key, 0x36), message);
        return readable(finishedOf(inner), finishedOf(pad(key, 0x5c), sm3(inner)));
    }

    /** The states the reading can give: none for a finished state where EVP refuses to finish it again. */
    private static List<byte[]> readable(byte[]... states) {
        return Arrays.stream(states).filter(Objects::nonNull).toList();
    }

    /**
     * What reading a context gives ({@link #finished}) when it holds SM3 of {@code parts} finished: computed on a
     * context of the backend's own, freed (and so cleared) at once. Null through EVP from OpenSSL 3.2 on.
     */
    private static byte[] finishedOf(byte[]... parts) {
        Backend sm3 = BackendChoice.selected();
        MemorySegment ctx = sm3.newContext();
        try (Arena arena = Arena.ofConfined()) {
            byte[] all = concat(parts);
            MemorySegment in = arena.allocateFrom(JAVA_BYTE, all);
            MemorySegment out = arena.allocate(DIGEST_LENGTH + JAVA_LONG.byteSize());
            sm3.init(ctx);
            sm3.update(ctx, in, all.length);
            sm3.finalInto(ctx, out, out.asSlice(DIGEST_LENGTH));
            return finished(ctx);
        } finally {
            sm3.free(ctx);
        }
    }

    @SafeVarargs
    private static List<byte[]> concat(List<byte[]>... lists) {
        List<byte[]> all = new ArrayList<>();
        for (List<byte[]> l : lists) {
            all.addAll(l);
        }
        return all;
    }

    private static void otherMac() throws GeneralSecurityException {
        Mac other = Mac.getInstance("HmacSM3", PROVIDER);
        other.init(new SecretKeySpec(bytes(32, 0x7f), "HmacSM3"));
        other.doFinal(bytes(16, 4));
    }

    /** Prints how many states hold one of {@code states}, and how many staging buffers hold a secret. */
    /** The states a keyed MAC over {@code unfinished} holds: the inner and outer pads, and the message's. */
    private static List<byte[]> keyedSecrets(byte[] key, byte[] unfinished) {
        return List.of(sm3(pad(key, 0x36)), sm3(pad(key, 0x5c)), sm3(pad(key, 0x36), unfinished));
    }

    /**
     * A reused Mac, which keeps a context keyed with the pads, in the middle of {@code unfinished}: 600 bytes reach
     * that context at once.
     */
    private static Mac reusedMac(byte[] key, byte[] unfinished) throws Exception {
        Mac mac = Mac.getInstance("HmacSM3", PROVIDER);
        mac.init(new SecretKeySpec(key, "HmacSM3"));
        mac.doFinal(bytes(64, 1));
        mac.doFinal(bytes(64, 2));
        mac.update(unfinished);
        return mac;
    }

    /**
     * Up to {@code rounds} collections, until none of {@code secrets} is found. Reclaiming runs on the threads that
     * borrow: a Mac with another key borrows for its message.
     */
    private static void collect(List<byte[]> secrets, int rounds) throws Exception {
        for (int i = 0; i < rounds && count(secrets) > 0; i++) {
            System.gc();
            Thread.sleep(10);
            otherMac();
        }
    }

    private static void look(String name, List<byte[]> states, List<byte[]> stagedSecrets) {
        int dirty = 0;
        for (PooledContext c : PooledContext.all()) {
            byte[] staging = c.staging().toArray(JAVA_BYTE);
            for (byte[] s : stagedSecrets) {
                // Either end: a final overwrites the start of the buffer.
                dirty += contains(staging, Arrays.copyOf(s, 16))
                        || contains(staging, Arrays.copyOfRange(s, s.length - 16, s.length)) ? 1 : 0;
            }
        }
        System.out.println(name + ": found=" + count(states) + " dirtyStaging=" + dirty);
    }

    private static int count(List<byte[]> states) {
        int found = 0;
        for (PooledContext c : PooledContext.all()) {
            List<MemorySegment> held = new ArrayList<>(List.of(c.ctx()));
            if (c instanceof HmacContext h) {
                held.add(h.states().get(1));
                held.add(h.states().get(2));
            }
            for (MemorySegment state : held) {
                byte[] got = finished(state);
                for (byte[] s : states) {
                    found += got != null && Arrays.equals(got, s) ? 1 : 0;
                }
            }
        }
        return found;
    }

    /**
     * The digest a copy of {@code state} gives, finished as it is; null for a state never started, and for a
     * finished one through EVP from OpenSSL 3.2 on.
     */
    private static byte[] finished(MemorySegment state) {
        Backend sm3 = BackendChoice.selected();
        MemorySegment copy;
        try {
            copy = sm3.copy(state, sm3.newContext());
        } catch (ProviderException e) {
            // EVP cannot copy an EVP_MD_CTX that was never initialised: it holds nothing.
            return null;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(DIGEST_LENGTH + JAVA_LONG.byteSize());
            sm3.finalInto(copy, out, out.asSlice(DIGEST_LENGTH));
            return out.asSlice(0, DIGEST_LENGTH).toArray(JAVA_BYTE);
        } catch (ProviderException e) {
            // EVP from OpenSSL 3.2 on refuses a second final: the state is a finished one.
            return null;
        } finally {
            sm3.free(copy);
        }
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return true;
            }
        }
        return false;
    }

    /** K0 XOR the pad byte, K0 being the key padded with zeros to a block (the keys here are no longer). */
    private static byte[] pad(byte[] key, int pad) {
        byte[] k0 = Arrays.copyOf(key, BLOCK_SIZE);
        for (int i = 0; i < k0.length; i++) {
            k0[i] ^= (byte) pad;
        }
        return k0;
    }

    private static byte[] sm3(byte[]... parts) {
        SM3Digest d = new SM3Digest();
        for (byte[] p : parts) {
            d.update(p, 0, p.length);
        }
        byte[] out = new byte[DIGEST_LENGTH];
        d.doFinal(out, 0);
        return out;
    }

    private static byte[] hmac(byte[] key, byte[] message) {
        HMac m = new HMac(new SM3Digest());
        m.init(new KeyParameter(key));
        m.update(message, 0, message.length);
        byte[] out = new byte[DIGEST_LENGTH];
        m.doFinal(out, 0);
        return out;
    }

    private static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (seed + 31 * i);
        }
        return b;
    }

    private static byte[] concat(byte[]... parts) {
        byte[] all = new byte[Arrays.stream(parts).mapToInt(p -> p.length).sum()];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, all, at, p.length);
            at += p.length;
        }
        return all;
    }
}
