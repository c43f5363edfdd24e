package io.github.sm3ffm.bench;

import io.github.sm3ffm.internal.libcrypto.BareCloneBenchmark;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.WorkloadParams;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs every benchmark for every implementation that works here, plus {@code openssl speed} as the native
 * ceiling, then writes JMH's JSON, the {@link RunRecord} and (through {@link Report}) the table and chart.
 *
 * <p>The machine this runs on may switch between speed states for tens of seconds at a time, so the run
 * is split into rounds, each one JMH fork of every benchmark point (a few, or longer ones, for a point that
 * is {@link Settle}d): within a round the implementations take turns at each point (the one that goes first
 * rotates from round to round) right after {@code openssl speed} at that size, and the rounds' forks are
 * merged into one result per point whose error (JMH's 99.9% interval) spans all of them.
 */
public final class Suite {
    /**
     * JVM start with the heap pre-touched (0.22 s), JMH's handshake and the benchmark's setup: about 1 s a fork
     * on a busy 2-core machine.
     */
    static final double FORK_OVERHEAD_SECONDS = 1.0;
    static final List<String> FORK_JVM_ARGS = forkJvmArgs();

    /**
     * Implementations whose speed steps down for good seconds into a JVM's life, pre-touched heap or not, so
     * that a fork's measured window would straddle the step and the figure would depend on where it fell. With
     * 10 x 500 ms of warmup, 4 forks each: GlaSSLess's 1 MiB digest took 3.1-3.2 ms until 1-3 s in, then
     * 5.1-5.5 ms; Kona's JNI clone-then-finish of 64 bytes 570-660 ns until about 3 s in, then 1080-1100 ns.
     * After 25 x 200 ms, 4 forks each of those two and of GlaSSLess's 1 KiB digest all measured the later speed.
     * Their forks warm up for {@link RunRecord.Settings#steadyWarmupMillis} and measure the later speed, which a
     * service sees; sm3-ffm and the pure-Java implementations have no such step.
     */
    static final java.util.Set<String> STEP_DOWN = java.util.Set.of(Providers.KONA_NATIVE, Providers.GLASSLESS);

    /** The benchmarks in the order they run, each with the service it needs (none: no implementation). */
    private static final Map<Class<?>, String> PLAN = plan();

    private static List<String> forkJvmArgs() {
        // Pre-touched, so that a short fork measures what a long-running service sees. Without it a fork pays
        // the kernel's first touch of every heap page it allocates into: a new MessageDigest per 16-byte
        // message took 322 +- 68 ns for sm3-ffm and 448 +- 137 ns for BouncyCastle in 4 forks, 230 +- 4 and
        // 368 +- 8 with it. And implementations whose native memory waits for the GC reach their steady state
        // only seconds in, past a fork's end: in one long fork without it, Kona's JNI clone-then-finish of
        // 1061 bytes took 360 ns for 2 s and 840-990 ns after, GlaSSLess's 1 MiB digest 3.1 ms for 9 s and
        // 5.2-5.6 ms after; pre-touched forks give the later figures from the start.
        // A fork that runs out of heap exits at once and fails its point, where it would hang until JMH's
        // 10-minute timeout: GlaSSLess's single-byte updates retain about 200 MB of heap a second and fill 1 GB
        // within the steady warmup.
        List<String> args = new ArrayList<>(List.of("--enable-native-access=ALL-UNNAMED", "-Xms1g", "-Xmx1g",
                "-XX:+AlwaysPreTouch", "-XX:+ExitOnOutOfMemoryError"));
        if (Runtime.version().feature() >= 23) {
            // JMH 1.37 reads field offsets through sun.misc.Unsafe, which JDK 23+ warns about in every fork.
            args.add("--sun-misc-unsafe-memory-access=allow");
        }
        return List.copyOf(args);
    }

    private static Map<Class<?>, String> plan() {
        Map<Class<?>, String> plan = new LinkedHashMap<>();
        plan.put(BaselineBenchmark.class, null);
        plan.put(DigestBenchmark.class, Providers.DIGEST);
        plan.put(UpdateBenchmark.class, Providers.DIGEST);
        plan.put(PerMessageBenchmark.class, Providers.DIGEST);
        plan.put(CallPatternBenchmark.class, Providers.HMAC);
        plan.put(BareCallsBenchmark.class, null);
        plan.put(BareCloneBenchmark.class, null);
        plan.put(JcaFloorBenchmark.class, null);
        plan.put(HmacBenchmark.class, Providers.HMAC);
        plan.put(Pbkdf2Benchmark.class, Providers.PBKDF2);
        plan.put(HkdfBenchmark.class, null);
        return plan;
    }

    /**
     * One round's work at a benchmark method, one size (or none) and one implementation (or none): one JMH
     * fork, or more when the method is {@link Settle}d.
     */
    record Point(Class<?> type, String method, String size, String implementation) {
        String benchmark() {
            return type.getName() + "." + method;
        }

        /** How the method's {@link Settle} applies at this size: forks per round and iteration length. */
        RunRecord.Settled settled(RunRecord.Settings s) {
            Settle[] settles;
            try {
                settles = type.getMethod(method).getAnnotationsByType(Settle.class);
            } catch (NoSuchMethodException e) {
                throw new IllegalStateException(e);
            }
            String benchmark = type.getSimpleName() + "." + method;
            return Arrays.stream(settles)
                    .filter(t -> t.sizes().length == 0 || Arrays.asList(t.sizes()).contains(size))
                    .findFirst()
                    .map(t -> new RunRecord.Settled(benchmark, size, t.forks(), s.iterationMillis() * t.longer()))
                    .orElseGet(() -> new RunRecord.Settled(benchmark, size, 1, s.iterationMillis()));
        }

        @Override
        public String toString() {
            return type.getSimpleName() + "." + method + (size == null ? "" : " size=" + size)
                    + (implementation == null ? "" : " " + implementation);
        }
    }

    private final Arguments arguments;
    private final RunRecord.Settings settings;
    private final OpenSslSpeed openssl;
    private final Instant started = Instant.now();
    private final PrintStream log = System.out;
    private final Map<String, List<RunResult>> results = new LinkedHashMap<>();
    private final List<RunRecord.Sample> samples = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private Map<String, RunRecord.Implementation> implementations;
    private List<RunRecord.Settled> settled = List.of();
    private List<String> steadyWarmup = List.of();
    private String opensslVersion;
    private String opensslUnavailable;

    private Suite(Arguments arguments) {
        this.arguments = arguments;
        this.settings = arguments.settings();
        this.openssl = new OpenSslSpeed(arguments.openssl);
    }

    public static void main(String[] args) throws Exception {
        Arguments a = Arguments.parse(args);
        if (a.help) {
            System.out.println(Arguments.USAGE);
            return;
        }
        new Suite(a).runAll();
    }

    private void runAll() throws IOException, InterruptedException {
        Files.createDirectories(arguments.out);
        implementations = probe(arguments.implementations);
        try {
            opensslVersion = openssl.version();
        } catch (IOException e) {
            opensslUnavailable = e.getMessage();
            log.println("no native ceiling: " + opensslUnavailable);
        }
        List<List<Point>> rounds = new ArrayList<>();
        for (int round = 0; round < settings.rounds(); round++) {
            rounds.add(points(round));
        }
        if (rounds.get(0).isEmpty()) {
            throw new IllegalArgumentException("no benchmark matches --only " + arguments.only);
        }
        List<RunRecord.Settled> perRound = rounds.get(0).stream().map(p -> p.settled(settings)).toList();
        int forks = settings.rounds() * perRound.stream().mapToInt(RunRecord.Settled::forks).sum();
        double forkSeconds = 0;
        for (Point p : rounds.get(0)) {
            RunRecord.Settled t = p.settled(settings);
            forkSeconds += settings.rounds() * t.forks()
                    * settings.forkSeconds(settings.warmupIterations(p.implementation()), t.iterationMillis());
        }
        long ceilingSizes = rounds.get(0).stream().filter(Suite::hasCeiling).map(Point::size).distinct().count();
        int opensslRuns = opensslUnavailable == null ? (int) ceilingSizes * settings.rounds() * settings.opensslSamples() : 0;
        log.printf("%s run: %d rounds, %d JMH forks, %d openssl speed runs; expected about %s%n", arguments.mode,
                settings.rounds(), forks, opensslRuns, minutes(settings.expectedSeconds(forkSeconds, opensslRuns)));
        settled = perRound.stream().filter(t -> t.forks() > 1 || t.iterationMillis() != settings.iterationMillis())
                .distinct().toList();
        steadyWarmup = implementations.entrySet().stream()
                .filter(e -> e.getValue().available() && STEP_DOWN.contains(e.getKey())).map(Map.Entry::getKey).toList();

        for (int round = 0; round < rounds.size(); round++) {
            String ceilingDone = null;
            for (Point p : rounds.get(round)) {
                if (opensslUnavailable == null && hasCeiling(p) && !p.size().equals(ceilingDone)) {
                    ceilingDone = p.size();
                    ceiling(round, Integer.parseInt(p.size()));
                }
                String label = "[" + (round + 1) + "/" + rounds.size() + "] " + p;
                try {
                    RunResult r = run(p);
                    results.computeIfAbsent(key(r.getParams()), k -> new ArrayList<>()).add(r);
                    log.println(label + ": " + summary(r));
                } catch (RunnerException e) {
                    String why = label + ": failed: " + rootCause(e);
                    failures.add(why);
                    log.println(why);
                }
            }
            // After every round, so that an interrupted run still leaves its finished rounds.
            write();
        }
        log.printf("finished in %s; results in %s%n", minutes(Duration.between(started, Instant.now()).toSeconds()),
                arguments.out);
        Report.main(new String[] {arguments.out.toString()});
    }

    /** The digest benchmark's sizes are the ones {@code openssl speed} measures, just before their forks. */
    private static boolean hasCeiling(Point p) {
        return p.type() == DigestBenchmark.class;
    }

    private void write() throws IOException {
        List<RunResult> merged = results.values().stream().map(Suite::merge).toList();
        try (PrintStream json = new PrintStream(Files.newOutputStream(arguments.out.resolve(Report.JMH_JSON)), false,
                StandardCharsets.UTF_8)) {
            ResultFormatFactory.getInstance(ResultFormatType.JSON, json).writeOut(merged);
        }
        RunRecord.Ceiling ceiling = new RunRecord.Ceiling(opensslVersion,
                String.join(" ", openssl.command(0, settings.opensslSeconds())).replace("-bytes 0", "-bytes N"),
                opensslUnavailable, samples);
        new RunRecord(arguments.mode, arguments.note, started.toString(),
                Duration.between(started, Instant.now()).toSeconds(), arguments.commandLine(), settings,
                System.getProperty("java.vm.name") + " " + Runtime.version() + " (" + System.getProperty("java.home") + ")",
                cpuModel(), Runtime.getRuntime().availableProcessors(),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                settled, steadyWarmup, implementations, ceiling, failures).write(arguments.out);
    }

    /** Probes each implementation in a JVM of its own, as the forks will see it. */
    private Map<String, RunRecord.Implementation> probe(List<String> names) throws IOException, InterruptedException {
        Map<String, RunRecord.Implementation> found = new LinkedHashMap<>();
        for (String name : names) {
            List<String> command = new ArrayList<>();
            command.add(Command.java().toString());
            command.addAll(FORK_JVM_ARGS);
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), Providers.class.getName(), name));
            Command r = Command.run(command, 120);
            Map<String, String> kv = new TreeMap<>();
            for (String line : r.output().split("\\R")) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    kv.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
            RunRecord.Implementation impl = new RunRecord.Implementation(
                    kv.getOrDefault("status", "unavailable"),
                    kv.getOrDefault("reason", kv.containsKey("status") ? null : "probe exited with " + r.exitCode()
                            + ": " + r.output().strip()),
                    kv.get("version"), kv.get("info"), kv.get("services"), kv.get("source"), kv.get("libraries"));
            found.put(name, impl);
            log.println(name + ": " + (impl.available()
                    ? impl.version() + " from " + impl.source() + ", " + impl.services()
                            + (impl.libraries() == null || impl.libraries().isEmpty() ? "" : ", native " + impl.libraries())
                    : "UNAVAILABLE, " + impl.reason()));
        }
        return found;
    }

    /** Round {@code round}'s forks in order: per benchmark and size, every implementation that offers the service. */
    private List<Point> points(int round) {
        List<Point> points = new ArrayList<>();
        for (Map.Entry<Class<?>, String> entry : PLAN.entrySet()) {
            Class<?> type = entry.getKey();
            List<String> turns = new ArrayList<>();
            if (entry.getValue() == null) {
                turns.add(null);
            }
            implementations.forEach((name, impl) -> {
                if (entry.getValue() != null && impl.offers(entry.getValue())) {
                    turns.add(name);
                }
            });
            if (!turns.isEmpty()) {
                Collections.rotate(turns, -(round % turns.size()));
            }
            for (String method : benchmarkMethods(type)) {
                if (!arguments.only.matcher(type.getName() + "." + method).find()) {
                    continue;
                }
                for (String size : sizes(type)) {
                    for (String implementation : turns) {
                        points.add(new Point(type, method, size, implementation));
                    }
                }
            }
        }
        return points;
    }

    static List<String> benchmarkMethods(Class<?> type) {
        return Arrays.stream(type.getDeclaredMethods()).filter(m -> m.isAnnotationPresent(Benchmark.class))
                .map(Method::getName).sorted().toList();
    }

    /** The {@code size} parameter's values as the class declares them; one null entry when it has none. */
    static List<String> sizes(Class<?> type) {
        try {
            return List.of(type.getField("size").getAnnotation(Param.class).value());
        } catch (NoSuchFieldException e) {
            return Collections.singletonList(null);
        }
    }

    private void ceiling(int round, int size) throws InterruptedException {
        List<String> rates = new ArrayList<>();
        for (int i = 0; i < settings.opensslSamples(); i++) {
            try {
                double rate = openssl.bytesPerSecond(size, settings.opensslSeconds());
                samples.add(new RunRecord.Sample(round + 1, size, rate));
                rates.add(String.format(Locale.ROOT, "%.1f", rate / 1e6));
            } catch (IOException e) {
                failures.add("openssl speed at " + size + " B: " + e.getMessage());
                rates.add("failed: " + e.getMessage());
            }
        }
        log.printf("[%d] openssl speed %d B: %s MB/s%n", round + 1, size, rates);
    }

    private RunResult run(Point p) throws RunnerException {
        RunRecord.Settled settle = p.settled(settings);
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include("^" + Pattern.quote(p.benchmark()) + "$")
                .forks(settle.forks())
                .warmupForks(0)
                .warmupIterations(settings.warmupIterations(p.implementation()))
                .warmupTime(TimeValue.milliseconds(settings.warmupMillis()))
                .measurementIterations(settings.iterations())
                .measurementTime(TimeValue.milliseconds(settle.iterationMillis()))
                .mode(Mode.AverageTime)
                .timeUnit(TimeUnit.NANOSECONDS)
                .addProfiler(GCProfiler.class)
                .addProfiler(HeapGrowthProfiler.class)
                .jvmArgs(FORK_JVM_ARGS.toArray(String[]::new))
                .shouldFailOnError(true)
                .verbosity(VerboseMode.SILENT);
        if (p.implementation() != null) {
            options.param("provider", p.implementation());
        }
        if (p.size() != null) {
            options.param("size", p.size());
        }
        Collection<RunResult> results = new Runner(options.build()).run();
        if (results.size() != 1) {
            throw new RunnerException("expected one result, got " + results.size());
        }
        return results.iterator().next();
    }

    private static String key(BenchmarkParams params) {
        return params.getBenchmark() + params.getParamsKeys().stream().map(k -> " " + k + "=" + params.getParam(k)).toList();
    }

    /** The rounds' forks of one point as a single JMH result, as if JMH had run them as that many forks. */
    static RunResult merge(List<RunResult> rounds) {
        BenchmarkParams p = rounds.get(0).getParams();
        List<BenchmarkResult> forks = rounds.stream().flatMap(r -> r.getBenchmarkResults().stream()).toList();
        WorkloadParams workload = new WorkloadParams();
        int order = 0;
        for (String k : p.getParamsKeys()) {
            workload.put(k, p.getParam(k), order++);
        }
        BenchmarkParams merged = new BenchmarkParams(p.getBenchmark(), p.generatedBenchmark(), p.shouldSynchIterations(),
                p.getThreads(), p.getThreadGroups(), p.getThreadGroupLabels(), forks.size(), p.getWarmupForks(),
                p.getWarmup(), p.getMeasurement(), p.getMode(), workload, p.getTimeUnit(), p.getOpsPerInvocation(),
                p.getJvm(), p.getJvmArgs(), p.getJdkVersion(), p.getVmName(), p.getVmVersion(), p.getJmhVersion(),
                p.getTimeout());
        return new RunResult(merged, forks);
    }

    private static String summary(RunResult r) {
        Result<?> score = r.getPrimaryResult();
        Result<?> alloc = r.getSecondaryResults().get(Report.ALLOC);
        return String.format("%.1f ± %.1f %s%s", score.getScore(), score.getScoreError(), score.getScoreUnit(),
                alloc == null ? "" : String.format(", %.0f B/op with the harness's", alloc.getScore()));
    }

    /** The innermost cause; JMH puts a failed fork's exceptions in its BenchmarkException's suppressed list. */
    static String rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null || t.getSuppressed().length > 0) {
            t = t.getCause() != null ? t.getCause() : t.getSuppressed()[0];
        }
        return t.toString();
    }

    private static String cpuModel() {
        try (var lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            return lines.filter(l -> l.startsWith("model name")).map(l -> l.substring(l.indexOf(':') + 1).strip())
                    .findFirst().orElse(System.getProperty("os.arch"));
        } catch (IOException e) {
            return System.getProperty("os.arch");
        }
    }

    static String minutes(long seconds) {
        return seconds / 60 + " min " + seconds % 60 + " s";
    }

    /** The command line; see {@link #USAGE}. */
    static final class Arguments {
        // Short forks, many rounds: each round is one fork per point, the implementations side by side, so the
        // host's slow spells hit them alike and the median of the per-round ratios stays put. Two runs of five
        // rounds agreed within 10% on 49 of their 62 headline ratios; two of nine on every ratio between
        // implementations without a late step (47 of them within 2.2%). Six keep a full run under an hour now
        // that the STEP_DOWN implementations' forks warm up for 5 s.
        static final RunRecord.Settings DEFAULTS = new RunRecord.Settings(6, 3, 200, 4, 200, 2, 1, 5000);
        static final RunRecord.Settings SMOKE = new RunRecord.Settings(1, 1, 100, 2, 100, 1, 1, 100);

        static final String USAGE = """
                bench/run [options]      run the suite, write the JSON, table and chart
                bench/run --report [DIR] redraw the table and chart from DIR's JSON (default docs)

                  --smoke                one round of very short iterations, to prove the suite runs
                                         (writes to target/bench unless --out is given)
                  --out DIR              where to write the results (default docs)
                  --rounds N             forks per benchmark point, taken in turns (default %d)
                  --warmup N             warmup iterations per fork (default %d)
                  --warmup-ms MS         length of one warmup iteration (default %d)
                  --steady-warmup-ms MS  least warmup of the implementations whose speed steps down seconds
                                         into a JVM, %s (default %d)
                  --iterations N         measured iterations per fork (default %d)
                  --iteration-ms MS      length of one measured iteration (default %d)
                  --openssl-samples N    openssl speed runs per size and round (default %d)
                  --openssl-seconds S    length of one openssl speed run (default %d)
                  --only REGEX           only benchmarks whose Class.method matches REGEX
                  --implementations LIST comma-separated subset of SM3FFM,BC,KonaCrypto,KonaCrypto-Native
                  --extra-jar PATH       a competitor's jar (repeatable): bench/run puts it on the class path
                                         and its JCA providers (META-INF/services) join the comparison
                  --openssl PATH         the openssl executable (default openssl)
                  --note TEXT            a remark printed at the top of the table (machine, load, ...)
                """.formatted(DEFAULTS.rounds(), DEFAULTS.warmupIterations(), DEFAULTS.warmupMillis(),
                String.join(" and ", new java.util.TreeSet<>(STEP_DOWN)), DEFAULTS.steadyWarmupMillis(), DEFAULTS.iterations(), DEFAULTS.iterationMillis(), DEFAULTS.opensslSamples(), DEFAULTS.opensslSeconds());

        String mode = "full";
        String note = "";
        Path out;
        boolean help;
        int rounds = DEFAULTS.rounds();
        int warmup = DEFAULTS.warmupIterations();
        int warmupMillis = DEFAULTS.warmupMillis();
        int steadyWarmupMillis = DEFAULTS.steadyWarmupMillis();
        int iterations = DEFAULTS.iterations();
        int iterationMillis = DEFAULTS.iterationMillis();
        int opensslSamples = DEFAULTS.opensslSamples();
        int opensslSeconds = DEFAULTS.opensslSeconds();
        Pattern only = Pattern.compile("");
        List<String> implementations = Providers.ALL;
        final List<String> extraJars = new ArrayList<>();
        String openssl = "openssl";
        private final List<String> given = new ArrayList<>();

        static Arguments parse(String[] args) {
            Arguments a = new Arguments();
            a.given.addAll(List.of(args));
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                switch (arg) {
                    case "--help", "-h" -> a.help = true;
                    case "--smoke" -> {
                        a.mode = "smoke";
                        a.rounds = SMOKE.rounds();
                        a.warmup = SMOKE.warmupIterations();
                        a.warmupMillis = SMOKE.warmupMillis();
                        a.steadyWarmupMillis = SMOKE.steadyWarmupMillis();
                        a.iterations = SMOKE.iterations();
                        a.iterationMillis = SMOKE.iterationMillis();
                        a.opensslSamples = SMOKE.opensslSamples();
                        a.opensslSeconds = SMOKE.opensslSeconds();
                    }
                    case "--out" -> a.out = Path.of(value(args, ++i, arg));
                    case "--rounds" -> a.rounds = positive(args, ++i, arg);
                    case "--warmup" -> a.warmup = positive(args, ++i, arg);
                    case "--warmup-ms" -> a.warmupMillis = positive(args, ++i, arg);
                    case "--steady-warmup-ms" -> a.steadyWarmupMillis = positive(args, ++i, arg);
                    case "--iterations" -> a.iterations = positive(args, ++i, arg);
                    case "--iteration-ms" -> a.iterationMillis = positive(args, ++i, arg);
                    case "--openssl-samples" -> a.opensslSamples = positive(args, ++i, arg);
                    case "--openssl-seconds" -> a.opensslSeconds = positive(args, ++i, arg);
                    case "--only" -> a.only = Pattern.compile(value(args, ++i, arg));
                    case "--implementations" -> a.implementations = List.of(value(args, ++i, arg).split(","));
                    case "--extra-jar" -> a.extraJars.add(value(args, ++i, arg));
                    case "--openssl" -> a.openssl = value(args, ++i, arg);
                    case "--note" -> a.note = value(args, ++i, arg);
                    default -> throw new IllegalArgumentException("unknown option " + arg + "\n" + USAGE);
                }
            }
            if (a.out == null) {
                a.out = Path.of(a.mode.equals("smoke") ? "target/bench" : "docs");
            }
            if (!a.extraJars.isEmpty()) {
                List<String> all = new ArrayList<>(a.implementations);
                for (String jar : a.extraJars) {
                    all.addAll(providerNames(Path.of(jar)));
                }
                a.implementations = List.copyOf(all);
            }
            boolean everything = a.only.pattern().isEmpty() && a.implementations.containsAll(Providers.ALL);
            if (a.mode.equals("full") && !(everything && a.settings().equals(DEFAULTS))) {
                a.mode = "reduced";
            }
            return a;
        }

        RunRecord.Settings settings() {
            return new RunRecord.Settings(rounds, warmup, warmupMillis, iterations, iterationMillis, opensslSamples,
                    opensslSeconds, steadyWarmupMillis);
        }

        /** The command as given, less the note, which the report shows on its own. */
        String commandLine() {
            List<String> words = new ArrayList<>(List.of("bench/run"));
            for (int i = 0; i < given.size(); i++) {
                if (given.get(i).equals("--note")) {
                    i++;
                    continue;
                }
                String s = given.get(i);
                words.add(s.matches("[\\w./,=:-]+") ? s : "'" + s.replace("'", "'\\''") + "'");
            }
            return String.join(" ", words);
        }

        /** The names of the JCA providers that {@code jar} registers in META-INF/services (on the class path). */
        static List<String> providerNames(Path jar) {
            List<String> names = new ArrayList<>();
            try (java.util.jar.JarFile file = new java.util.jar.JarFile(jar.toFile())) {
                var entry = file.getEntry("META-INF/services/java.security.Provider");
                if (entry == null) {
                    throw new IllegalArgumentException(jar + " registers no java.security.Provider");
                }
                String text = new String(file.getInputStream(entry).readAllBytes(), StandardCharsets.UTF_8);
                for (String line : text.split("\\R")) {
                    String className = line.replaceAll("#.*", "").strip();
                    if (!className.isEmpty()) {
                        names.add(((java.security.Provider) Class.forName(className).getConstructor().newInstance())
                                .getName());
                    }
                }
            } catch (IOException | ReflectiveOperationException e) {
                throw new IllegalArgumentException("cannot read the providers of " + jar + " (is it on the class "
                        + "path? bench/run puts it there): " + e, e);
            }
            return names;
        }

        private static String value(String[] args, int i, String option) {
            if (i >= args.length) {
                throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
            }
            return args[i];
        }

        private static int positive(String[] args, int i, String option) {
            int n = Integer.parseInt(value(args, i, option));
            if (n < 1) {
                throw new IllegalArgumentException(option + " must be at least 1");
            }
            return n;
        }
    }
}
