package io.github.sm3ffm.internal.libcrypto;

import java.lang.foreign.MemorySegment;
import java.security.ProviderException;

/**
 * Failure injection for tests, through the backend choice's test seam ({@link BackendChoice#decorate}): decorators
 * around the chosen backend and around the steps before it exists (the loader, the lookup of the provider's
 * functions, their linking and every call of the checks made through them), each of which can make any call that
 * can fail throw as a failed OpenSSL call does, without calling OpenSSL. Nothing in the library checks for it; a
 * JVM without this class is never decorated.
 *
 * <p>Counting and arming are per thread, so tests that run engines on other threads stay deterministic.
 * Operations that cannot fail (frees) are not counted; every other one is, whether or not the chosen backend's
 * version of it can fail in OpenSSL (a copy by {@code copyctx}, a clear from Java): {@link FailingBackend#FAILABLE}
 * lists them.
 */
public final class Faults {
    private static final ThreadLocal<Arming> ARMED = new ThreadLocal<>();
    /** Addresses of the contexts and buffers the backend has made and not yet freed, in the whole JVM. */
    private static final java.util.Set<Long> LIVE = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private static volatile boolean installed;

    private Faults() {
    }

    /** What a test sees of one arming. */
    public interface Armed extends AutoCloseable {
        /** Whether the chosen call was reached and failed. */
        boolean injected();

        /** The operation that failed, such as {@code "update"}, or null. */
        String failedCall();

        /** Failable calls counted so far. */
        long calls();

        /** Whether the context the failed call was made on has been freed since (true when there is none). */
        boolean failedContextFreed();

        @Override
        void close();
    }

    /**
     * Puts the failing decorators around the backend and the steps that choose it; call before the library's first
     * native use in this JVM (idempotent).
     *
     * @throws IllegalStateException when the backend was chosen already without them
     */
    public static synchronized void install() {
        if (BackendChoice.made()) {
            if (!(BackendChoice.selected() instanceof FailingBackend)) {
                throw new IllegalStateException("the backend was chosen before Faults.install(): "
                        + BackendChoice.selected().description());
            }
        } else if (!installed) {
            BackendChoice.decorate(FailingStartup::new, FailingBackend::new);
        }
        installed = true;
    }

    /** The backend this JVM chose, without the decorator when there is one. */
    static Backend chosen() {
        Backend selected = BackendChoice.selected();
        return selected instanceof FailingBackend f ? f.real : selected;
    }

    /** How many failable native calls {@code action} makes on this thread (nothing fails). */
    public static int count(Runnable action) {
        try (Armed a = failNth(0)) {
            action.run();
            return (int) a.calls();
        }
    }

    /**
     * Arms this thread's {@code n}th (1-based) failable native call from now on to fail as OpenSSL reports a
     * failure, a {@link ProviderException}; 0 fails none and only counts. {@link Armed#close()} disarms.
     */
    public static Armed failNth(int n) {
        if (!installed) {
            throw new IllegalStateException("Faults.install() was not called before the backend was chosen");
        }
        Arming a = new Arming(n);
        ARMED.set(a);
        return a;
    }

    private static final class Arming implements Armed {
        final long failAt;
        long calls;
        String failedCall;
        MemorySegment failedOn = MemorySegment.NULL;
        boolean failedFreed;

        Arming(long failAt) {
            this.failAt = failAt;
        }

        @Override
        public boolean injected() {
            return failedCall != null;
        }

        @Override
        public String failedCall() {
            return failedCall;
        }

        @Override
        public long calls() {
            return calls;
        }

        @Override
        public boolean failedContextFreed() {
            return failedOn.equals(MemorySegment.NULL) || failedFreed;
        }

        @Override
        public void close() {
            if (ARMED.get() == this) {
                ARMED.remove();
            }
        }
    }

    /** The library's frames and classes on the stack at a backend call, the backend's own frame included. */
    public record Depth(int frames, java.util.List<String> classes) {
    }

