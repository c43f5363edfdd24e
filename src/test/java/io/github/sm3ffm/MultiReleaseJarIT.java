package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.classfile.Attributes;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.FieldModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.AccessFlag;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The packaged jar on the JDKs before 22, which read its base only: stubs of the public API and of the main class
 * that say JDK 22 is needed, with no Error on the way (class path and module path, {@code ServiceLoader},
 * {@code security.provider.N}, {@code java -jar}); and the base and META-INF/versions/22 offering one public API and
 * one module descriptor, so that the stubs cannot drift from the library.
 */
class MultiReleaseJarIT {
    private static final Path PROBES = Path.of("src", "test", "java17");
    private static final String LOOKUP_PROBE = PROBES.resolve("ProviderLookupProbe.java").toString();
    private static final String MAIN_CLASS = "io/github/sm3ffm/sm3sum/Sm3Sum.class";
    private static final Set<AccessFlag> API_FLAGS = Set.of(AccessFlag.PUBLIC, AccessFlag.PROTECTED, AccessFlag.STATIC,
            AccessFlag.FINAL, AccessFlag.ABSTRACT, AccessFlag.INTERFACE, AccessFlag.ENUM, AccessFlag.ANNOTATION,
            AccessFlag.VARARGS);

    @TempDir
    Path dir;

    /** An installed JDK of that feature release, where Debian and Ubuntu put it; the test skips without one. */
    private static Path jdk(int feature) {
        Path home = Path.of("/usr/lib/jvm/java-" + feature + "-openjdk-amd64");
        assumeTrue(Files.isExecutable(home.resolve("bin/java")), "no JDK " + feature + " at " + home);
        return home;
    }

    /** The JDK's full version, as {@code Runtime.version()} gives it there, from its {@code release} file. */
    private static String runtimeVersion(Path jdk) throws IOException {
        Properties release = new Properties();
        try (InputStream in = Files.newInputStream(jdk.resolve("release"))) {
            release.load(in);
        }
        return release.getProperty("JAVA_RUNTIME_VERSION").replace("\"", "");
    }

