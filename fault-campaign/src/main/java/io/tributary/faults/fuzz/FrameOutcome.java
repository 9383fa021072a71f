package io.tributary.faults.fuzz;

/** What the broker did with one fuzzed frame, as its sender saw it. */
public enum FrameOutcome {
    /** A response frame came back; the connection stays open. */
    ANSWERED,
    /** The broker closed the connection (end of stream or reset) instead of answering. */
    CLOSED,
    /** Neither within the answer timeout: the sender closed the connection. */
    TIMED_OUT,
    /**
     * The sender hung up after writing, since the broker could not or must not answer (see
     * {@link MutatedFrame#hangUp()}).
     */
    HUNG_UP
}
