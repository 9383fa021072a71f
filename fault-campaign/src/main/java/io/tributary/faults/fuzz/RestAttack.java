package io.tributary.faults.fuzz;

/** A kind of bad request {@link RestFuzzer} sends to the REST proxy; each must be answered 4xx with an error body. */
public enum RestAttack {
    /** A produce body that is not JSON: cut short, unbalanced, stray bytes, not UTF-8. */
    MALFORMED_JSON,
    /** A valid produce body with random bytes changed, deleted or inserted (may stay valid: then any non-5xx). */
    MUTATED_JSON,
    /** A body over {@code rest-proxy.max-request-body-size}, with a Content-Length or chunked. */
    HUGE_BODY,
    /** Keys or values that are not base64 in the binary embedded format. */
    BAD_BASE64,
    /** A content type the endpoint does not take: unknown embedded formats and versions, text, XML, garbage. */
    UNKNOWN_FORMAT,
    /** Fields of the wrong JSON type: records not an array, a string partition, an object as a binary value. */
    WRONG_FIELD_TYPES,
    /** Produce to a topic, or a partition, that does not exist. */
    UNKNOWN_TOPIC,
    /** Consumer requests naming a group or instance that does not exist, or with a bad body. */
    BAD_CONSUMER_REQUEST;

    /** Whether every request of this kind is bad (a mutated body may by chance still be a valid one). */
    public boolean alwaysBad() {
        return this != MUTATED_JSON;
    }
}
