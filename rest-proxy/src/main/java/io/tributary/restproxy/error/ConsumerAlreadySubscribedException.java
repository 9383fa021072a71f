package io.tributary.restproxy.error;

/** A subscription by topic list while subscribed by pattern, or the other way round. */
public final class ConsumerAlreadySubscribedException extends RestException {

    public ConsumerAlreadySubscribedException(String message) {
        super(message);
    }
}
