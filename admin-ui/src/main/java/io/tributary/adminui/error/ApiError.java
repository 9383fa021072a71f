package io.tributary.adminui.error;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The error body of every {@code /api} endpoint.
 *
 * @param status    the HTTP status, repeated for the page's convenience
 * @param errorCode the REST proxy's {@code error_code} when the error came from it (e.g. 40401), else null
 * @param message   what went wrong, for a person: the proxy's (Kafka's) message when it came from there
 * @param proxy     set only when no REST proxy answered at all: where the UI looks for it (its URL, or
 *                  the discovery service); pages then wait for it and try again. Left out of the JSON
 *                  when null.
 */
public record ApiError(int status, Integer errorCode, String message,
        @JsonInclude(JsonInclude.Include.NON_NULL) String proxy) {

    /** An error that is not about reaching the proxy. */
    public ApiError(int status, Integer errorCode, String message) {
        this(status, errorCode, message, null);
    }
}
