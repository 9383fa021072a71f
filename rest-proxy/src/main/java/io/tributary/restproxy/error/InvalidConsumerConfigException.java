package io.tributary.restproxy.error;

/**
 * A consumer instance setting that is not valid: a value of the create request, or settings
 * Kafka's consumer refuses.
 */
public final class InvalidConsumerConfigException extends RestException {

    /** @param detail what is wrong; the message is {@code "Invalid consumer configuration: " + detail} */
    public InvalidConsumerConfigException(String detail) {
        super("Invalid consumer configuration: " + detail);
    }
}
