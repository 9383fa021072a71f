package io.tributary.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.deploy.Repository;
import io.tributary.deploy.chart.HelmChart;
import io.tributary.deploy.chart.RenderedChart;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code k8s/tributary.yaml}, the plain manifests for kubectl users, is the chart's default render.
 * Run with {@code -Dk8s.regenerate=true} to rewrite it from the chart (see k8s/README.md).
 */
class PlainManifestsTest {

    static final String HEADER = """
        # Tributary for kubectl: the Helm chart helm/tributary rendered with its default values as
        # release "tributary" in namespace "tributary". Generated, do not edit: change the chart and
        # regenerate (k8s/README.md). The images are built from the Dockerfiles of the repository.
        """;

    @Test
    void plainManifestsEqualTheChartsDefaultRender() throws IOException {
        Path manifests = Repository.path("k8s/tributary.yaml");
        String expected = HEADER + HelmChart.renderText();
        if (Boolean.getBoolean("k8s.regenerate")) {
            Files.writeString(manifests, expected);
        }
        assertThat(manifests).as("k8s/tributary.yaml; regenerate it with "
            + "`mvn -B -pl deploy verify -Dtest=PlainManifestsTest -Dk8s.regenerate=true` after changing the chart").exists();
        String actual = Files.readString(manifests);
        if (!actual.equals(expected)) {
            throw new AssertionError("k8s/tributary.yaml is not the chart's default render ("
                + firstDifference(actual, expected) + "); regenerate it with "
                + "`mvn -B -pl deploy verify -Dtest=PlainManifestsTest -Dk8s.regenerate=true` (see k8s/README.md)");
        }
    }

    private static String firstDifference(String actual, String expected) {
        String[] a = actual.split("\n", -1);
        String[] e = expected.split("\n", -1);
        for (int i = 0; i < Math.max(a.length, e.length); i++) {
            String found = i < a.length ? a[i] : "<end of file>";
            String wanted = i < e.length ? e[i] : "<end of file>";
            if (!found.equals(wanted)) {
                return "line " + (i + 1) + " is \"" + found + "\", the render has \"" + wanted + "\"";
            }
        }
        return "they differ";
    }

    @Test
    void plainManifestsAreValidKubernetesResourcesInTheTributaryNamespace() throws IOException {
        RenderedChart manifests = RenderedChart.parse(Files.readString(Repository.path("k8s/tributary.yaml")));
        assertThat(manifests.resources()).isNotEmpty()
            .allSatisfy(r -> assertThat(r.getMetadata().getNamespace()).isEqualTo("tributary"));
    }
}
