package io.tributary.deploy.docker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The patterns of a {@code .dockerignore}: a path is left out of the build context when the last
 * pattern matching it or one of its parent directories is not an exception ({@code !pattern}).
 */
public final class DockerIgnore {

    private final List<String> patterns;

    private DockerIgnore(List<String> patterns) {
        this.patterns = patterns;
    }

    /** Reads a .dockerignore; a missing file excludes nothing. */
    public static DockerIgnore read(Path file) {
        if (!Files.exists(file)) {
            return new DockerIgnore(List.of());
        }
        try {
            return new DockerIgnore(Files.readAllLines(file).stream().map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether a path, relative to the context root with '/' separators, is left out of the context. */
    public boolean excludes(String relativePath) {
        boolean excluded = false;
        for (String pattern : patterns) {
            boolean exception = pattern.startsWith("!");
            String glob = (exception ? pattern.substring(1) : pattern).replaceAll("^/+|/+$", "");
            var matcher = FileSystems.getDefault().getPathMatcher("glob:" + glob);
            for (Path p = Path.of(relativePath); p != null; p = p.getParent()) {
                if (matcher.matches(p)) {
                    excluded = !exception;
                    break;
                }
            }
        }
        return excluded;
    }
}
