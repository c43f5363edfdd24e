package io.github.sm3ffm.internal.libcrypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * No file of the internal packages is in an import loop: read from the compiled classes by jdeps, as anyone can
 * ({@code jdeps -verbose:class -filter:none target/classes}), with a nested class counted as its file's top-level
 * class. A sealed type naming its permitted subtypes does not count as using them.
 */
class ImportLoopTest {
    private static final String INTERNAL = "io.github.sm3ffm.internal.";

    @Test
    void noFileOfInternalIsInAnImportLoop() throws Exception {
        Path classes = Path.of(ImportLoopTest.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolveSibling("classes");
        assertTrue(Files.isDirectory(classes.resolve("io/github/sm3ffm/internal")), classes.toString());
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = jdeps.run(new PrintWriter(out), new PrintWriter(err), "-verbose:class", "-filter:none",
                classes.toString());
        assertEquals(0, rc, err.toString());
        Map<String, Set<String>> graph = fileGraph(out.toString());
        assertTrue(graph.containsKey(INTERNAL + "libcrypto.BackendChoice"), "jdeps read the facade: " + graph.keySet());
        assertEquals(List.of(), loops(withoutPermits(graph), loop -> false));
    }

    /** The check itself: a loop of two files is reported, a sealed family with its permitted subtypes is not. */
    @Test
    void aLoopIsReportedAndASealedFamilyIsNot() {
        String jdepsOutput = """
                   io.github.sm3ffm.internal.x.A -> io.github.sm3ffm.internal.x.B$Inner   io.github.sm3ffm
                   io.github.sm3ffm.internal.x.B -> io.github.sm3ffm.internal.x.C          io.github.sm3ffm
                   io.github.sm3ffm.internal.x.C$Holder -> io.github.sm3ffm.internal.x.A  io.github.sm3ffm
                   io.github.sm3ffm.internal.x.C -> java.lang.Object                      java.base
                   io.github.sm3ffm.internal.x.D -> io.github.sm3ffm.internal.x.D$Nested  io.github.sm3ffm
                   io.github.sm3ffm.internal.x.D$Nested -> io.github.sm3ffm.internal.x.D  io.github.sm3ffm
                   io.github.sm3ffm.internal.x.S -> io.github.sm3ffm.internal.x.T         io.github.sm3ffm
                   io.github.sm3ffm.internal.x.T -> io.github.sm3ffm.internal.x.S         io.github.sm3ffm
                """;
        Map<String, Set<String>> graph = fileGraph(jdepsOutput);
        assertEquals(List.of(Set.of(INTERNAL + "x.A", INTERNAL + "x.B", INTERNAL + "x.C"),
                        Set.of(INTERNAL + "x.S", INTERNAL + "x.T")),
                loops(graph, loop -> false));
        assertEquals(List.of(Set.of(INTERNAL + "x.A", INTERNAL + "x.B", INTERNAL + "x.C")),
                loops(graph, loop -> loop.contains(INTERNAL + "x.S")));
        // A sealed type and its subtypes: the permits edges go, a use beside them stays.
        String pooled = INTERNAL + "libcrypto.PooledContext";
        String sm3 = INTERNAL + "libcrypto.Sm3Context";
        String pool = INTERNAL + "libcrypto.ContextPool";
        assertEquals(List.of(), loops(withoutPermits(Map.of(pooled, Set.of(sm3), sm3, Set.of(pooled, pool),
                pool, Set.of(pooled))), loop -> false));
        assertEquals(List.of(Set.of(sm3, pool)), loops(withoutPermits(Map.of(pooled, Set.of(sm3), sm3, Set.of(pooled, pool),
                pool, Set.of(sm3))), loop -> false));
    }

    /** From jdeps' "a -> b module" lines: which internal files each internal file refers to. */
    static Map<String, Set<String>> fileGraph(String jdepsOutput) {
        Map<String, Set<String>> graph = new TreeMap<>();
        for (String line : jdepsOutput.lines().toList()) {
            String[] words = line.trim().split("\\s+");
            if (words.length < 3 || !words[1].equals("->")
                    || !words[0].startsWith(INTERNAL) || !words[2].startsWith(INTERNAL)) {
                continue;
            }
            String from = file(words[0]);
            String to = file(words[2]);
            graph.computeIfAbsent(from, k -> new TreeSet<>());
            graph.computeIfAbsent(to, k -> new TreeSet<>());
            if (!from.equals(to)) {
                graph.get(from).add(to);
            }
        }
        return graph;
    }

    private static String file(String className) {
        int nested = className.indexOf('$');
        return nested < 0 ? className : className.substring(0, nested);
    }

    /** The strongly connected components of more than one file that {@code allowed} does not accept (Tarjan's). */
    static List<Set<String>> loops(Map<String, Set<String>> graph, Predicate<Set<String>> allowed) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        List<Set<String>> loops = new ArrayList<>();
        for (String v : graph.keySet()) {
            if (!index.containsKey(v)) {
                connect(v, graph, index, low, stack, loops);
            }
        }
        loops.removeIf(loop -> loop.size() < 2 || allowed.test(loop));
        loops.sort((a, b) -> a.iterator().next().compareTo(b.iterator().next()));
        return loops;
    }

    private static void connect(String v, Map<String, Set<String>> graph, Map<String, Integer> index,
                                Map<String, Integer> low, Deque<String> stack, List<Set<String>> components) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        for (String w : graph.get(v)) {
            if (!index.containsKey(w)) {
                connect(w, graph, index, low, stack, components);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (stack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                component.add(w);
            } while (!w.equals(v));
            components.add(component);
        }
    }

    /**
     * The graph without the edges from a sealed type to the subtypes it names as permitted: naming them is the
     * {@code permits} clause, not a use, and the subtypes' edges back to it stay.
     */
    static Map<String, Set<String>> withoutPermits(Map<String, Set<String>> graph) {
        Map<String, Set<String>> pruned = new TreeMap<>();
        graph.forEach((name, refs) -> {
            Set<String> kept = new TreeSet<>(refs);
            Class<?> type = load(name);
            if (type != null && type.isSealed()) {
                for (Class<?> permitted : type.getPermittedSubclasses()) {
                    kept.remove(file(permitted.getName()));
                }
            }
            pruned.put(name, kept);
        });
        return pruned;
    }

    // Null for a class of a later release than the tests run on (META-INF/versions): none of those is sealed.
    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, ImportLoopTest.class.getClassLoader());
        } catch (ClassNotFoundException | UnsupportedClassVersionError e) {
            return null;
        }
    }
}
