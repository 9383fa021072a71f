package io.tributary.restproxy.error;

/**
 * A failure the proxy reports to its caller. Subclasses name what went wrong in the proxy's and
 * Kafka's terms ({@link TopicNotFoundException}, {@link ConsumerInstanceNotFoundException},
 * {@link KafkaOperationException}, ...) and know nothing of HTTP, so the Kafka-facing classes
 * throw them; {@link RestExceptionHandler} alone maps each to an HTTP status and a Confluent error
 * code ({@link RestError}), and the message becomes the error body's {@code message}. The web
 * layer's own errors (a bad parameter, a malformed body) are {@link RestErrorException}s, which
 * name their {@link RestError} directly.
 */
public abstract class RestException extends RuntimeException {

    protected RestException(String message) {
        super(message);
    }

    protected RestException(String message, Throwable cause) {
        super(message, cause);
    }
}
