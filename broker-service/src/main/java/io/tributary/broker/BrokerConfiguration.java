package io.tributary.broker;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.tributary.broker.config.BrokerProperties;
import org.apache.kafka.common.utils.Time;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the broker into Spring: its settings, the broker itself, and its start/stop with the context. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(BrokerProperties.class)
public class BrokerConfiguration {

    @Bean(destroyMethod = "")
    public BrokerServer brokerServer(BrokerProperties properties) {
        return new BrokerServer(properties, Time.SYSTEM);
    }

    /**
     * The number of log directories taken offline after an I/O error (KIP-112), under the name
     * Kafka's dashboards read: {@code kafka.log:type=LogManager,name=OfflineLogDirectoryCount}
     * becomes the Prometheus series {@code kafka_log_logmanager_offlinelogdirectorycount}.
     */
    @Bean
    public MeterBinder offlineLogDirectoryCount(BrokerServer broker) {
        return registry -> Gauge.builder("kafka.log.logmanager.offlinelogdirectorycount",
                broker, b -> b.logManager() == null ? 0 : b.logManager().offlineLogDirs().size())
            .description("Log directories offline after an I/O error")
            .register(registry);
    }

    /**
     * Replication and controller meters under the names Kafka's dashboards and alerts read (JMX
     * {@code kafka.server:type=ReplicaManager,...} and {@code kafka.controller:type=KafkaController,...}
     * as the Prometheus JMX exporter names them). Each broker reports its own share; cluster totals
     * are sums in PromQL ({@code sum(kafka_controller_kafkacontroller_activecontrollercount)} is 1).
     */
    @Bean
    public MeterBinder replicationMeters(BrokerServer broker) {
        return registry -> {
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
            FunctionCounter.builder("kafka.server.replicamanager.isrshrinks", broker,
                    b -> b.replicaManager() == null ? 0 : b.replicaManager().stats().isrShrinks())
                .description("ISR shrinks written by this broker as leader").register(registry);
            FunctionCounter.builder("kafka.server.replicamanager.isrexpands", broker,
                    b -> b.replicaManager() == null ? 0 : b.replicaManager().stats().isrExpands())
                .description("ISR expansions written by this broker as leader").register(registry);
        };
    }

    private static void gauge(io.micrometer.core.instrument.MeterRegistry registry, String name, BrokerServer broker,
                              java.util.function.ToIntFunction<BrokerServer> value, String description) {
        Gauge.builder(name, broker, b -> b.isStarted() ? value.applyAsInt(b) : 0).description(description)
            .register(registry);
    }

    /** Starts the broker with the context and stops it first on shutdown (before the web server). */
    @Bean
    public SmartLifecycle brokerLifecycle(BrokerServer broker) {
        return new SmartLifecycle() {
            private volatile boolean running;

            @Override
            public void start() {
                broker.startup();
                running = true;
            }

            @Override
            public void stop() {
                broker.shutdown();
                running = false;
            }

            @Override
            public boolean isRunning() {
                return running;
            }

            @Override
            public int getPhase() {
                return 0;
            }
        };
    }
}
