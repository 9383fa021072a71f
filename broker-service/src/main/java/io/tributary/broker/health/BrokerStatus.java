package io.tributary.broker.health;

import io.tributary.broker.cluster.BrokerState;
import io.tributary.broker.cluster.KafkaZkClient;
import io.tributary.broker.config.BrokerProperties;

/**
 * What the health indicators read of a broker (the broker itself implements it), so this package
 * depends on the broker's state and settings, not on the class that wires the broker.
 *
 * <p>Read from actuator threads at any point of the broker's life, before start and after stop
 * included: implementations must be safe to call from any thread at any time and must not block.
 */
public interface BrokerStatus {

    /** The broker's settings. */
    BrokerProperties properties();

    /** Where the broker is in its life. */
    BrokerState state();

    /**
     * Whether the broker is running and has, since it started, been in the ISR of every partition
     * it follows whose leader is alive; once true it stays true until the broker stops.
     */
    boolean hasCaughtUp();

    /** Partitions the broker follows with a live leader and is not in the ISR of (0 when not running). */
    int followerPartitionsOutOfSync();

    /** The broker's ZooKeeper client, or {@code null} before the broker has connected. */
    KafkaZkClient zkClient();
}
