package io.github.sm3ffm.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.runner.IterationType;

/**
 * {@code heap.growth}: how fast the heap that survives a collection grew through the fork, in MB/s. An
 * implementation that frees its native memory through the GC (a Cleaner, a finalizer, an automatic arena)
 * keeps every object until the GC has seen it twice; when it makes them faster than the collections retire
 * them, they pile up in the old generation and each collection costs more, so its time per operation depends
 * on how long the fork has run. One that settles keeps the same live heap from one collection to the next.
 * The figure comes once per fork, after its last measured iteration: the least-squares slope of the heap in
 * use after each collection against the time it ended, from the second collection on (the first carries the
 * JVM's start), or nothing when fewer than two collections a second apart are left.
 */
public final class HeapGrowthProfiler implements InternalProfiler {
    static final String METRIC = "heap.growth";

    /** Seconds since the JVM started and MB in use after each collection, in the order they ended. */
    private final List<double[]> afterGc = new ArrayList<>();
    private int measured;

    public HeapGrowthProfiler() {
        Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName)
                .collect(Collectors.toSet());
        for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((NotificationEmitter) gc).addNotificationListener((n, handback) -> {
                if (!n.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
                    return;
                }
                var info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData()).getGcInfo();
                // Eden's content after a pause that did not collect it (a remark) is no survivor.
                long used = info.getMemoryUsageAfterGc().entrySet().stream()
                        .filter(e -> heapPools.contains(e.getKey()) && !e.getKey().contains("Eden"))
                        .map(Map.Entry::getValue).mapToLong(MemoryUsage::getUsed).sum();
                synchronized (afterGc) {
                    afterGc.add(new double[] {info.getEndTime() / 1000.0, used / 1e6});
                }
            }, null, null);
        }
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams,
                                                       IterationParams iterationParams, IterationResult result) {
        if (iterationParams.getType() != IterationType.MEASUREMENT || ++measured < iterationParams.getCount()) {
            return List.of();
        }
        List<double[]> points;
        synchronized (afterGc) {
            points = List.copyOf(afterGc);
        }
        double slope = slope(points);
        return Double.isNaN(slope) ? List.of()
                : List.of(new ScalarResult(METRIC, slope, "MB/s", AggregationPolicy.AVG));
    }

    /**
     * The least-squares slope of {time s, MB} points, without the first; NaN when fewer than two are left or
     * they span less than a second.
     */
    static double slope(List<double[]> points) {
        List<double[]> p = points.size() > 1 ? points.subList(1, points.size()) : List.of();
        if (p.size() < 2 || p.get(p.size() - 1)[0] - p.get(0)[0] < 1.0) {
            return Double.NaN;
        }
        double t = 0;
        double m = 0;
        for (double[] x : p) {
            t += x[0];
            m += x[1];
        }
        t /= p.size();
        m /= p.size();
        double num = 0;
        double den = 0;
        for (double[] x : p) {
            num += (x[0] - t) * (x[1] - m);
            den += (x[0] - t) * (x[0] - t);
        }
        return num / den;
    }

    @Override
    public String getDescription() {
        return "growth of the heap retained after each collection (MB/s)";
    }
}
