package io.tributary.broker.producer;

/**
 * A producer's transaction verification under way on one partition (KIP-890 part 1): its guard,
 * when it started, and the lowest sequence and latest epoch seen among the batches waiting for it.
 * A batch with a higher sequence in that epoch is refused (OUT_OF_ORDER_SEQUENCE_NUMBER) until the
 * lowest one is written, so a retried lower batch cannot be overtaken.
 *
 * <p>Not thread-safe: owned by a {@link ProducerStateManager}, used under the log's lock.
 */
final class VerificationStateEntry {

    private final long startMs;
    private final VerificationGuard guard = new VerificationGuard();
    private int lowestSequence;
    private short epoch;

    VerificationStateEntry(long startMs, int sequence, short epoch) {
        this.startMs = startMs;
        this.lowestSequence = sequence;
        this.epoch = epoch;
    }

    long startMs() {
        return startMs;
    }

    VerificationGuard guard() {
        return guard;
    }

    int lowestSequence() {
        return lowestSequence;
    }

    short epoch() {
        return epoch;
    }

    /** A lower sequence in the same epoch, or any sequence of a newer epoch, becomes the lowest. */
    void maybeUpdateLowestSequenceAndEpoch(int sequence, short incomingEpoch) {
        if (incomingEpoch == epoch && sequence < lowestSequence) {
            lowestSequence = sequence;
        }
        if (incomingEpoch > epoch) {
            epoch = incomingEpoch;
            lowestSequence = sequence;
        }
    }
}