    private static final ThreadLocal<java.util.Map<String, Depth>> DEPTHS = new ThreadLocal<>();
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    /**
     * The deepest stack of library frames seen at each failable backend operation that {@code action} reaches on
     * this thread: from the outermost library frame (an engine method) down to the backend's method, which is
     * where the downcall is made. The decorator's own frame is not counted; the backend's is.
     */
    public static java.util.Map<String, Depth> depths(Runnable action) {
        java.util.Map<String, Depth> seen = new java.util.TreeMap<>();
        DEPTHS.set(seen);
        try {
            action.run();
        } finally {
            DEPTHS.remove();
        }
        return seen;
    }

    private static void recordDepth(String operation) {
        java.util.Map<String, Depth> seen = DEPTHS.get();
        if (seen == null) {
            return;
        }
        java.util.List<Class<?>> library = WALKER.walk(frames -> frames.map(StackWalker.StackFrame::getDeclaringClass)
                .filter(Faults::isLibrary).toList());
        // The outermost library frame first: count from there down, plus the backend's method below the decorator.
        java.util.List<String> classes = new java.util.ArrayList<>();
        for (Class<?> c : library) {
            String name = c.getName();
            if (!classes.contains(name)) {
                classes.add(name);
            }
        }
        classes.add(BackendChoice.selected() instanceof FailingBackend f ? f.real.getClass().getName()
                : "backend");
        Depth d = new Depth(library.size() + 1, java.util.List.copyOf(new java.util.LinkedHashSet<>(classes)));
        seen.merge(operation, d, (a, b) -> a.frames() >= b.frames() ? a : b);
    }

    // Main classes of the library: not this class, not a test, not the test runner's.
    private static boolean isLibrary(Class<?> c) {
        if (!c.getName().startsWith("io.github.sm3ffm.") || c.getName().startsWith(Faults.class.getName())) {
            return false;
        }
        java.security.CodeSource source = c.getProtectionDomain().getCodeSource();
        return source == null || !source.getLocation().toString().contains("test-classes");
    }

    /** Counts a failable call on {@code ctx} (NULL: none) and throws if it is the one chosen. */
    static void call(String operation, MemorySegment ctx) {
        recordDepth(operation);
        fail(operation, ctx);
    }

    /** Counts a failable call on {@code ctx} (NULL: none), without its depth, and throws if it is the one chosen. */
    private static void fail(String operation, MemorySegment ctx) {
        Arming a = ARMED.get();
        if (a != null && ++a.calls == a.failAt) {
            a.failedCall = operation;
            a.failedOn = ctx;
            throw new ProviderException(operation + " failed: injected failure");
        }
    }

    /** The addresses of every native context and buffer made through the backend and not yet freed. */
    public static java.util.Set<Long> liveNative() {
        return java.util.Set.copyOf(LIVE);
    }

    private static MemorySegment made(MemorySegment m) {
        LIVE.add(m.address());
        return m;
    }

    // A copy that put a new context in place of the one given freed that one.
    private static MemorySegment replaced(MemorySegment given, MemorySegment result) {
        if (result.address() != given.address()) {
            LIVE.remove(given.address());
            LIVE.add(result.address());
        }
        return result;
    }

    static void freeing(MemorySegment ctx) {
        LIVE.remove(ctx.address());
        Arming a = ARMED.get();
        if (a != null && a.failedCall != null && !a.failedOn.equals(MemorySegment.NULL)
                && ctx.address() == a.failedOn.address()) {
            a.failedFreed = true;
        }
    }

    /**
     * The decorator of the steps before a backend exists: each step, and each call of the checks, passes
     * {@link #fail} first; the contexts the checks make and have not freed are in {@link #liveNative}.
     */
    static final class FailingStartup implements Startup {
        final Startup real;

        FailingStartup(Startup real) {
            this.real = real;
        }

        @Override
        public MemorySegment loaded() {
            fail("load", MemorySegment.NULL);
            return real.loaded();
        }

        @Override
        public Found find(MemorySegment md) {
            fail("find", MemorySegment.NULL);
            return real.find(md);
        }

        @Override
        public Linked link(Found found) {
            fail("link", MemorySegment.NULL);
            return real.link(found);
        }

        @Override
        public ProviderCalls calls(Linked linked) {
            return new FailingCalls(real.calls(linked));
        }
    }

