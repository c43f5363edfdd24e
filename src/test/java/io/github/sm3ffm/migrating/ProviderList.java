package io.github.sm3ffm.migrating;

import java.security.Provider;
import java.security.Security;
import java.util.List;

/**
 * The JCA's provider list as a test found it, put back afterwards: the recipes add and reorder providers, which
 * are global to the JVM that runs every other test too.
 */
final class ProviderList {
    private final List<Provider> before = List.of(Security.getProviders());

    void restore() {
        for (Provider p : Security.getProviders()) {
            Security.removeProvider(p.getName());
        }
        for (Provider p : before) {
            Security.addProvider(p);
        }
    }

    /** The provider that a provider-less {@code getInstance(algorithm)} of this type would use. */
    static String first(String type, String algorithm) {
        return Security.getProviders(type + "." + algorithm)[0].getName();
    }
}
