package io.github.sm3ffm.internal.libcrypto;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What the loader tells a user who must act: each message names the remedy first, then what was found, so
 * that the first line of a stack trace is enough to fix the launch or the system.
 */
final class LoadingHints {
    /** The loader's property ({@link LibCrypto#PATH_PROPERTY}), declared here so that the hints need no loader. */
    static final String PATH_PROPERTY = "sm3ffm.libcrypto.path";
    static final String NATIVE_ACCESS = "launch with --enable-native-access=io.github.sm3ffm on the module path,"
            + " or --enable-native-access=ALL-UNNAMED on the class path";

    private LoadingHints() {
    }

    /**
     * A value of {@value #PATH_PROPERTY} that names a directory, or a library name where a file is
     * expected; a directory that holds one of {@code names} gets that file suggested.
     */
    static String notAFile(Path path, List<String> names) {
        String message = "not a file: " + PATH_PROPERTY + " takes the path of libcrypto";
        if (Files.isDirectory(path)) {
            for (String name : names) {
                if (Files.isRegularFile(path.resolve(name))) {
                    return message + ", such as " + path.resolve(name);
                }
            }
            return message + ", not a directory";
        }
        return message + " (leave it unset to find " + String.join(", ", names) + " by name)";
    }

    /** A library that has libcrypto's symbols only through its dependency {@code definer}, as libssl has. */
    static String notLibCrypto(Path definer) {
        return "not libcrypto: it takes OpenSSL_version_num from " + definer + "; set " + PATH_PROPERTY
                + " to that file";
    }

    /** Whether {@code file} defines the symbol the dynamic linker found in {@code definer}; false when unknown. */
    static boolean isSameFile(Path file, Path definer) {
        try {
            return Files.isSameFile(file, definer);
        } catch (IOException e) {
            return false;
        }
    }

    /** The JVM denies native access: every candidate would fail alike, so the message says it once. */
    static String nativeAccessDenied(IllegalCallerException cause) {
        return "OpenSSL 3 libcrypto with SM3 is unavailable: " + NATIVE_ACCESS + " (" + cause.getMessage() + ")";
    }

    /** No candidate name could be opened: the system lacks OpenSSL's library package. */
    static String install() {
        return "; install OpenSSL 3's libcrypto (Debian 12 and Ubuntu 22.04: libssl3; Debian 13 and Ubuntu 24.04:"
                + " libssl3t64; RHEL and Fedora: openssl-libs; Alpine: libcrypto3), or set " + PATH_PROPERTY
                + " to its file";
    }
}
