package io.tributary.broker;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.broker.fetchsession.FetchContext;
import java.util.Locale;
import java.util.function.ToIntFunction;

/**
 * The broker's gauges and state counters under the names Kafka's dashboards and alerts read: JMX
 * {@code kafka.server:type=ReplicaManager,...}, {@code kafka.controller:type=KafkaController,...},
 * {@code kafka.log:type=LogManager,...}, {@code kafka.network:type=RequestChannel,name=RequestQueueSize} and {@code kafka.server:type=KafkaServer,name=BrokerState}
 * as the Prometheus JMX exporter names them. Micrometer's dots become underscores, so
 * {@code kafka.server.replicamanager.underreplicatedpartitions} is scraped as
 * {@code kafka_server_replicamanager_underreplicatedpartitions}, and counters gain {@code _total}.
 *
 * <p>Each broker reports its own share; cluster totals are sums in PromQL
 * ({@code sum(kafka_controller_kafkacontroller_activecontrollercount)} is 1). The gauges read the
 * broker's live state when scraped and are 0 while it is not running. Per-topic and per-request
 * meters are in {@code io.tributary.broker.metrics}; consumer lag in {@code ConsumerLagMetrics}.
 */
final class BrokerMeters {

    private BrokerMeters() {
    }

    /** Registers the gauges of {@code broker} in {@code registry}. */
    static void bind(BrokerServer broker, MeterRegistry registry) {
        gauge(registry, "kafka.server.replicamanager.underreplicatedpartitions", broker,
            b -> b.replicaManager().underReplicatedPartitionCount(), "Partitions led here with an ISR below their replicas");
        gauge(registry, "kafka.server.replicamanager.underminisrpartitioncount", broker,
            b -> b.replicaManager().underMinIsrPartitionCount(), "Partitions led here with an ISR below min.insync.replicas");
        gauge(registry, "kafka.server.replicamanager.leadercount", broker, b -> b.replicaManager().leaderCount(),
            "Partitions led by this broker");
        gauge(registry, "kafka.server.replicamanager.partitioncount", broker, b -> b.replicaManager().partitionCount(),
            "Partitions replicated by this broker");
        gauge(registry, "kafka.controller.kafkacontroller.activecontrollercount", broker,
            b -> b.controller().isActive() ? 1 : 0, "1 on the active controller, else 0");
        gauge(registry, "kafka.controller.kafkacontroller.offlinepartitionscount", broker,
            b -> b.controller().offlinePartitionsCount(), "Partitions without a leader (on the active controller)");
        gauge(registry, "kafka.network.requestchannel.requestqueuesize", broker, BrokerServer::requestQueueSize,
            "Requests waiting for a request handler thread (at most queued.max.requests)");
        Gauge.builder("kafka.log.logmanager.offlinelogdirectorycount", broker,
                b -> b.logManager() == null ? 0 : b.logManager().offlineLogDirs().size())
            .description("Log directories offline after an I/O error (KIP-112)").register(registry);
        Gauge.builder("kafka.server.kafkaserver.brokerstate", broker, b -> b.state().code())
            .description("Broker state: 0 not running, 1 starting, 2 recovery, 3 running, 6 pending controlled "
                + "shutdown, 7 shutting down")
            .register(registry);
        bindFetchSessions(broker, registry);
        FunctionCounter.builder("kafka.server.replicamanager.isrshrinks", broker,
                b -> b.replicaManager() == null ? 0 : b.replicaManager().stats().isrShrinks())
            .description("ISR shrinks written by this broker as leader").register(registry);
        FunctionCounter.builder("kafka.server.replicamanager.isrexpands", broker,
                b -> b.replicaManager() == null ? 0 : b.replicaManager().stats().isrExpands())
            .description("ISR expansions written by this broker as leader").register(registry);
    }

    /**
     * Kafka's {@code kafka.server:type=FetchSessionCache} meters ({@code NumIncrementalFetchSessions},
     * {@code NumIncrementalFetchPartitionsCached}, {@code IncrementalFetchSessionEvictionsPerSec} as a
     * counter) and Tributary's {@code tributary.fetch.requests{session,fetcher}}: Fetch requests by
     * KIP-227 session kind (full, incremental, sessionless, session-error), which shows whether
     * consumers and followers really fetch incrementally.
     */
    private static void bindFetchSessions(BrokerServer broker, MeterRegistry registry) {
        gauge(registry, "kafka.server.fetchsessioncache.numincrementalfetchsessions", broker,
            b -> b.fetchManager().cache().size(), "Incremental fetch sessions cached (KIP-227)");
        Gauge.builder("kafka.server.fetchsessioncache.numincrementalfetchpartitionscached", broker,
                b -> b.isStarted() ? b.fetchManager().cache().partitionsCached() : 0)
            .description("Partitions held by all incremental fetch sessions").register(registry);
        FunctionCounter.builder("kafka.server.fetchsessioncache.incrementalfetchsessionevictions", broker,
                b -> b.isStarted() ? b.fetchManager().cache().evictions() : 0)
            .description("Fetch sessions evicted to make room for new ones").register(registry);
        for (FetchContext.Kind kind : FetchContext.Kind.values()) {
            for (boolean follower : new boolean[] {false, true}) {
                FunctionCounter.builder("tributary.fetch.requests", broker,
                        b -> b.isStarted() ? b.fetchManager().requests(kind, follower) : 0)
                    .tag("session", kind.name().toLowerCase(Locale.ROOT).replace('_', '-'))
                    .tag("fetcher", follower ? "follower" : "consumer")
                    .description("Fetch requests by KIP-227 session kind").register(registry);
            }
        }
    }

    private static void gauge(MeterRegistry registry, String name, BrokerServer broker, ToIntFunction<BrokerServer> value,
                              String description) {
        Gauge.builder(name, broker, b -> b.isStarted() ? value.applyAsInt(b) : 0).description(description)
            .register(registry);
    }
}
