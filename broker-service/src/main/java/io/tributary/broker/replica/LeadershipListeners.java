package io.tributary.broker.replica;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.common.TopicPartition;

/**
 * The {@link PartitionLeadershipListener}s of this broker (the group coordinator), told by the
 * role changes and the log-directory failure handling. Thread-safe.
 */
final class LeadershipListeners {

    private final List<PartitionLeadershipListener> listeners = new CopyOnWriteArrayList<>();

    void add(PartitionLeadershipListener listener) {
        listeners.add(listener);
    }

    void becameLeader(TopicPartition tp, int leaderEpoch) {
        listeners.forEach(l -> l.onBecomeLeader(tp, leaderEpoch));
    }

    void resigned(TopicPartition tp) {
        listeners.forEach(l -> l.onResign(tp));
    }
}
