package io.tributary.faults.history;

import java.util.List;
import java.util.Objects;

/**
 * A transaction of a transactional producer, from {@code beginTransaction} to the end of its commit or abort: the
 * records it sent and how it ended. {@link Outcome#OK}: {@code commitTransaction} returned, so every write is
 * committed; {@link Outcome#FAIL}: {@code abortTransaction} returned, so none is visible to {@code read_committed}
 * readers; {@link Outcome#INFO}: the producer failed on the way (a timeout, fencing), so the transaction may have
 * committed or aborted, but as a whole. Immutable.
 */
public record Transaction(
        String client,
        List<TransactionalWrite> writes,
        long invokedNanos,
        long completedNanos,
        Outcome outcome) implements Operation {

    public Transaction {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(outcome, "outcome");
        writes = List.copyOf(writes);
        Operation.checkTimes(client, invokedNanos, completedNanos);
    }
}
