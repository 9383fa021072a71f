package io.tributary.restproxy.error;

/**
 * An outcome that becomes an HTTP error body: thrown by controllers and services, turned into
 * a response in one place, {@link RestExceptionHandler}.
 */
public class RestException extends RuntimeException {

    private final RestError error;

    public RestException(RestError error, String message) {
        super(message);
        this.error = error;
    }

    public RestException(RestError error, String message, Throwable cause) {
        super(message, cause);
        this.error = error;
    }

    public RestError error() {
        return error;
    }
}
