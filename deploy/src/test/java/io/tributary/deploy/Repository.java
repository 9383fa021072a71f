package io.tributary.deploy;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the files these tests check live: the repository root (the parent of the deploy module),
 * given by Maven as {@code tributary.repo-root}, and the project version.
 */
public final class Repository {

    private Repository() {
    }

    /** The repository root. */
    public static Path root() {
        String configured = System.getProperty("tributary.repo-root");
        Path root = (configured != null ? Path.of(configured) : Path.of("..")).toAbsolutePath().normalize();
        if (!Files.isRegularFile(root.resolve("pom.xml")) || !Files.isDirectory(root.resolve("helm"))) {
            throw new IllegalStateException("Not the repository root: " + root
                + " (run the tests through Maven, which sets tributary.repo-root)");
        }
        return root;
    }

    /** A path relative to the repository root. */
    public static Path path(String relative) {
        return root().resolve(relative);
    }

    /** The Maven project version, which is also the chart's appVersion and the images' tag. */
    public static String projectVersion() {
        String version = System.getProperty("tributary.version");
        if (version == null || version.isBlank()) {
            throw new IllegalStateException("tributary.version is not set (run the tests through Maven)");
        }
        return version;
    }
}
