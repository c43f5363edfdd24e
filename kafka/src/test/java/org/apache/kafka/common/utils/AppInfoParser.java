package org.apache.kafka.common.utils;

/**
 * connect-file 4.3.1 (the newest on Maven Central) calls {@code AppInfoParser.getVersion()} from its
 * {@code version()} methods; Kafka 4.4.0 moved the class to {@code org.apache.kafka.common.utils.internals}. The
 * pipeline test puts this one method back on the worker's class path, and nothing else.
 */
public final class AppInfoParser {
    private AppInfoParser() {
    }

    public static String getVersion() {
        return org.apache.kafka.common.utils.internals.AppInfoParser.getVersion();
    }
}
