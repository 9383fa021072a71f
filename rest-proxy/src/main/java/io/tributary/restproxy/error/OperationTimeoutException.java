package io.tributary.restproxy.error;

/**
 * A Kafka client call that gave no answer in time, although the client's own timeouts are
 * shorter: the proxy stopped waiting so that no request hangs. Retrying may help.
 */
public final class OperationTimeoutException extends RestException {

    public OperationTimeoutException(String message) {
        super(message);
    }
}
