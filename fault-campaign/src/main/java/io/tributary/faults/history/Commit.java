package io.tributary.faults.history;

import java.util.Objects;

/**
 * A consumer's offset commit for one partition of its group: {@code offset} is the next offset to read, as
 * Kafka's OffsetCommit takes it.
 */
public record Commit(
        String client,
        String group,
        TopicPartition partition,
        long offset,
        long invokedNanos,
        long completedNanos,
        Outcome outcome) implements Operation {

    public Commit {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(outcome, "outcome");
        Operation.checkTimes(client, invokedNanos, completedNanos);
        if (offset < 0) {
            throw new IllegalArgumentException("commit of offset " + offset + " for " + partition + " is negative");
        }
    }
}
