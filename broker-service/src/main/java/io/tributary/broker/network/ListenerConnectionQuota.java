package io.tributary.broker.network;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Avg;
import org.apache.kafka.common.metrics.stats.Rate;

/**
 * One listener's part of {@link ConnectionQuotas}, as Kafka's {@code ListenerConnectionQuota}: its
 * connections, its creation rate sensor ({@code listener.name.<l>.max.connection.creation.rate}), the
 * throttle times it waited, and its meters, tagged {@code listener}:
 * {@code kafka.server.socket.server.metrics.connection.count}, {@code ...connection.accept.rate}
 * (per second), {@code ...connection.accept.throttle.time} (average of the non-zero throttle times,
 * ms, Kafka's {@code connection-accept-throttle-time}) and Tributary's counter
 * {@code tributary.network.connections.refused{reason=max-connections-per-ip}}.
 *
 * <p>Not thread-safe: guarded by the lock of its {@link ConnectionQuotas}, except {@link #count},
 * which the gauge reads without it.
 */
final class ListenerConnectionQuota {

    /** Kafka's metric group of the connection meters ({@code kafka.server:type=socket-server-metrics}). */
    static final String GROUP = "socket-server-metrics";

    final String name;
    /** Hands off to the listener's acceptor, from any thread. */
    final Runnable wake;
    final Set<ConnectionQuotas.Connection> connections = new LinkedHashSet<>();
    final Sensor rate;
    final MetricName rateName;
    final Sensor throttle;
    final Counter refusedPerIp;
    private final List<Meter> meters;
    /** Connections counted: written under the lock, read by the gauge without it. */
    volatile int count;
    /** Waiting for a slot: to be woken by the next close or limit change. */
    boolean waiting;
    /** Between a NO_SLOT and the next admission. */
    boolean blocked;
    /** Whether the start of that was logged (then its end is too). */
    boolean blockLogged;

    /**
     * @param rateConfig the config of the creation rate sensor, with the listener's limit as its quota
     */
    ListenerConnectionQuota(String name, Runnable wake, Metrics metrics, MetricConfig rateConfig, MeterRegistry registry) {
        this.name = name;
        this.wake = wake;
        rateName = metrics.metricName("connection-accept-rate", GROUP, Map.of("listener", name));
        rate = metrics.sensor("ConnectionAcceptRate-" + name, rateConfig);
        rate.add(rateName, new Rate());
        MetricName throttleName = metrics.metricName("connection-accept-throttle-time", GROUP, Map.of("listener", name));
        throttle = metrics.sensor("ConnectionRateThrottleTime-" + name);
        throttle.add(throttleName, new Avg());
        refusedPerIp = Counter.builder("tributary.network.connections.refused").tag("listener", name)
            .tag("reason", "max-connections-per-ip")
            .description("Connections closed once accepted: their address held max.connections.per.ip already")
            .register(registry);
        meters = List.of(refusedPerIp,
            Gauge.builder("kafka.server.socket.server.metrics.connection.count", this, q -> q.count)
                .tag("listener", name).description("Open connections of the listener").register(registry),
            Gauge.builder("kafka.server.socket.server.metrics.connection.accept.rate", metrics, m -> value(m, rateName))
                .tag("listener", name).description("Connections accepted per second (KIP-612)").register(registry),
            Gauge.builder("kafka.server.socket.server.metrics.connection.accept.throttle.time", metrics,
                    m -> value(m, throttleName))
                .tag("listener", name)
                .description("Average of the non-zero times accepting waited for the connection creation rate, ms")
                .register(registry));
    }

    void removeSensors(Metrics metrics) {
        metrics.removeSensor(rate.name());
        metrics.removeSensor(throttle.name());
    }

    void removeMeters(MeterRegistry registry) {
        meters.forEach(registry::remove);
    }

    /** A metric's value for a gauge: 0 when it is gone or has no value yet. */
    static double value(Metrics metrics, MetricName name) {
        KafkaMetric metric = metrics.metric(name);
        Object value = metric == null ? null : metric.metricValue();
        return value instanceof Double d && !d.isNaN() ? d : 0;
    }
}
