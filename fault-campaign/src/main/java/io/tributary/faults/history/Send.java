package io.tributary.faults.history;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * A producer's send of one record with a unique value.
 *
 * <p>Invariant: an {@link Outcome#OK} send has the partition and the offset the broker acknowledged; a failed or
 * indeterminate one has no offset. The partition of a send that did not complete OK is present only if the client
 * chose it. {@code acksAll} says whether the producer ran with {@code acks=all}; only those sends count towards
 * {@link Unavailability}.
 */
public record Send(
        String client,
        String topic,
        OptionalInt partition,
        String value,
        boolean acksAll,
        long invokedNanos,
        long completedNanos,
        Outcome outcome,
        OptionalLong offset) implements Operation {

    public Send {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(offset, "offset");
        Operation.checkTimes(client, invokedNanos, completedNanos);
        if ((outcome == Outcome.OK) != (partition.isPresent() && offset.isPresent())) {
            throw new IllegalArgumentException("send of " + value + " by " + client + " is " + outcome
                    + " with partition " + partition + " and offset " + offset
                    + ": exactly the OK sends have an acknowledged partition and offset");
        }
    }

    /** An acknowledged send: the broker answered {@code offset} in {@code partition}. */
    public static Send ok(String producer, TopicPartition partition, String value, long offset,
                          long invokedNanos, long completedNanos) {
        return new Send(producer, partition.topic(), OptionalInt.of(partition.partition()), value, true,
                invokedNanos, completedNanos, Outcome.OK, OptionalLong.of(offset));
    }

    /** A send that failed ({@link Outcome#FAIL}) or whose outcome is unknown ({@link Outcome#INFO}). */
    public static Send unacknowledged(String producer, TopicPartition partition, String value, Outcome outcome,
                                      long invokedNanos, long completedNanos) {
        return new Send(producer, partition.topic(), OptionalInt.of(partition.partition()), value, true,
                invokedNanos, completedNanos, outcome, OptionalLong.empty());
    }

    /** The same send as made by a producer with (or without) {@code acks=all}. */
    public Send withAcksAll(boolean all) {
        return new Send(client, topic, partition, value, all, invokedNanos, completedNanos, outcome, offset);
    }

    /** The acknowledged partition, if the send is OK. */
    public Optional<TopicPartition> acknowledgedPartition() {
        return outcome == Outcome.OK ? Optional.of(new TopicPartition(topic, partition.getAsInt())) : Optional.empty();
    }
}
