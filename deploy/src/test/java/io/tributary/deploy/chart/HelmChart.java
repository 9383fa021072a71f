package io.tributary.deploy.chart;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import io.tributary.deploy.Repository;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * The chart in {@code helm/tributary}, rendered ({@code helm template}) and linted
 * ({@code helm lint --strict}) with the Helm library that helm-java carries, so no Helm CLI is
 * needed. Values are given as YAML text, exactly as a user's values file would give them.
 */
public final class HelmChart {

    /** Release name of every render. */
    public static final String RELEASE = "tributary";
    /** Namespace of every render. */
    public static final String NAMESPACE = "tributary";

    private HelmChart() {
    }

    /** The chart directory. */
    public static Path directory() {
        return Repository.path("helm/tributary");
    }

    /** The values files under {@code ci/}, sorted by name. */
    public static List<Path> ciValuesFiles() {
        try (Stream<Path> files = Files.list(directory().resolve("ci"))) {
            return files.filter(f -> f.getFileName().toString().endsWith(".yaml")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Renders with the default values plus the given values files, as {@code helm template -f}. */
    public static RenderedChart render(Path... valuesFiles) {
        return RenderedChart.parse(renderText(valuesFiles));
    }

    /** Renders with the default values plus {@code valuesYaml}. */
    public static RenderedChart render(String valuesYaml) {
        return render(temporaryValuesFile(valuesYaml));
    }

    /** The text {@code helm template} prints. */
    public static String renderText(Path... valuesFiles) {
        var command = new Helm(directory()).template().withName(RELEASE).withNamespace(NAMESPACE);
        for (Path file : valuesFiles) {
            command = command.withValuesFile(file);
        }
        return command.call();
    }

    /**
     * The NOTES.txt Helm prints after an install with {@code valuesYaml}, from a client-only dry
     * run ({@code helm template} leaves the notes out).
     */
    public static String notes(String valuesYaml) {
        String output = new Helm(directory()).install().withName(RELEASE).withNamespace(NAMESPACE).clientOnly().dryRun()
            .withValuesFile(temporaryValuesFile(valuesYaml)).call().getOutput();
        int start = output.indexOf("NOTES:");
        if (start < 0) {
            throw new AssertionError("No NOTES in the install output:\n" + output);
        }
        return output.substring(start);
    }

    /**
     * The error of a render that must fail (a schema violation or a {@code fail} in a template).
     *
     * @throws AssertionError when the render succeeds
     */
    public static String renderError(String valuesYaml) {
        try {
            renderText(temporaryValuesFile(valuesYaml));
        } catch (RuntimeException e) {
            return e.getMessage();
        }
        throw new AssertionError("The chart rendered with values that should be refused:\n" + valuesYaml);
    }

    /**
     * Lints the chart strictly with the default values merged with {@code valuesFile} (or the
     * defaults alone when null). helm-java's lint takes no values file, so the chart is copied to
     * a temporary directory whose values.yaml is the merge, as Helm would merge them.
     */
    public static LintResult lint(Path valuesFile) {
        if (valuesFile == null) {
            return new Helm(directory()).lint().strict().call();
        }
        Path copy = null;
        try {
            copy = Files.createTempDirectory("tributary-chart-").resolve("tributary");
            copyTree(directory(), copy);
            Map<String, Object> merged = merge(load(directory().resolve("values.yaml")), load(valuesFile));
            DumperOptions options = new DumperOptions();
            options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
            Files.writeString(copy.resolve("values.yaml"), new Yaml(options).dump(merged));
            return new Helm(copy).lint().strict().call();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            deleteTree(copy == null ? null : copy.getParent());
        }
    }

    /** The chart's values.yaml, parsed. */
    public static Map<String, Object> defaultValues() {
        return load(directory().resolve("values.yaml"));
    }

    /** Writes values YAML to a temporary file (deleted when the JVM exits). */
    public static Path temporaryValuesFile(String valuesYaml) {
        try {
            Path file = Files.createTempFile("tributary-values-", ".yaml");
            file.toFile().deleteOnExit();
            Files.writeString(file, valuesYaml);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Map<String, Object> load(Path yamlFile) {
        try {
            Map<String, Object> values = new Yaml().load(Files.readString(yamlFile));
            return values == null ? new LinkedHashMap<>() : values;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Helm's coalescing: maps merge key by key, anything else in {@code override} replaces. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> merge(Map<String, Object> base, Map<String, Object> override) {
        Map<String, Object> merged = new LinkedHashMap<>(base);
        override.forEach((key, value) -> {
            Object existing = merged.get(key);
            if (existing instanceof Map<?, ?> existingMap && value instanceof Map<?, ?> valueMap) {
                merged.put(key, merge((Map<String, Object>) existingMap, (Map<String, Object>) valueMap));
            } else if (value == null) {
                merged.remove(key);
            } else {
                merged.put(key, value);
            }
        });
        return merged;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path source : paths.toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
        }
    }

    private static void deleteTree(Path root) {
        if (root == null) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
