package io.tributary.deploy.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Service;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The optional ServiceMonitor and PrometheusRule. */
class MetricsChartTest {

    private static final String METRICS_ON = """
        metrics:
          serviceMonitor:
            enabled: true
            labels:
              release: prometheus
          prometheusRule:
            enabled: true
            consumerLagThreshold: 2500
        """;

    @Test
    void neitherIsRenderedByDefault() {
        RenderedChart chart = HelmChart.render();
        assertThat(chart.hasKind("ServiceMonitor")).isFalse();
        assertThat(chart.hasKind("PrometheusRule")).isFalse();
    }

    @Test
    void serviceMonitorScrapesActuatorPrometheusOnceThroughTheHeadlessServices() {
        RenderedChart chart = HelmChart.render(METRICS_ON);
        GenericKubernetesResource monitor = chart.custom("ServiceMonitor").get(0);
        assertThat(monitor.getMetadata().getLabels()).containsEntry("release", "prometheus");
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) monitor.getAdditionalProperties().get("spec");
        @SuppressWarnings("unchecked")
        Map<String, Object> endpoint = ((List<Map<String, Object>>) spec.get("endpoints")).get(0);
        assertThat(endpoint).containsEntry("port", "http").containsEntry("path", "/actuator/prometheus");
        @SuppressWarnings("unchecked")
        Map<String, String> selector = (Map<String, String>) ((Map<String, Object>) spec.get("selector")).get("matchLabels");
        // Exactly the brokers' and the proxies' headless Services match: every pod is scraped once.
        List<String> selected = chart.all(Service.class).stream()
            .filter(s -> s.getMetadata().getLabels().entrySet().containsAll(selector.entrySet()))
            .map(s -> s.getMetadata().getName()).toList();
        assertThat(selected).containsExactlyInAnyOrder(HelmChart.RELEASE + "-broker-headless",
            HelmChart.RELEASE + "-rest-proxy-headless");
        for (String name : selected) {
            assertThat(chart.get(Service.class, name).getSpec().getPorts()).anyMatch(p -> p.getName().equals("http"));
        }
    }

    @Test
    void prometheusRuleAlertsOnTheSeriesKafkaOperatorsWatch() {
        Map<String, String> alerts = alerts(HelmChart.render(METRICS_ON));
        assertThat(alerts).containsOnlyKeys("TributaryUnderReplicatedPartitions", "TributaryOfflinePartitions",
            "TributaryActiveControllerCount", "TributaryUnderMinIsrPartitions", "TributaryOfflineLogDirectories",
            "TributaryConsumerGroupLag");
        String brokers = "{namespace=\"tributary\", job=\"tributary-broker-headless\"}";
        assertThat(alerts.get("TributaryUnderReplicatedPartitions"))
            .isEqualTo("sum by (namespace, pod) (kafka_server_replicamanager_underreplicatedpartitions" + brokers + ") > 0");
        assertThat(alerts.get("TributaryOfflinePartitions"))
            .isEqualTo("sum by (namespace) (kafka_controller_kafkacontroller_offlinepartitionscount" + brokers + ") > 0");
        assertThat(alerts.get("TributaryActiveControllerCount"))
            .isEqualTo("sum by (namespace) (kafka_controller_kafkacontroller_activecontrollercount" + brokers + ") != 1");
        assertThat(alerts.get("TributaryUnderMinIsrPartitions"))
            .isEqualTo("sum by (namespace, pod) (kafka_server_replicamanager_underminisrpartitioncount" + brokers + ") > 0");
        assertThat(alerts.get("TributaryOfflineLogDirectories"))
            .isEqualTo("sum by (namespace, pod) (kafka_log_logmanager_offlinelogdirectorycount" + brokers + ") > 0");
        assertThat(alerts.get("TributaryConsumerGroupLag"))
            .isEqualTo("sum by (namespace, consumergroup, topic) (max by (namespace, consumergroup, topic, partition) "
                + "(kafka_consumergroup_lag" + brokers + ")) > 2500");
    }

    @Test
    void consumerLagThresholdDefaultsToTenThousand() {
        Map<String, String> alerts = alerts(HelmChart.render("""
            metrics:
              prometheusRule:
                enabled: true
            """));
        assertThat(alerts.get("TributaryConsumerGroupLag")).endsWith(") > 10000");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> alerts(RenderedChart chart) {
        GenericKubernetesResource rule = chart.custom("PrometheusRule").get(0);
        Map<String, Object> spec = (Map<String, Object>) rule.getAdditionalProperties().get("spec");
        Map<String, String> alerts = new LinkedHashMap<>();
        for (Map<String, Object> group : (List<Map<String, Object>>) spec.get("groups")) {
            for (Map<String, Object> r : (List<Map<String, Object>>) group.get("rules")) {
                alerts.put((String) r.get("alert"), (String) r.get("expr"));
            }
        }
        return alerts;
    }
}
