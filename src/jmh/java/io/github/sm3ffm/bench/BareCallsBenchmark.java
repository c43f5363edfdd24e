package io.github.sm3ffm.bench;

import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestFinal_ex$address;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestFinal_ex$descriptor;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestInit_ex2$address;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestInit_ex2$descriptor;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestUpdate$address;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_DigestUpdate$descriptor;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_CTX_free;
import static io.github.sm3ffm.internal.openssl.OpenSSL.EVP_MD_CTX_new;

import io.github.sm3ffm.internal.libcrypto.LibCrypto;
import io.github.sm3ffm.internal.libcrypto.LibCryptoUnavailableException;
import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What is the least a whole short digest can cost through FFM? The three critical downcalls
 * ({@code EVP_DigestInit_ex2}, {@code EVP_DigestUpdate}, {@code EVP_DigestFinal_ex}) on one reused
 * context, from and into native memory, with no JCA and no copies: the floor under
 * {@link CallPatternBenchmark#reusedDigest} at the same size.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class BareCallsBenchmark {
    // Linked once libcrypto is loaded (by LibCrypto.sm3() in setUp): the bindings resolve symbols then.
    private static final class Calls {
        static final Linker LINKER = Linker.nativeLinker();
        static final MethodHandle INIT = LINKER.downcallHandle(
                EVP_DigestInit_ex2$address(), EVP_DigestInit_ex2$descriptor(), Linker.Option.critical(false));
        static final MethodHandle UPDATE = LINKER.downcallHandle(
                EVP_DigestUpdate$address(), EVP_DigestUpdate$descriptor(), Linker.Option.critical(false));
        static final MethodHandle FINAL = LINKER.downcallHandle(
                EVP_DigestFinal_ex$address(), EVP_DigestFinal_ex$descriptor(), Linker.Option.critical(false));
    }

    @Param({"16", "64"})
    public int size;

    private Arena arena;
    private MemorySegment md;
    private MemorySegment ctx;
    private MemorySegment message;
    private MemorySegment out;

    @Setup(Level.Trial)
    public void setUp() throws LibCryptoUnavailableException {
        md = LibCrypto.sm3();
        ctx = EVP_MD_CTX_new();
        arena = Arena.ofConfined();
        message = arena.allocate(size);
        message.copyFrom(MemorySegment.ofArray(Providers.message(size)));
        out = arena.allocate(32);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        EVP_MD_CTX_free(ctx);
        arena.close();
    }

    @Benchmark
    public int threeCalls() throws Throwable {
        int rc = (int) Calls.INIT.invokeExact(ctx, md, MemorySegment.NULL);
        rc += (int) Calls.UPDATE.invokeExact(ctx, message, (long) size);
        rc += (int) Calls.FINAL.invokeExact(ctx, out, MemorySegment.NULL);
        return rc;
    }
}
