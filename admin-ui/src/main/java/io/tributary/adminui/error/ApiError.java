package io.tributary.adminui.error;

/**
 * The error body of every {@code /api} endpoint.
 *
 * @param status    the HTTP status, repeated for the page's convenience
 * @param errorCode the REST proxy's {@code error_code} when the error came from it (e.g. 40401), else null
 * @param message   what went wrong, for a person: the proxy's (Kafka's) message when it came from there
 */
public record ApiError(int status, Integer errorCode, String message) {
}
