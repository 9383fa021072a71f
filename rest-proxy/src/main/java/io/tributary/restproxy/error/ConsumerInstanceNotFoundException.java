package io.tributary.restproxy.error;

/**
 * No consumer instance of that id in that group on this proxy, or it closed meanwhile (expired or
 * deleted).
 */
public final class ConsumerInstanceNotFoundException extends RestException {

    public ConsumerInstanceNotFoundException(String message) {
        super(message);
    }
}
