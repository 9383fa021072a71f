package io.tributary.restproxy.http;

import io.tributary.restproxy.error.KafkaErrors;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;
import org.springframework.web.context.request.async.DeferredResult;

/**
 * Serves a long poll asynchronously with its own servlet timeout: the poll's wait plus a margin,
 * so it never depends on the container's default async timeout (Tomcat's is 30 s, which would
 * cut a longer poll short). When the request ends before the poll does (the container times it
 * out, or reports the client gone), the poll is cancelled, so an abandoned read takes no records.
 */
public final class LongPoll {

    /** Time beyond the poll's own wait for the answer to be built and written, ms. */
    static final long MARGIN_MS = 30_000;

    private LongPoll() {
    }

    /**
     * A deferred result completed by {@code poll} mapped through {@code answer}; a failure goes to
     * the exception handlers as its cause (a REST error, or a Kafka exception).
     *
     * @param poll     the read; cancelled when the request ends first
     * @param waitMs   how long the poll itself may wait, ms
     * @param answer   builds the response; runs on {@code executor}, never on the thread that completed the
     *                 poll (an instance's poll thread or the shared timer, which must not wait for JSON)
     */
    public static <R, T> DeferredResult<T> of(CompletableFuture<R> poll, long waitMs, Function<R, T> answer,
            Executor executor) {
        DeferredResult<T> deferred = new DeferredResult<>(saturatedAdd(waitMs, MARGIN_MS));
        deferred.onTimeout(() -> poll.cancel(false));
        deferred.onError(error -> poll.cancel(false));
        poll.thenApplyAsync(answer, executor).whenComplete((value, error) -> {
            if (error != null) {
                deferred.setErrorResult(KafkaErrors.unwrap(error));
            } else {
                deferred.setResult(value);
            }
        });
        return deferred;
    }

    /**
     * The wait a request asks for: {@code requested} ms when positive (at most {@code maxMs}),
     * else {@code defaultMs}, as the Confluent proxy reads its {@code timeout} parameter.
     */
    public static long waitMs(Long requested, long defaultMs, long maxMs) {
        if (requested == null || requested <= 0) {
            return Math.min(defaultMs, maxMs);
        }
        return Math.min(requested, maxMs);
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < a ? Long.MAX_VALUE : sum;
    }
}
