package io.tributary.faults.history;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A consumer's poll and the records it returned, in the order the client received them.
 *
 * <p>{@code group} is the consumer group when the consumer subscribed, empty when it assigned partitions itself.
 * {@code assignmentEpoch} is a counter the workload client increments whenever its position may legitimately move
 * back: a rebalance (partitions revoked or assigned) or a seek. Within one epoch a consumer reads each offset of a
 * partition at most once, in increasing order. Only {@link Outcome#OK} polls carry records.
 */
public record Poll(
        String client,
        Optional<String> group,
        long assignmentEpoch,
        long invokedNanos,
        long completedNanos,
        Outcome outcome,
        List<ConsumedRecord> records) implements Operation {

    public Poll {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(outcome, "outcome");
        records = List.copyOf(records);
        Operation.checkTimes(client, invokedNanos, completedNanos);
        if (outcome != Outcome.OK && !records.isEmpty()) {
            throw new IllegalArgumentException("poll of " + client + " is " + outcome + " but returned "
                    + records.size() + " records");
        }
    }

    /** A poll that returned {@code records}. */
    public static Poll ok(String consumer, String group, long assignmentEpoch, long invokedNanos, long completedNanos,
                          List<ConsumedRecord> records) {
        return new Poll(consumer, Optional.ofNullable(group), assignmentEpoch, invokedNanos, completedNanos,
                Outcome.OK, records);
    }
}
