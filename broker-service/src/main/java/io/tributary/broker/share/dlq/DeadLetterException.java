package io.tributary.broker.share.dlq;

/**
 * A dead-letter write that failed: {@code retriable} ones (no leader yet, a timeout, a topic being
 * created) are tried again, the others (a refused topic, a record too large) are not.
 */
public final class DeadLetterException extends RuntimeException {

    private final boolean retriable;

    public DeadLetterException(String message, boolean retriable) {
        super(message);
        this.retriable = retriable;
    }

    public boolean retriable() {
        return retriable;
    }
}
