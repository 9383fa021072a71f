package io.tributary.broker.replica;

import io.tributary.broker.cluster.LeaderAndIsr;
import java.util.function.BiConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Writes a leader's change of its partition's ISR (shrink or expand) to the cluster's state,
 * conditionally on the version of the state the leader last saw. Kafka's ZooKeeper-mode
 * leaders wrote the partition state node themselves; KRaft's send AlterPartition (KIP-497).
 */
public interface IsrUpdater {

    /**
     * Writes {@code proposed} (same leader and leader epoch, new ISR) if the stored state still
     * has {@code proposed.zkVersion()}. Never blocks the caller, and never calls {@code callback}
     * on the caller's thread (the caller may hold locks the callback takes).
     *
     * @param callback gets the new version of the stored state, or the error when the state
     *                 changed meanwhile or the write failed (the leader then waits for the newer state)
     */
    void update(TopicPartition tp, LeaderAndIsr proposed, BiConsumer<Integer, Throwable> callback);
}
