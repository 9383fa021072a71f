package io.tributary.broker;

import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.broker.config.BrokerBootstrapProperties;
import io.tributary.broker.config.BrokerProperties;
import io.tributary.broker.config.BrokerSecurityProperties;
import io.tributary.broker.config.ShareGroupProperties;
import io.tributary.broker.health.BrokerReadinessIndicator;
import io.tributary.broker.health.ZooKeeperHealthIndicator;
import org.apache.kafka.common.utils.Time;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the broker into Spring: its settings, the broker itself, its meters and health
 * indicators, and its start/stop with the context.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({BrokerProperties.class, BrokerSecurityProperties.class, BrokerBootstrapProperties.class,
    ShareGroupProperties.class})
public class BrokerConfiguration {

    @Bean(destroyMethod = "")
    public BrokerServer brokerServer(BrokerProperties properties, BrokerSecurityProperties security,
                                     BrokerBootstrapProperties bootstrap, ShareGroupProperties shareGroups,
                                     MeterRegistry registry) {
        return new BrokerServer(properties, security, bootstrap, shareGroups, Time.SYSTEM, registry);
    }

    /** Health {@code broker}: in the readiness group (application.yml). */
    @Bean("broker")
    public BrokerReadinessIndicator brokerHealthIndicator(BrokerServer broker) {
        return new BrokerReadinessIndicator(broker);
    }

    /** Health {@code zookeeper}: reported on its own, in no probe group. */
    @Bean("zookeeper")
    public ZooKeeperHealthIndicator zooKeeperHealthIndicator(BrokerServer broker) {
        return new ZooKeeperHealthIndicator(broker);
    }

    /**
     * Starts the broker once the web server is up and stops it before the web server stops, so the
     * health groups and metrics are served during log recovery (liveness is not yet UP then, so the
     * startup probe waits) and during controlled shutdown (readiness is OUT_OF_SERVICE then). Its
     * phase is above the web server's graceful-shutdown phase.
     */
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
                return SmartLifecycle.DEFAULT_PHASE - 512;
            }
        };
    }
}
