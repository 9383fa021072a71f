package io.tributary.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A benchmark's temp directory, removed with everything in it when the benchmark ends. */
final class WorkDirs {

    private WorkDirs() {
    }

    /** Deletes {@code dir} and everything under it; null does nothing; a failure is printed, not thrown. */
    static void delete(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            System.err.println("could not delete " + dir + ": " + e);
        }
    }
}
