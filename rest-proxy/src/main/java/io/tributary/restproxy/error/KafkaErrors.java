package io.tributary.restproxy.error;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Maps exceptions of the Kafka clients to REST errors, as the Confluent REST Proxy does: unknown
 * topic 40401, authentication 40101, authorization 40301, retriable errors 50003, other Kafka
 * errors 50002. Stateless and thread-safe.
 */
public final class KafkaErrors {

    private KafkaErrors() {
    }

    /** The cause of an {@link ExecutionException} or {@link CompletionException}, else {@code t}. */
    public static Throwable unwrap(Throwable t) {
        Throwable cause = t;
        while ((cause instanceof ExecutionException || cause instanceof CompletionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** The REST error for a failure of a Kafka client call. */
    public static RestError errorFor(Throwable t) {
        Throwable cause = unwrap(t);
        if (cause instanceof RestException rest) {
            return rest.error();
        }
        if (cause instanceof UnknownTopicOrPartitionException) {
            return RestError.TOPIC_NOT_FOUND;
        }
        if (cause instanceof AuthenticationException) {
            return RestError.KAFKA_AUTHENTICATION;
        }
        if (cause instanceof AuthorizationException) {
            return RestError.KAFKA_AUTHORIZATION;
        }
        if (cause instanceof RetriableException) {
            return RestError.KAFKA_RETRIABLE_ERROR;
        }
        return RestError.KAFKA_ERROR;
    }

    /** The exception to throw for a failure of a Kafka client call. */
    public static RestException toRest(Throwable t) {
        Throwable cause = unwrap(t);
        if (cause instanceof RestException rest) {
            return rest;
        }
        if (t instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        return new RestException(errorFor(cause), describe(cause), cause);
    }

    /** A message naming the Kafka exception, for error bodies. */
    public static String describe(Throwable t) {
        Throwable cause = unwrap(t);
        String message = cause.getMessage();
        return cause.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}
