package io.tributary.restproxy.ratelimit;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TimeMeter;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One Bucket4j token bucket per caller: {@code capacity} tokens, refilled greedily at
 * {@code requestsPerSecond}; a request takes one token. Buckets of callers gone quiet are dropped
 * when the map grows past {@value #MAX_BUCKETS} (a full bucket is the same as a new one). Time
 * comes from an injected {@link TimeMeter}, so tests need not sleep. Thread-safe.
 */
public final class RateLimiter {

    static final int MAX_BUCKETS = 10_000;

    private final long requestsPerSecond;
    private final long capacity;
    private final TimeMeter time;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    public RateLimiter(RateLimitProperties properties, TimeMeter time) {
        this.requestsPerSecond = properties.requestsPerSecond();
        this.capacity = properties.capacity();
        this.time = time;
    }

    /**
     * Takes a token for {@code caller}.
     *
     * @return empty when the request may go on, else how many whole seconds to wait (at least 1)
     */
    public OptionalLong tryAcquire(String caller) {
        if (buckets.size() >= MAX_BUCKETS && !buckets.containsKey(caller)) {
            buckets.values().removeIf(bucket -> bucket.getAvailableTokens() >= capacity);
        }
        Bucket bucket = buckets.computeIfAbsent(caller, c -> Bucket.builder()
            .addLimit(limit -> limit.capacity(capacity).refillGreedy(requestsPerSecond, Duration.ofSeconds(1)))
            .withCustomTimePrecision(time)
            .build());
        ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
        if (probe.isConsumed()) {
            return OptionalLong.empty();
        }
        long nanos = probe.getNanosToWaitForRefill();
        return OptionalLong.of(Math.max(1, (nanos + 999_999_999L) / 1_000_000_000L));
    }
}
