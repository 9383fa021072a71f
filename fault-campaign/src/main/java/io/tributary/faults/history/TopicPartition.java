package io.tributary.faults.history;

import java.util.Objects;

/** A partition of a topic, as the workload names it; {@code partition} is 0-based. */
public record TopicPartition(String topic, int partition) implements Comparable<TopicPartition> {

    public TopicPartition {
        Objects.requireNonNull(topic, "topic");
        if (partition < 0) {
            throw new IllegalArgumentException("partition " + partition + " of " + topic + " is negative");
        }
    }

    @Override
    public int compareTo(TopicPartition other) {
        int byTopic = topic.compareTo(other.topic);
        return byTopic != 0 ? byTopic : Integer.compare(partition, other.partition);
    }

    @Override
    public String toString() {
        return topic + "-" + partition;
    }
}
