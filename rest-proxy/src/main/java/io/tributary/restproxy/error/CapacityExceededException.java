package io.tributary.restproxy.error;

/**
 * A bounded resource of this proxy is used up: consumer instances, running searches, partition
 * readers, open streams. Retrying later may succeed.
 */
public final class CapacityExceededException extends RestException {

    public CapacityExceededException(String message) {
        super(message);
    }
}
