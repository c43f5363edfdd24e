package io.github.sm3ffm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The vector files' common format (OpenSSL's evp test files and the like): records of "Key = value" lines
 * separated by blank lines, '#' comments, and "[name]" lines that open a section. Each record carries its
 * section under the key {@value #SECTION}; a line without '=' is a key with an empty value.
 */
final class Stanzas {
    static final String SECTION = "[section]";

    private Stanzas() {
    }

    static List<Map<String, String>> read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Map<String, String>> out = new ArrayList<>();
        String section = "";
        Map<String, String> current = new LinkedHashMap<>();
        for (String raw : lines) {
            String line = raw.strip();
            if (line.startsWith("#")) {
                continue;
            }
            if (line.isEmpty()) {
                if (!current.isEmpty()) {
                    out.add(current);
                    current = new LinkedHashMap<>();
                }
            } else if (line.startsWith("[")) {
                section = line;
            } else {
                if (current.isEmpty()) {
                    current.put(SECTION, section);
                }
                int eq = line.indexOf('=');
                if (eq < 0) {
                    current.put(line, "");
                } else {
                    current.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
                }
            }
        }
        if (!current.isEmpty()) {
            out.add(current);
        }
        return out;
    }
}
