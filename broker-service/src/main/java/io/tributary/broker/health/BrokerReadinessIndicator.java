package io.tributary.broker.health;

import io.tributary.broker.cluster.BrokerState;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Health {@code broker}, in the readiness group: UP while the broker is {@link BrokerState#RUNNING}
 * (its logs are loaded and recovered and it has registered once) and has caught up once since it
 * started ({@link BrokerStatus#hasCaughtUp()}: in the ISR of every partition it follows whose
 * leader is alive); OUT_OF_SERVICE while it starts, recovers its logs, catches up or shuts down
 * (controlled shutdown included), with the state as detail. Catching up is part of it because a
 * StatefulSet's rolling update moves to the next broker as soon as this one is Ready: restarting
 * the next one before this one is back in its ISRs would take partitions below
 * min.insync.replicas, and the one after that would leave them without a leader.
 *
 * <p>It does not look at ZooKeeper: a ZooKeeper blip would otherwise take every broker out of its
 * Services at once, while brokers keep serving from their metadata cache. ZooKeeper has its own
 * indicator ({@link ZooKeeperHealthIndicator}).
 */
public final class BrokerReadinessIndicator implements HealthIndicator {

    private final BrokerStatus broker;

    public BrokerReadinessIndicator(BrokerStatus broker) {
        this.broker = broker;
    }

    @Override
    public Health health() {
        BrokerState state = broker.state();
        boolean ready = broker.hasCaughtUp();
        Health.Builder builder = ready ? Health.up() : Health.outOfService();
        builder.withDetail("brokerId", broker.properties().id()).withDetail("state", state.name());
        if (state == BrokerState.RUNNING && !ready) {
            builder.withDetail("followerPartitionsOutOfSync", broker.followerPartitionsOutOfSync());
        }
        return builder.build();
    }
}
