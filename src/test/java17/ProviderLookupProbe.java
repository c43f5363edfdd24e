import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.Security;
import java.util.ServiceLoader;

/**
 * How the JDK finds the provider in the jar on JDK 17 to 21, by the JCA alone: run by MultiReleaseJarIT with that
 * JDK's source launcher. Prints one line per fact; an Error escapes and fails the run.
 */
public class ProviderLookupProbe {
    public static void main(String[] args) {
        switch (args[0]) {
            case "service-loader" -> serviceLoader();
            case "security-properties" -> securityProperties();
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    private static void serviceLoader() {
        int providers = 0;
        for (Provider p : ServiceLoader.load(Provider.class)) {
            providers++;
            if (p.getName().equals("SM3FFM")) {
                describe("service-loader", p);
            }
        }
        System.out.println("service-loader: " + providers + " providers");
    }

    /** With security.provider.13=SM3FFM: the JDK's own digests, and SM3 refused as by any provider list. */
    private static void securityProperties() {
        try {
            System.out.println("SHA-256 from " + MessageDigest.getInstance("SHA-256").getProvider().getName());
        } catch (NoSuchAlgorithmException e) {
            System.out.println("SHA-256: " + e);
        }
        try {
            System.out.println("SM3 from " + MessageDigest.getInstance("SM3").getProvider().getName());
        } catch (NoSuchAlgorithmException e) {
            System.out.println("SM3: NoSuchAlgorithmException");
        }
        Provider p = Security.getProvider("SM3FFM");
        if (p != null) {
            describe("security-properties", p);
        }
    }

    private static void describe(String how, Provider p) {
        System.out.println(how + ": " + p.getName() + " services=" + p.getServices().size() + " info=" + p.getInfo());
    }
}
