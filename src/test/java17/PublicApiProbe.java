import io.github.sm3ffm.RowHasher;
import io.github.sm3ffm.SM3Provider;
import io.github.sm3ffm.X963KDFParameterSpec;

/**
 * The public API as a program on JDK 17 to 21 compiles and calls it against the jar's base: run by
 * MultiReleaseJarIT with that JDK's source launcher. Prints one line per call.
 */
public class PublicApiProbe {
    public static void main(String[] args) {
        System.out.println("isAvailable: " + SM3Provider.isAvailable());
        System.out.println("unavailability: " + SM3Provider.unavailability().map(Exception::toString).orElse("none"));
        try {
            RowHasher.of().sm3(new byte[1], 0, 1);
            System.out.println("RowHasher.sm3: returned");
        } catch (UnsupportedOperationException e) {
            System.out.println("RowHasher.sm3: " + e);
        }
        int before = java.security.Security.getProviders().length;
        SM3Provider.install();
        System.out.println("install: " + (java.security.Security.getProviders().length - before) + " providers added");
        try {
            SM3Provider.assertAvailable();
            System.out.println("assertAvailable: returned");
        } catch (java.security.ProviderException e) {
            System.out.println("assertAvailable: " + e + ", caused by " + e.getCause());
        }
        System.out.println("X963KDFParameterSpec: length " + new X963KDFParameterSpec(new byte[] {1}, null, 7).length());
    }
}