    private static ChildJvm.Result run(Path jdk, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(jdk.resolve("bin/java").toString()));
        command.addAll(List.of(arguments));
        return ChildJvm.exec(Map.of(), command, 120);
    }

    private static String jar() throws IOException {
        return ChildJvm.packagedJar().toAbsolutePath().toString();
    }

    private static void assertStubProvider(String line, String version, ChildJvm.Result r) {
        assertTrue(r.output().contains(line + ": SM3FFM services=0 info=SM3FFM offers no service: sm3-ffm needs JDK 22 "
                + "or later (the FFM API); this is JDK " + version + "\n"), r.output());
    }

    @ParameterizedTest
    @ValueSource(ints = {17, 21})
    void serviceLoaderFindsAProviderWithoutServices(int feature) throws Exception {
        Path jdk = jdk(feature);
        String version = runtimeVersion(jdk);
        ChildJvm.Result classPath = run(jdk, "-cp", jar(), LOOKUP_PROBE, "service-loader");
        assertEquals(0, classPath.exitCode(), classPath.output());
        assertStubProvider("service-loader", version, classPath);
        ChildJvm.Result modulePath = run(jdk, "-p", jar(), "--add-modules", "io.github.sm3ffm", LOOKUP_PROBE,
                "service-loader");
        assertEquals(0, modulePath.exitCode(), modulePath.output());
        assertStubProvider("service-loader", version, modulePath);
    }

    @ParameterizedTest
    @ValueSource(ints = {17, 21})
    void providerNamedInSecurityPropertiesLeavesTheJdkProvidersWorking(int feature) throws Exception {
        Path jdk = jdk(feature);
        Path properties = Files.writeString(dir.resolve("sm3ffm.security"), "security.provider.13=SM3FFM\n");
        ChildJvm.Result r = run(jdk, "-Djava.security.properties=" + properties, "-cp", jar(), LOOKUP_PROBE,
                "security-properties");
        assertEquals(0, r.exitCode(), r.output());
        assertTrue(r.output().contains("SHA-256 from SUN\nSM3: NoSuchAlgorithmException\n"), r.output());
        assertStubProvider("security-properties", runtimeVersion(jdk), r);
    }

    @ParameterizedTest
    @ValueSource(ints = {17, 21})
    void publicApiSaysJdk22IsNeeded(int feature) throws Exception {
        Path jdk = jdk(feature);
        String reason = "sm3-ffm needs JDK 22 or later (the FFM API); this is JDK " + runtimeVersion(jdk);
        ChildJvm.Result r = run(jdk, "-cp", jar(), PROBES.resolve("PublicApiProbe.java").toString());
        assertEquals(0, r.exitCode(), r.output());
        assertTrue(r.output().contains("isAvailable: false\n"
                + "unavailability: java.lang.UnsupportedOperationException: " + reason + "\n"
                + "RowHasher.sm3: java.lang.UnsupportedOperationException: " + reason + "\n"
                + "install: 0 providers added\n"
                + "assertAvailable: java.security.ProviderException: " + reason
                + ", caused by java.lang.UnsupportedOperationException: " + reason + "\n"
                + "X963KDFParameterSpec: length 7\n"), r.output());
    }

    @ParameterizedTest
    @ValueSource(ints = {17, 21})
    void javaDashJarSaysJdk22IsNeededAndExits2(int feature) throws Exception {
        Path jdk = jdk(feature);
        for (String argument : List.of("--version", "README.md")) {
            ChildJvm.Result r = run(jdk, "-jar", jar(), argument);
            assertEquals(2, r.exitCode(), r.output());
            assertEquals("sm3sum: sm3-ffm needs JDK 22 or later (the FFM API); this is JDK " + runtimeVersion(jdk) + "\n",
                    r.output());
        }
    }

    @Test
    void baseIsForJdk17() throws Exception {
        try (JarFile base = new JarFile(jar())) {
            List<String> classes = base.stream().map(e -> e.getName())
                    .filter(n -> n.endsWith(".class") && !n.startsWith("META-INF/")).toList();
            assertTrue(classes.contains("module-info.class") && classes.contains(MAIN_CLASS), classes.toString());
            for (String name : classes) {
                int major = ClassFile.of().parse(bytes(base, name)).majorVersion();
                assertTrue(major <= ClassFile.JAVA_17_VERSION, name + " is class file version " + major);
            }
        }
    }

    @Test
    void baseAndVersion22HaveOnePublicApi() throws Exception {
        Map<String, Set<String>> stubs;
        Map<String, Set<String>> library;
        try (JarFile base = new JarFile(jar());
             JarFile versioned = new JarFile(Path.of(jar()).toFile(), true, ZipFile.OPEN_READ, Runtime.Version.parse("22"))) {
            stubs = publicApi(base);
            library = publicApi(versioned);
        }
        assertTrue(stubs.keySet().containsAll(Set.of("io/github/sm3ffm/SM3Provider.class",
                "io/github/sm3ffm/RowHasher.class", "io/github/sm3ffm/X963KDFParameterSpec.class", MAIN_CLASS)),
                stubs.keySet().toString());
        assertEquals(library.keySet(), stubs.keySet());
        for (String name : library.keySet()) {
            assertEquals(library.get(name), stubs.get(name), name);
        }
    }

    @Test
    void baseDescriptorIsTheLibrarys() throws Exception {
        ModuleDescriptor packaged;
        try (JarFile base = new JarFile(jar())) {
            packaged = ModuleDescriptor.read(base.getInputStream(base.getEntry("module-info.class")));
        }
        ModuleDescriptor library;
        try (InputStream in = Files.newInputStream(Path.of("target", "classes", "module-info.class"))) {
            library = ModuleDescriptor.read(in);
        }
        assertEquals(library.name(), packaged.name());
        assertEquals(library.exports(), packaged.exports());
        assertEquals(library.opens(), packaged.opens());
        assertEquals(library.provides(), packaged.provides());
        assertEquals(library.uses(), packaged.uses());
        assertEquals(names(library.requires()), names(packaged.requires()));
        assertTrue(packaged.packages().containsAll(library.packages()), packaged.packages().toString());
    }

    private static Set<String> names(Set<ModuleDescriptor.Requires> requires) {
        return requires.stream().map(r -> r.modifiers() + " " + r.name()).collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * The public classes of the exported package and the main class, as the jar's view gives them, each with its
     * public and protected members: access flags, descriptors, generic signatures, thrown exceptions and constants.
     */
    private static Map<String, Set<String>> publicApi(JarFile jar) {
        Map<String, Set<String>> api = new TreeMap<>();
        jar.versionedStream().map(e -> e.getName())
                .filter(n -> n.equals(MAIN_CLASS) || n.matches("io/github/sm3ffm/[^/]+\\.class"))
                .forEach(name -> {
                    ClassModel c = ClassFile.of().parse(bytes(jar, name));
                    if (c.flags().has(AccessFlag.PUBLIC)) {
                        api.put(name, members(c));
                    }
                });
        return api;
    }

    private static Set<String> members(ClassModel c) {
        Set<String> members = new TreeSet<>();
        members.add("class " + apiFlags(c.flags().flags()) + " extends "
                + c.superclass().map(ClassEntry::asInternalName).orElse("") + " implements "
                + c.interfaces().stream().map(ClassEntry::asInternalName).toList()
                + signature(c.findAttribute(Attributes.signature())));
        for (FieldModel f : c.fields()) {
            if (visible(f.flags().flags())) {
                members.add("field " + apiFlags(f.flags().flags()) + " " + f.fieldName() + " " + f.fieldType()
                        + signature(f.findAttribute(Attributes.signature()))
                        + f.findAttribute(Attributes.constantValue()).map(v -> " = " + v.constant().constantValue())
                                .orElse(""));
            }
        }
        for (MethodModel m : c.methods()) {
            if (visible(m.flags().flags())) {
                members.add("method " + apiFlags(m.flags().flags()) + " " + m.methodName() + m.methodType()
                        + signature(m.findAttribute(Attributes.signature()))
                        + m.findAttribute(Attributes.exceptions()).map(x -> " throws " + x.exceptions().stream()
                                .map(ClassEntry::asInternalName).sorted().toList()).orElse(""));
            }
        }
        return members;
    }

    private static boolean visible(Set<AccessFlag> flags) {
        return (flags.contains(AccessFlag.PUBLIC) || flags.contains(AccessFlag.PROTECTED))
                && !flags.contains(AccessFlag.SYNTHETIC) && !flags.contains(AccessFlag.BRIDGE);
    }

    private static String apiFlags(Set<AccessFlag> flags) {
        return flags.stream().filter(API_FLAGS::contains).map(f -> f.name().toLowerCase()).sorted()
                .collect(Collectors.joining(" "));
    }

    private static String signature(java.util.Optional<java.lang.classfile.attribute.SignatureAttribute> signature) {
        return signature.map(s -> " <" + s.signature().stringValue() + ">").orElse("");
    }

    private static byte[] bytes(JarFile jar, String name) {
        try (InputStream in = jar.getInputStream(jar.getJarEntry(name))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
