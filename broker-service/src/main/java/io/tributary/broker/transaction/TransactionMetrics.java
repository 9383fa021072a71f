package io.tributary.broker.transaction;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.util.function.Supplier;

/**
 * The transaction coordinator's and the produce verification's meters, under the names Kafka's
 * dashboards read (as the Prometheus JMX exporter names them; Micrometer's dots become
 * underscores):
 * <ul>
 *   <li>{@code kafka_server_transaction_coordinator_metrics_partition_load_time_max} (and
 *       {@code _sum}, {@code _count}, so the average): ms to load a {@code __transaction_state}
 *       partition when this broker becomes its leader (Kafka's {@code partition-load-time-max/avg});</li>
 *   <li>{@code kafka_server_addpartitionstotxnmanager_verificationtimems} (count, sum, max): ms from
 *       the start of a produce's verification with the coordinator to its answer (KIP-890);</li>
 *   <li>{@code kafka_server_addpartitionstotxnmanager_verificationfailurerate_total}: partitions
 *       whose verification failed;</li>
 *   <li>{@code kafka_coordinator_transaction_transactionmarkerchannelmanager_pendingmarkers}: the
 *       transactions whose markers are being written or retried (Kafka's marker channel queues).</li>
 * </ul>
 *
 * <p>Thread-safe.
 */
public final class TransactionMetrics {

    private final MeterRegistry registry;
    private final DistributionSummary partitionLoadTime;
    private final DistributionSummary verificationTime;
    private final Counter verificationFailures;

    public TransactionMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.partitionLoadTime = DistributionSummary.builder("kafka.server.transaction.coordinator.metrics.partition.load.time")
            .description("ms to load a __transaction_state partition led by this broker").baseUnit("ms").register(registry);
        this.verificationTime = DistributionSummary.builder("kafka.server.addpartitionstotxnmanager.verificationtimems")
            .description("ms from a transactional produce's verification request to the coordinator's answer (KIP-890)")
            .register(registry);
        this.verificationFailures = Counter.builder("kafka.server.addpartitionstotxnmanager.verificationfailurerate")
            .description("Partitions of transactional produces the coordinator did not verify").register(registry);
    }

    /** Meters that go nowhere, for a coordinator built without a registry (tests). */
    public static TransactionMetrics unregistered() {
        return new TransactionMetrics(new CompositeMeterRegistry());
    }

    void partitionLoaded(long ms) {
        partitionLoadTime.record(ms);
    }

    void verified(long ms, int failedPartitions) {
        verificationTime.record(ms);
        if (failedPartitions > 0) {
            verificationFailures.increment(failedPartitions);
        }
    }

    /** Registers the gauge of pending markers, read from {@code pending} when scraped. */
    void pendingMarkers(Supplier<Number> pending) {
        Gauge.builder("kafka.coordinator.transaction.transactionmarkerchannelmanager.pendingmarkers", pending,
                p -> p.get().doubleValue()).strongReference(true)
            .description("Transactions whose markers are being written or retried").register(registry);
    }
}
