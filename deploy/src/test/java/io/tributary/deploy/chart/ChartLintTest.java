package io.tributary.deploy.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.LintResult;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.tributary.deploy.Repository;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The chart passes {@code helm lint --strict} and renders valid Kubernetes resources for every values file. */
class ChartLintTest {

    static Stream<Path> ciValuesFiles() {
        return HelmChart.ciValuesFiles().stream();
    }

    @Test
    void ciDirectoryHoldsValuesFilesToLint() {
        assertThat(HelmChart.ciValuesFiles()).extracting(p -> p.getFileName().toString())
            .contains("full-values.yaml", "external-zookeeper-values.yaml");
    }

    @Test
    void defaultValuesPassStrictLint() {
        LintResult result = HelmChart.lint(null);
        assertThat(result.isFailed()).as("helm lint --strict: %s", result.getMessages()).isFalse();
    }

    @ParameterizedTest
    @MethodSource("ciValuesFiles")
    void everyCiValuesFilePassesStrictLint(Path valuesFile) {
        LintResult result = HelmChart.lint(valuesFile);
        assertThat(result.isFailed()).as("helm lint --strict with %s: %s", valuesFile.getFileName(),
            result.getMessages()).isFalse();
    }

    @Test
    void defaultValuesRenderOnlyResourcesTheKubernetesModelKnowsInTheReleaseNamespace() {
        RenderedChart chart = HelmChart.render();
        assertThat(chart.resources()).isNotEmpty();
        for (HasMetadata resource : chart.resources()) {
            assertThat(resource.getMetadata().getNamespace()).as(resource.getKind() + " " + resource.getMetadata().getName())
                .isEqualTo(HelmChart.NAMESPACE);
            assertThat(resource.getMetadata().getLabels()).as("labels of %s", resource.getMetadata().getName())
                .containsEntry("app.kubernetes.io/name", "tributary")
                .containsEntry("app.kubernetes.io/instance", HelmChart.RELEASE)
                .containsEntry("app.kubernetes.io/managed-by", "Helm")
                .containsKey("app.kubernetes.io/version");
        }
    }

    @ParameterizedTest
    @MethodSource("ciValuesFiles")
    void everyCiValuesFileRendersOnlyResourcesTheKubernetesModelKnows(Path valuesFile) {
        // parse() rejects documents that are not resources or carry fields the API does not know.
        assertThat(HelmChart.render(valuesFile).resources()).isNotEmpty();
    }

    @Test
    void appVersionIsTheProjectVersionSoImagesAreTaggedLikeTheJars() {
        Map<String, Object> chart = HelmChart.load(HelmChart.directory().resolve("Chart.yaml"));
        assertThat(chart.get("appVersion")).isEqualTo(Repository.projectVersion());
        assertThat(HelmChart.render().text()).contains("image: tributary-broker:" + Repository.projectVersion());
    }

    @Test
    void imageRegistryAndTagApplyToEveryTributaryImage() {
        RenderedChart chart = HelmChart.render("""
            image:
              registry: registry.example.com/tributary/
              tag: "1.2.3"
            adminUi:
              enabled: true
            """);
        assertThat(chart.text())
            .contains("image: registry.example.com/tributary/tributary-broker:1.2.3")
            .contains("image: registry.example.com/tributary/tributary-rest-proxy:1.2.3")
            .contains("image: registry.example.com/tributary/tributary-admin-ui:1.2.3");
    }

    @Test
    void schemaRejectsUnknownValues() {
        assertThat(HelmChart.renderError("""
            broker:
              replicas: 5
            """)).contains("replicas");
    }
}
