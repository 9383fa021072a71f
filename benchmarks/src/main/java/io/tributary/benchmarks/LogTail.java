package io.tributary.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.stream.Stream;

/** The last lines of a (possibly large) text file, for error reports. */
final class LogTail {

    private LogTail() {
    }

    /** The last {@code lines} lines of {@code file}, each indented, or a note if it cannot be read. */
    static String of(Path file, int lines) {
        Deque<String> tail = new ArrayDeque<>(lines);
        try (Stream<String> all = Files.lines(file, StandardCharsets.ISO_8859_1)) {
            all.forEach(line -> {
                if (tail.size() == lines) {
                    tail.removeFirst();
                }
                tail.addLast(line);
            });
        } catch (IOException | RuntimeException e) {
            return "    (cannot read " + file + ": " + e + ")";
        }
        StringBuilder out = new StringBuilder();
        tail.forEach(line -> out.append("    ").append(line).append('\n'));
        return out.toString();
    }
}
