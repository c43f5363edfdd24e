package io.github.sm3ffm.internal.libcrypto;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Installs {@link Faults} at the start of a test run whose JVM has {@code -D}{@value #PROPERTY}{@code =true}, before
 * any test can choose the backend: for runs that mix the failure tests with others in one JVM, such as mutation
 * testing's. A property of the tests alone: the library reads none, and without this class nothing acts on it.
 */
public final class FaultsInstaller implements LauncherSessionListener {
    static final String PROPERTY = "sm3ffm.test.installFaults";

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        if (Boolean.getBoolean(PROPERTY)) {
            Faults.install();
        }
    }
}
