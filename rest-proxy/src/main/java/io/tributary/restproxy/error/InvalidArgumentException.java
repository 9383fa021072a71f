package io.tributary.restproxy.error;

/**
 * An argument the proxy or the brokers refuse as invalid: a topic name, a partition count,
 * replication factor or config, an offset outside a partition's records, a stream position.
 */
public final class InvalidArgumentException extends RestException {

    public InvalidArgumentException(String message) {
        super(message);
    }

    /** @param cause the Kafka exception that refused the argument */
    public InvalidArgumentException(String message, Throwable cause) {
        super(message, cause);
    }
}
