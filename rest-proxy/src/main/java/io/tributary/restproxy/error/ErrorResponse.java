package io.tributary.restproxy.error;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The Confluent REST Proxy error body. */
public record ErrorResponse(@JsonProperty("error_code") int errorCode, String message) {

    public static ErrorResponse of(RestException e) {
        return new ErrorResponse(RestExceptionHandler.errorFor(e).code(), e.getMessage());
    }
}
