package io.tributary.broker.replica;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counts of this broker's ISR changes as leader, read by the metrics layer as Kafka's
 * {@code kafka.server:type=ReplicaManager,name=IsrShrinksPerSec} and {@code IsrExpandsPerSec}
 * (Prometheus: {@code kafka_server_replicamanager_isrshrinks_total} / {@code isrexpands_total}).
 *
 * <p>Thread-safe.
 */
public final class ReplicaStats {

    private final LongAdder isrShrinks = new LongAdder();
    private final LongAdder isrExpands = new LongAdder();

    void recordIsrChange(int oldSize, int newSize) {
        if (newSize < oldSize) {
            isrShrinks.increment();
        } else if (newSize > oldSize) {
            isrExpands.increment();
        }
    }

    /** ISR shrinks written by this broker as leader since it started. */
    public long isrShrinks() {
        return isrShrinks.sum();
    }

    /** ISR expansions written by this broker as leader since it started. */
    public long isrExpands() {
        return isrExpands.sum();
    }
}
