package io.tributary.broker.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No main source file of the broker is longer than {@value #MAX_LINES} lines (issue 16: a class
 * that grows is split by role, as {@code PartitionLog}, {@code Partition}, {@code ReplicaManager}
 * and {@code RebalanceCoordinator} were). Reads the sources from {@code src/main/java}, the module's directory being the tests'
 * working directory.
 */
class ClassSizeTest {

    private static final int MAX_LINES = 500;

    @Test
    void noMainSourceFileIsLongerThanTheLimit() throws IOException {
        Path sources = Path.of("src", "main", "java");
        assertThat(sources).as("the broker's main sources, from the module's directory").isDirectory();
        List<String> tooLong;
        try (Stream<Path> files = Files.walk(sources)) {
            tooLong = files.filter(f -> f.toString().endsWith(".java"))
                .filter(f -> lineCount(f) > MAX_LINES)
                .map(f -> f + ": " + lineCount(f) + " lines")
                .toList();
        }
        assertThat(tooLong).as("main source files over %d lines; split them by role", MAX_LINES).isEmpty();
    }

    private static long lineCount(Path file) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.count();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
