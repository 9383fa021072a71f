package io.tributary.adminui.throughput;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where the overview's throughput chart scrapes the brokers' Prometheus metrics, and how often.
 *
 * @param brokerMetricsPort   HTTP (actuator) port of every broker: each broker of the REST proxy's broker list
 *                            is scraped at {@code http://{host}:{port}/actuator/prometheus}
 *                            ({@code admin-ui.broker-metrics-port}, default 8090)
 * @param brokerMetricsUrls   per broker id, the full metrics URL, overriding the one above for that broker
 *                            ({@code admin-ui.broker-metrics-urls.1=http://localhost:8091/actuator/prometheus};
 *                            for clusters whose brokers use different HTTP ports, as bin/cluster's)
 * @param metricsInterval     time between two scrapes; also the chart's refresh interval
 * @param metricsTimeout      connect and read timeout of one scrape
 * @param metricsIdleStop     scraping stops after this long without a {@code GET /api/throughput}
 */
@ConfigurationProperties("admin-ui")
public record ThroughputProperties(
        @DefaultValue("8090") int brokerMetricsPort,
        Map<Integer, URI> brokerMetricsUrls,
        @DefaultValue("5s") Duration metricsInterval,
        @DefaultValue("2s") Duration metricsTimeout,
        @DefaultValue("3m") Duration metricsIdleStop) {

    public ThroughputProperties {
        brokerMetricsUrls = brokerMetricsUrls == null ? Map.of() : Map.copyOf(brokerMetricsUrls);
    }

    /** The metrics URL of broker {@code id} at {@code host}. */
    public URI metricsUrl(int id, String host) {
        URI override = brokerMetricsUrls.get(id);
        return override != null ? override : URI.create("http://" + host + ":" + brokerMetricsPort + "/actuator/prometheus");
    }
}
