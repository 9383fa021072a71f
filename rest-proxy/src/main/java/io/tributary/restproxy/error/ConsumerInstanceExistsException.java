package io.tributary.restproxy.error;

/**
 * The group already has a consumer instance of the name asked for, on this proxy or on another
 * replica.
 */
public final class ConsumerInstanceExistsException extends RestException {

    public ConsumerInstanceExistsException() {
        super("Consumer with specified consumer ID already exists in the specified consumer group.");
    }
}
