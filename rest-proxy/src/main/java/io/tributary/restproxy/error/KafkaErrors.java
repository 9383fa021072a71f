package io.tributary.restproxy.error;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Turns failures of Kafka client calls into the proxy's exceptions and names them for messages.
 * Knows nothing of HTTP: what a failure is answered is {@link RestExceptionHandler}'s. Stateless
 * and thread-safe.
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

    /**
     * The exception to throw for a failure of a Kafka client call: the proxy's own exception when
     * it is one already, else a {@link KafkaOperationException} carrying the Kafka exception. An
     * {@link InterruptedException} keeps the thread's interrupt status set.
     */
    public static RestException wrap(Throwable t) {
        Throwable cause = unwrap(t);
        if (cause instanceof RestException rest) {
            return rest;
        }
        if (t instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        return new KafkaOperationException(cause);
    }

    /** A message naming the Kafka exception, for error bodies. */
    public static String describe(Throwable t) {
        Throwable cause = unwrap(t);
        String message = cause.getMessage();
        return cause.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}
