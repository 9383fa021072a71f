package io.tributary.broker.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No main source file of the repository is longer than {@value #MAX_LINES} lines (issue 16: a class
 * that grows is split by role, as {@code PartitionLog}, {@code Partition}, {@code ReplicaManager},
 * {@code RebalanceCoordinator} and the REST proxy's {@code ConsumerInstance} were). The rule is the
 * repository's, checked here once: it reads every module's {@code src/main/java} from the parent
 * of the broker module's directory, the tests' working directory.
 */
class ClassSizeTest {

    private static final int MAX_LINES = 500;

    @Test
    void noMainSourceFileIsLongerThanTheLimit() throws IOException {
        Path repository = Path.of("..").toAbsolutePath().normalize();
        assertThat(repository.resolve("broker-service/src/main/java")).as("run from the broker module").isDirectory();
        List<Path> sources = new ArrayList<>();
        try (Stream<Path> modules = Files.list(repository)) {
            for (Path main : modules.map(m -> m.resolve("src/main/java")).filter(Files::isDirectory).toList()) {
                try (Stream<Path> files = Files.walk(main)) {
                    files.filter(f -> f.toString().endsWith(".java")).forEach(sources::add);
                }
            }
        }
        assertThat(sources).as("main sources of several modules")
            .anyMatch(f -> f.toString().contains("rest-proxy")).anyMatch(f -> f.toString().contains("broker-service"));
        List<String> tooLong = sources.stream()
            .filter(f -> lineCount(f) > MAX_LINES)
            .map(f -> repository.relativize(f) + ": " + lineCount(f) + " lines")
            .toList();
        assertThat(tooLong).as("main source files over %d lines; split them by role", MAX_LINES).isEmpty();
    }

    private static long lineCount(Path file) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
