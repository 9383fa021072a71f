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

    /**
     * A new temp directory named {@code prefix...}, with {@code cleanUp} (which should stop what the
     * benchmark started and {@link #delete} the directory) run at JVM exit too, so that an interrupted
     * benchmark leaves no broker running.
     */
    static Path create(String prefix, Runnable cleanUp) throws IOException {
        Path dir = Files.createTempDirectory(prefix);
        Runtime.getRuntime().addShutdownHook(new Thread(cleanUp, "benchmark-cleanup"));
        return dir;
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
