package io.github.sm3ffm.internal.libcrypto;

import io.github.sm3ffm.SM3Provider;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;

/**
 * What a fresh JVM spends before its first SM3 digest, stage by stage, in the order a user's first digest
 * reaches them, for {@code bench/cold-start}: FFM's own start (a first downcall to the C library, which any FFM
 * program pays), loading libcrypto (dlopen, version, {@code EVP_MD_fetch}), finding and linking the provider's
 * functions and proving the layout ({@link BackendChoice}), reading the chosen backend, the SM3 self-test (with the first
 * message's classes and links), the provider's construction, the first {@code getInstance} and the first digest.
 * Prints one line: milliseconds per stage, and the backend.
 */
public final class ColdStartProbe {
    private ColdStartProbe() {
    }

    public static void main(String[] args) throws Throwable {
        List<String> stages = new ArrayList<>();
        long t = System.nanoTime();
        // FFM's own start: a downcall to strlen, linked from the C library the JVM already has.
        MethodHandle strlen = Linker.nativeLinker().downcallHandle(
                Linker.nativeLinker().defaultLookup().find("strlen").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.ADDRESS));
        long n;
        try (Arena arena = Arena.ofConfined()) {
            n = (long) strlen.invokeExact(arena.allocateFrom("abc"));
        }
        t = stage(stages, "ffm", t);
        boolean loaded = LibCrypto.isAvailable();
        t = stage(stages, "load", t);
        DirectSm3.Offer offer = BackendChoice.offer();
        t = stage(stages, "find+link+proof", t);
        Backend backend = BackendChoice.selected();
        t = stage(stages, "choose", t);
        Algorithm.SM3.check();
        t = stage(stages, "self-test", t);
        SM3Provider provider = new SM3Provider();
        t = stage(stages, "provider", t);
        MessageDigest md = MessageDigest.getInstance("SM3", provider);
        t = stage(stages, "getInstance", t);
        byte[] digest = md.digest(new byte[] {'a', 'b', 'c'});
        stage(stages, "digest", t);
        if (n != 3 || !loaded || digest.length != 32) {
            throw new IllegalStateException("a stage gave a wrong answer");
        }
        System.out.println(String.join(" ", stages) + " backend=" + (offer.reason() == null ? offer.copies() : "EVP") + " " + backend.getClass().getSimpleName());
    }

    private static long stage(List<String> stages, String name, long since) {
        long now = System.nanoTime();
        stages.add(name + "=" + String.format("%.1f", (now - since) / 1e6));
        return now;
    }
}
