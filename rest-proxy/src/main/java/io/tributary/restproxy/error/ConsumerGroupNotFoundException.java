package io.tributary.restproxy.error;

/** The consumer group does not exist, or is dead. */
public final class ConsumerGroupNotFoundException extends RestException {

    public ConsumerGroupNotFoundException(String group) {
        super("Consumer group " + group + " not found.");
    }
}
