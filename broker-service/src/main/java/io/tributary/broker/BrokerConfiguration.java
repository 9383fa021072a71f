package io.tributary.broker;

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
