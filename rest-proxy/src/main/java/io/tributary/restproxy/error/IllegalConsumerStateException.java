package io.tributary.restproxy.error;

/**
 * What the Kafka consumer refuses as an illegal state (its {@link IllegalStateException}, the
 * cause), e.g. an assignment while subscribed or a seek on a partition not assigned.
 */
public final class IllegalConsumerStateException extends RestException {

    public IllegalConsumerStateException(IllegalStateException cause) {
        super("Illegal state: " + cause.getMessage(), cause);
    }
}