    /** The checks' calls of the provider's functions, each failable but the free. */
    private record FailingCalls(ProviderCalls real) implements ProviderCalls {
        private static MemorySegment madeUnlessNull(MemorySegment ctx) {
            return ctx.equals(MemorySegment.NULL) ? ctx : made(ctx);
        }

        @Override
        public MemorySegment newctx() throws Throwable {
            fail("provider newctx", MemorySegment.NULL);
            return madeUnlessNull(real.newctx());
        }

        @Override
        public int init(MemorySegment ctx) throws Throwable {
            fail("provider init", ctx);
            return real.init(ctx);
        }

        @Override
        public int update(MemorySegment ctx, MemorySegment data, long len) throws Throwable {
            fail("provider update", ctx);
            return real.update(ctx, data, len);
        }

        @Override
        public MemorySegment dupctx(MemorySegment ctx) throws Throwable {
            fail("provider dupctx", ctx);
            return madeUnlessNull(real.dupctx(ctx));
        }

        @Override
        public int fin(MemorySegment ctx, MemorySegment out, MemorySegment outl) throws Throwable {
            fail("provider final", ctx);
            return real.fin(ctx, out, outl);
        }

        @Override
        public void freectx(MemorySegment ctx) throws Throwable {
            freeing(ctx);
            real.freectx(ctx);
        }
    }

    /** The decorator: every failable operation passes {@link #call} first, every free {@link #freeing}. */
    static final class FailingBackend implements Backend {
        /** The operations that can be made to fail, in the order of {@link Backend}. */
        static final java.util.List<String> FAILABLE = java.util.List.of("allocate", "newContext", "copy", "save",
                "restore", "copyForOneMessage", "init", "clear", "update", "updateNative", "final");

        final Backend real;

        FailingBackend(Backend real) {
            this.real = real;
        }

        @Override
        public String description() {
            return real.description() + ", with failure injection";
        }

        @Override
        public MemorySegment allocate(long bytes) {
            call("allocate", MemorySegment.NULL);
            return made(real.allocate(bytes));
        }

        @Override
        public void release(MemorySegment buffer) {
            freeing(buffer);
            real.release(buffer);
        }

        @Override
        public MemorySegment newContext() {
            call("newContext", MemorySegment.NULL);
            return made(real.newContext());
        }

        @Override
        public MemorySegment copy(MemorySegment src, MemorySegment into) {
            call("copy", into);
            return replaced(into, real.copy(src, into));
        }

        @Override
        public void free(MemorySegment ctx) {
            freeing(ctx);
            real.free(ctx);
        }

        @Override
        public byte[] save(MemorySegment ctx) {
            byte[] state = real.save(ctx);
            if (state != null) {
                // Only where states are bytes: elsewhere a copy is a copy call, counted there.
                try {
                    call("save", MemorySegment.NULL);
                } catch (ProviderException e) {
                    java.util.Arrays.fill(state, (byte) 0);
                    throw e;
                }
            }
            return state;
        }

        @Override
        public void restore(byte[] state, MemorySegment ctx) {
            call("restore", ctx);
            real.restore(state, ctx);
        }

        @Override
        public MemorySegment copyForOneMessage(MemorySegment src, MemorySegment spare) {
            call("copyForOneMessage", spare);
            MemorySegment copy = real.copyForOneMessage(src, spare);
            return copy.address() == spare.address() ? copy : made(copy);
        }

        @Override
        public void dropCopy(MemorySegment copy, MemorySegment spare) {
            if (copy != spare) {
                freeing(copy);
            }
            real.dropCopy(copy, spare);
        }

        @Override
        public void init(MemorySegment ctx) {
            call("init", ctx);
            real.init(ctx);
        }

        @Override
        public void clear(MemorySegment ctx) {
            call("clear", ctx);
            real.clear(ctx);
        }

        @Override
        public void update(MemorySegment ctx, MemorySegment data, long len) {
            call("update", ctx);
            real.update(ctx, data, len);
        }

        @Override
        public void updateNative(MemorySegment ctx, MemorySegment data, long len) {
            call("updateNative", ctx);
            real.updateNative(ctx, data, len);
        }

        @Override
        public void finalInto(MemorySegment ctx, MemorySegment out, MemorySegment outl) {
            call("final", ctx);
            real.finalInto(ctx, out, outl);
        }
    }
}
