package io.tributary.broker;

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
