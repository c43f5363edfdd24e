package io.github.sm3ffm.internal.libcrypto;

import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestFinal_ex;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestInit_ex2;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestUpdate;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_CTX_copy_ex;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_CTX_free;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_CTX_new;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.github.sm3ffm.bench.PerMessageBenchmark;
import io.github.sm3ffm.bench.Providers;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What is the least a clone-then-finish of a 1061-byte transcript can cost through FFM? The native calls
 * that sm3-ffm's clone and {@code digest()} make, alone, from and into native memory: with the provider's
 * own SM3 functions ({@link DirectSm3}) a {@code dupctx}, a {@code final} and a {@code freectx}; through
 * EVP, {@code EVP_MD_CTX_copy_ex} into an existing context and {@code EVP_DigestFinal_ex}. The floor under
 * {@code PerMessageBenchmark.cloneThenFinish1061B}, in this package because the provider's functions are
 * the loader's own.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class BareCloneBenchmark {
    private Arena arena;
    private MemorySegment transcript;
    private MemorySegment copy;
    private MemorySegment out;
    private MemorySegment outl;

    @Setup(Level.Trial)
    public void setUp() throws Throwable {
        byte[] message = Providers.message(PerMessageBenchmark.TRANSCRIPT);
        MemorySegment md = LibCrypto.sm3();
        arena = Arena.ofConfined();
        MemorySegment in = arena.allocate(message.length);
        in.copyFrom(MemorySegment.ofArray(message));
        out = arena.allocate(NativeSm3.DIGEST_LENGTH);
        outl = arena.allocate(JAVA_LONG);
        if (DirectSm3.ENABLED) {
            transcript = DirectSm3.newContext();
            DirectSm3.init(transcript);
            DirectSm3.updateNative(transcript, in, in.byteSize());
        } else {
            transcript = EVP_MD_CTX_new();
            copy = EVP_MD_CTX_new();
            OpenSSLErrors.check(EVP_DigestInit_ex2(transcript, md, MemorySegment.NULL), "EVP_DigestInit_ex2");
            OpenSSLErrors.check(EVP_DigestUpdate(transcript, in, in.byteSize()), "EVP_DigestUpdate");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (DirectSm3.ENABLED) {
            DirectSm3.free(transcript);
        } else {
            EVP_MD_CTX_free(transcript);
            EVP_MD_CTX_free(copy);
        }
        arena.close();
    }

    /** The digest of the transcript, in native memory; the calls' return codes are checked by the tests. */
    @Benchmark
    public MemorySegment copyThenFinal() throws Throwable {
        if (DirectSm3.ENABLED) {
            MemorySegment dup = (MemorySegment) DirectSm3.DUPCTX.invokeExact(transcript);
            int rc = (int) DirectSm3.FINAL.invokeExact(dup, out, outl, (long) NativeSm3.DIGEST_LENGTH);
            DirectSm3.FREECTX.invokeExact(dup);
            return rc == 1 ? out : MemorySegment.NULL;
        }
        int rc = EVP_MD_CTX_copy_ex(copy, transcript);
        rc &= EVP_DigestFinal_ex(copy, out, MemorySegment.NULL);
        return rc == 1 ? out : MemorySegment.NULL;
    }
}
