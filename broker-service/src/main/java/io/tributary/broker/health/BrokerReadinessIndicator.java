package io.tributary.broker.health;

import io.tributary.broker.BrokerServer;
import io.tributary.broker.BrokerState;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Health {@code broker}, in the readiness group: UP while the broker is {@link BrokerState#RUNNING}
 * (its logs are loaded and recovered and it has registered once), OUT_OF_SERVICE while it starts,
 * recovers its logs or shuts down (controlled shutdown included), with the state as detail.
 *
 * <p>It does not look at ZooKeeper: a ZooKeeper blip would otherwise take every broker out of its
 * Services at once, while brokers keep serving from their metadata cache. ZooKeeper has its own
 * indicator ({@link ZooKeeperHealthIndicator}).
 */
public final class BrokerReadinessIndicator implements HealthIndicator {

    private final BrokerServer broker;

    public BrokerReadinessIndicator(BrokerServer broker) {
        this.broker = broker;
    }

    @Override
    public Health health() {
        BrokerState state = broker.state();
        Health.Builder builder = state == BrokerState.RUNNING ? Health.up() : Health.outOfService();
        return builder.withDetail("brokerId", broker.properties().id()).withDetail("state", state.name()).build();
    }
}
