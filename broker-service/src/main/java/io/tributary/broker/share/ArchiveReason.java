package io.tributary.broker.share;

/**
 * Why a delivered record of a share-partition was archived, with the text Kafka 4.4 writes in the
 * {@code __dlq.errors.message} header of its dead-letter record (KIP-1191).
 */
public enum ArchiveReason {
    /** A member acknowledged it with REJECT. */
    REJECTED("Offset rejected by client."),
    /** Released (RELEASE, lock expiry, member leaving) at {@code share.delivery.count.limit} deliveries. */
    DELIVERY_COUNT_EXCEEDED("Offset delivery count exceeded the threshold.");

    private final String message;

    ArchiveReason(String message) {
        this.message = message;
    }

    /** Kafka's {@code __dlq.errors.message} text. */
    public String message() {
        return message;
    }
}
