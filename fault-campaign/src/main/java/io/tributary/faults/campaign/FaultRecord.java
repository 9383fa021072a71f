package io.tributary.faults.campaign;

import java.util.Objects;
import java.util.Optional;

/**
 * One fault of a campaign run as it happened, in monotonic nanoseconds of the campaign's JVM (the history's clock):
 * when it started, when the heal began, and when the cluster had recovered (ZooKeeper quorum and the topic's full ISR);
 * {@code failure} says what went wrong if it could not be made, healed or recovered from. Immutable.
 */
public record FaultRecord(
        String kind,
        String description,
        long startNanos,
        long healNanos,
        long recoveredNanos,
        Optional<String> failure) {

    public FaultRecord {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(failure, "failure");
    }

    /** Seconds from the start of the heal to recovery; NaN if the cluster did not recover. */
    public double recoverySeconds() {
        return failure.isPresent() ? Double.NaN : (recoveredNanos - healNanos) / 1e9;
    }

    /** Seconds the fault was held. */
    public double holdSeconds() {
        return (healNanos - startNanos) / 1e9;
    }
}
