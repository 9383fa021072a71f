package io.tributary.broker.cluster;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.apache.kafka.common.TopicPartition;

/**
 * A condition for {@link MetadataCache#waitFor}: every partition of some topics has had a leader
 * since the condition was made (CreateTopics waits for it before answering, as Kafka's controller
 * answers once the leaders are elected).
 *
 * <p>Each check resumes at the first partition the previous check found without a leader, so the
 * checks made while the states of a topic of n partitions arrive (one check per state) cost O(n) in
 * all, not O(n) each. A partition found with a leader is not checked again. False until the metadata
 * holds every topic's assignment. Thread-safe (checks are serialized).
 */
public final class LeadersElected implements BooleanSupplier {

    private final MetadataCache metadataCache;
    private final List<String> topics;
    /** The partitions not yet seen with a leader, in partition order; null until every assignment is known. */
    private Deque<TopicPartition> pending;

    public LeadersElected(MetadataCache metadataCache, List<String> topics) {
        this.metadataCache = metadataCache;
        this.topics = List.copyOf(topics);
    }

    @Override
    public synchronized boolean getAsBoolean() {
        if (pending == null) {
            Deque<TopicPartition> all = new ArrayDeque<>();
            for (String topic : topics) {
                Optional<TopicAssignment> assignment = metadataCache.topic(topic);
                if (assignment.isEmpty()) {
                    return false;
                }
                assignment.get().replicas().keySet().stream().sorted()
                    .forEach(partition -> all.add(new TopicPartition(topic, partition)));
            }
            pending = all;
        }
        while (!pending.isEmpty()) {
            if (!metadataCache.partitionState(pending.peekFirst()).map(LeaderAndIsr::hasLeader).orElse(false)) {
                return false;
            }
            pending.pollFirst();
        }
        return true;
    }
}
