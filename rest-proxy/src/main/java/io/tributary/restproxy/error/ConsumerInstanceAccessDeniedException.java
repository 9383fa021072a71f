package io.tributary.restproxy.error;

/**
 * The consumer instance belongs to another principal than the caller (the one that created it
 * owns it); the instance is left as it was.
 */
public final class ConsumerInstanceAccessDeniedException extends RestException {

    public ConsumerInstanceAccessDeniedException(String message) {
        super(message);
    }
}
