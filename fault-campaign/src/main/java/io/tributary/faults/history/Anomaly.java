package io.tributary.faults.history;

import java.util.Objects;

/** One anomaly found in a history: its kind and a sentence with the values, offsets and clients involved. */
public record Anomaly(AnomalyKind kind, String detail) {

    public Anomaly {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(detail, "detail");
    }

    @Override
    public String toString() {
        return kind + ": " + detail;
    }
}
