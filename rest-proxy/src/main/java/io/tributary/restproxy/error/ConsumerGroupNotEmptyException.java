package io.tributary.restproxy.error;

/** The consumer group has members, so it can be neither deleted nor have its offsets reset. */
public final class ConsumerGroupNotEmptyException extends RestException {

    public ConsumerGroupNotEmptyException(String message) {
        super(message);
    }
}
