package io.tributary.restproxy.http;

import io.tributary.restproxy.error.KafkaErrors;
import java.util.concurrent.CompletableFuture;
import org.springframework.web.context.request.async.DeferredResult;

/**
 * Serves a long poll asynchronously with its own servlet timeout: the poll's wait plus a margin,
 * so it never depends on the container's default async timeout (Tomcat's is 30 s, which would
 * cut a longer poll short with a 503).
 */
public final class LongPoll {

    /** Time beyond the poll's own wait for the answer to be built and written, ms. */
    static final long MARGIN_MS = 30_000;

    private LongPoll() {
    }

    /**
     * A deferred result completed by {@code result}; a failure goes to the exception handlers
     * as its cause (a REST error, or a Kafka exception).
     *
     * @param waitMs how long the poll itself may wait, ms
     */
    public static <T> DeferredResult<T> of(CompletableFuture<T> result, long waitMs) {
        DeferredResult<T> deferred = new DeferredResult<>(saturatedAdd(waitMs, MARGIN_MS));
        result.whenComplete((value, error) -> {
            if (error != null) {
                deferred.setErrorResult(KafkaErrors.unwrap(error));
            } else {
                deferred.setResult(value);
            }
        });
        return deferred;
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < a ? Long.MAX_VALUE : sum;
    }
}
