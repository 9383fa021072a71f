package io.tributary.broker.cluster;

import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * Receives cluster changes from the {@link MetadataCache}, in order, on its event thread.
 * Implementations may block briefly (disk, ZooKeeper) but must not wait on the event thread itself.
 */
public interface MetadataListener {

    /** A partition's leadership node was created or changed. */
    default void onPartitionStateChanged(TopicPartition tp, LeaderAndIsr state) {
    }

    /** A partition's leadership node was deleted (its topic is being deleted). */
    default void onPartitionRemoved(TopicPartition tp) {
    }

    /** A topic was created or its assignment changed (e.g. partitions added). */
    default void onTopicChanged(TopicAssignment assignment) {
    }

    /** A topic's node was deleted. */
    default void onTopicRemoved(String topic) {
    }

    /** A topic's config overrides changed. */
    default void onTopicConfigChanged(String topic, Map<String, String> overrides) {
    }

    /**
     * A dynamic broker config node changed ({@code /config/brokers/{entity}}; emptied or deleted:
     * an empty map).
     *
     * @param entity a broker id, or {@code <default>} for every broker
     */
    default void onBrokerConfigChanged(String entity, Map<String, String> configs) {
    }

    /** A broker registered or went away. */
    default void onBrokersChanged() {
    }

    /** The controller changed; -1 when there is none. */
    default void onControllerChanged(int controllerId) {
    }

    /** A topic was marked for deletion. */
    default void onTopicDeletionRequested(String topic) {
    }
}
