package io.tributary.broker.health;

import io.tributary.broker.cluster.KafkaZkClient;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Health {@code zookeeper}: UP while the broker's ZooKeeper client is connected, DOWN while it is
 * disconnected (the broker keeps serving from its metadata cache, and its session may survive),
 * UNKNOWN before the broker has connected. Reported on {@code /actuator/health} and
 * {@code /actuator/health/zookeeper}, not in the readiness or liveness groups.
 */
public final class ZooKeeperHealthIndicator implements HealthIndicator {

    private final BrokerStatus broker;

    public ZooKeeperHealthIndicator(BrokerStatus broker) {
        this.broker = broker;
    }

    @Override
    public Health health() {
        KafkaZkClient zk = broker.zkClient();
        if (zk == null) {
            return Health.unknown().withDetail("state", "not connected yet").build();
        }
        Health.Builder builder = zk.isConnected() ? Health.up() : Health.down();
        return builder.withDetail("connect", broker.properties().useEmbeddedZookeeper()
            ? "embedded" : broker.properties().zookeeperConnect()).build();
    }
}
