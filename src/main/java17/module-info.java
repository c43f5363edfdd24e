/**
 * The descriptor at the jar's base, compiled for JDK 17 with the stubs: JDK 22 and later read it too, with the
 * classes of META-INF/versions/22. Its directives are those of src/main/java/module-info.java (MultiReleaseJarIT
 * compares the two).
 */
module io.github.sm3ffm {
    exports io.github.sm3ffm;

    provides java.security.Provider with io.github.sm3ffm.SM3Provider;
}
