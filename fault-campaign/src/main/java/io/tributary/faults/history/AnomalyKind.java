package io.tributary.faults.history;

/**
 * The kinds of anomaly the checker looks for in a history, after Kafka's delivery guarantees and Jepsen's queue
 * workload. A history with none of them is valid.
 */
public enum AnomalyKind {
    /** An acknowledged send whose value the final reads do not contain. */
    LOST,
    /** One value read at two or more different offsets. */
    DUPLICATE,
    /** Two different values at the same partition offset (read, or acknowledged by a send). */
    INCONSISTENT_OFFSET,
    /**
     * Offsets of one partition out of increasing order within one poll, or an offset read twice by one consumer in
     * one assignment epoch.
     */
    NON_MONOTONIC_READ,
    /** A group's committed offset for a partition lower than the one committed before it (OK commits only). */
    COMMIT_REGRESSION,
    /**
     * A record below a group's committed offset that no member of the group read: the group moved past it without
     * consuming it.
     */
    SKIPPED_BY_GROUP,
    /** A value read that no send wrote: never sent, or sent with a definite failure. */
    UNEXPECTED_VALUE,
    /**
     * A value of an aborted transaction read by a {@code read_committed} consumer, or a transaction seen in part
     * ({@link TransactionCheck}).
     */
    ABORTED_READ
}
