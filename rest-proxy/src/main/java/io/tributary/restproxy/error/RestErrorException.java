package io.tributary.restproxy.error;

/**
 * A {@link RestException} that names its {@link RestError} itself: what controllers, filters and
 * the security entry point raise for errors of the HTTP request (a missing parameter, a malformed
 * body, an unsupported content type, too many requests). Made by {@link RestError#exception}; the
 * Kafka-facing classes never raise it.
 */
public final class RestErrorException extends RestException {

    private final RestError error;

    public RestErrorException(RestError error, String message) {
        super(message);
        this.error = error;
    }

    public RestError error() {
        return error;
    }
}
