package io.tributary.restproxy.error;

import org.springframework.http.HttpStatus;

/**
 * The error codes of the Confluent REST Proxy API that this proxy answers, with their HTTP
 * status. The numbers are part of the API: clients switch on them, so they never change.
 * Error bodies are {@code {"error_code": <code>, "message": "..."}}. Web layer only: which
 * failure gets which entry is decided in one place, {@link RestExceptionHandler#errorFor}.
 */
public enum RestError {
    BAD_REQUEST(HttpStatus.BAD_REQUEST, 400),
    KAFKA_AUTHENTICATION(HttpStatus.UNAUTHORIZED, 40101),
    KAFKA_AUTHORIZATION(HttpStatus.FORBIDDEN, 40301),
    NOT_FOUND(HttpStatus.NOT_FOUND, 404),
    TOPIC_NOT_FOUND(HttpStatus.NOT_FOUND, 40401),
    PARTITION_NOT_FOUND(HttpStatus.NOT_FOUND, 40402),
    CONSUMER_INSTANCE_NOT_FOUND(HttpStatus.NOT_FOUND, 40403),
    METHOD_NOT_ALLOWED(HttpStatus.METHOD_NOT_ALLOWED, 405),
    NOT_ACCEPTABLE(HttpStatus.NOT_ACCEPTABLE, 406),
    /** A {@code GET .../records} asked for an embedded format other than the instance's. */
    CONSUMER_FORMAT_MISMATCH(HttpStatus.NOT_ACCEPTABLE, 40601),
    /** A subscription by topic list while subscribed by pattern, or the other way round. */
    /** A v3 resource conflict: the topic exists, the group is not empty. */
    CONFLICT(HttpStatus.CONFLICT, 409),
    CONSUMER_ALREADY_SUBSCRIBED(HttpStatus.CONFLICT, 40901),
    CONSUMER_ALREADY_EXISTS(HttpStatus.CONFLICT, 40902),
    /** What the Kafka consumer refuses as an illegal state, e.g. assign while subscribed. */
    ILLEGAL_STATE(HttpStatus.CONFLICT, 40903),
    /** A share consumer instance's last records are not all acknowledged yet, so it may not poll again. */
    SHARE_BATCH_NOT_ACKNOWLEDGED(HttpStatus.CONFLICT, 40904),
    /** An acknowledgement names a record the share consumer instance does not hold (any more). */
    SHARE_RECORD_NOT_ACQUIRED(HttpStatus.CONFLICT, 40905),
    PAYLOAD_TOO_LARGE(HttpStatus.CONTENT_TOO_LARGE, 413),
    UNSUPPORTED_MEDIA_TYPE(HttpStatus.UNSUPPORTED_MEDIA_TYPE, 415),
    /** Malformed JSON, a field of the wrong type, bad base64. */
    UNPROCESSABLE_ENTITY(HttpStatus.UNPROCESSABLE_CONTENT, 422),
    INVALID_CONSUMER_CONFIG(HttpStatus.UNPROCESSABLE_CONTENT, 42204),
    /** The caller went over {@code rest-proxy.rate-limit.*}. */
    TOO_MANY_REQUESTS(HttpStatus.TOO_MANY_REQUESTS, 42901),
    INTERNAL_SERVER_ERROR(HttpStatus.INTERNAL_SERVER_ERROR, 500),
    /** A Kafka error that retrying will not fix. */
    KAFKA_ERROR(HttpStatus.INTERNAL_SERVER_ERROR, 50002),
    /** A Kafka error that may go away on retry (timeouts, leader changes). */
    KAFKA_RETRIABLE_ERROR(HttpStatus.INTERNAL_SERVER_ERROR, 50003),
    SERVICE_UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE, 503);

    private final HttpStatus status;
    private final int code;

    RestError(HttpStatus status, int code) {
        this.status = status;
        this.code = code;
    }

    public HttpStatus status() {
        return status;
    }

    public int code() {
        return code;
    }

    /** An exception carrying this error and {@code message}, for the web layer's own errors. */
    public RestErrorException exception(String message) {
        return new RestErrorException(this, message);
    }
}
