package io.tributary.restproxy.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.restproxy.testing.ProxyTestBase;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class PrometheusMetricsTest extends ProxyTestBase {

    @Test
    void recordCountersAndPerEndpointLatencyHistogramsMove() {
        broker().createTopic("metrics-topic", 1);
        double producedBefore = value("restproxy_records_produced_total", "api=\"v2\"");
        double consumedBefore = value("restproxy_records_consumed_total", "api=\"partition-read\"");
        double requestsBefore = value("http_server_requests_seconds_count", "uri=\"/topics/{topic}\"");

        http.post("/topics/metrics-topic", "application/vnd.kafka.json.v2+json",
            "{\"records\":[{\"value\":1},{\"value\":2}]}");
        http.get("/topics/metrics-topic/partitions/0/records?offset=0&count=2");

        assertThat(value("restproxy_records_produced_total", "api=\"v2\"")).isEqualTo(producedBefore + 2);
        assertThat(value("restproxy_records_consumed_total", "api=\"partition-read\"")).isEqualTo(consumedBefore + 2);
        // An async request's timer is recorded as its dispatch completes, just after the client has its answer.
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
            assertThat(value("http_server_requests_seconds_count", "uri=\"/topics/{topic}\"")).isGreaterThan(requestsBefore));
        assertThat(scrape()).contains("http_server_requests_seconds_bucket{").contains("restproxy_produced_bytes_total");
    }

    private String scrape() {
        return http.get("/actuator/prometheus").text();
    }

    /** Sum of the series of {@code name} whose labels contain {@code label}; 0 when none. */
    private double value(String name, String label) {
        double sum = 0;
        Matcher line = Pattern.compile("^" + name + "\\{(.*)\\} (\\S+)$", Pattern.MULTILINE).matcher(scrape());
        while (line.find()) {
            if (line.group(1).contains(label)) {
                sum += Double.parseDouble(line.group(2));
            }
        }
        return sum;
    }
}
