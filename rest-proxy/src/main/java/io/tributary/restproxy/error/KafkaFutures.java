package io.tributary.restproxy.error;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.kafka.common.KafkaFuture;

/**
 * Waits for the futures of Kafka's Admin client, never without bound: an Admin call that gets no
 * answer within {@value #MAX_WAIT_MS} ms (the client's own timeouts are shorter, so this only
 * happens when the client is broken) becomes an {@link OperationTimeoutException}, which may
 * succeed on retry, rather than a request that hangs forever. Knows nothing of HTTP.
 */
public final class KafkaFutures {

    static final long MAX_WAIT_MS = 60_000;

    private KafkaFutures() {
    }

    /** The value of {@code future}; a failure becomes the exception {@link KafkaErrors#wrap} makes of it. */
    public static <T> T get(KafkaFuture<T> future) {
        return get(future, cause -> null);
    }

    /**
     * The value of {@code future}. A failure becomes the exception {@code translate} makes of its
     * cause or, when that gives null, the exception {@link KafkaErrors#wrap} makes of it.
     */
    public static <T> T get(KafkaFuture<T> future, Function<Throwable, RestException> translate) {
        try {
            return future.get(MAX_WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            RestException translated = translate.apply(e.getCause());
            throw translated != null ? translated : KafkaErrors.wrap(e);
        } catch (TimeoutException e) {
            throw new OperationTimeoutException("The Kafka Admin client gave no answer within " + MAX_WAIT_MS + " ms");
        } catch (InterruptedException e) {
            throw KafkaErrors.wrap(e);
        }
    }
}
