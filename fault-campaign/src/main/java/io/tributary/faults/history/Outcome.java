package io.tributary.faults.history;

/**
 * How a workload client's operation completed, in Jepsen's three-valued sense.
 */
public enum Outcome {
    /** The operation took effect, and the client knows it (a send acknowledged with its offset). */
    OK,
    /** The operation definitely did not take effect (a non-retriable error before the record was written). */
    FAIL,
    /** Indeterminate: a timeout or a disconnect; the operation may or may not have taken effect. */
    INFO
}
