package io.tributary.restproxy.error;

/**
 * A Kafka client call failed. The cause is the Kafka client's exception (or the
 * {@link InterruptedException} that ended the wait), and the message names it; what it means
 * to the caller follows from the cause's type (Kafka's {@code RetriableException}s may succeed on
 * retry).
 */
public final class KafkaOperationException extends RestException {

    public KafkaOperationException(Throwable cause) {
        super(KafkaErrors.describe(cause), cause);
    }
}
