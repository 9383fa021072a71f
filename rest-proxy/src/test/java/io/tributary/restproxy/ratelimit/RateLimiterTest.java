package io.tributary.restproxy.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.bucket4j.TimeMeter;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RateLimiterTest {

    /** A clock the test moves by hand. */
    private static final class ManualTime implements TimeMeter {
        long nanos;

        @Override
        public long currentTimeNanos() {
            return nanos;
        }

        @Override
        public boolean isWallClockBased() {
            return false;
        }
    }

    private final ManualTime time = new ManualTime();

    @Test
    void burstPassesThenCallerWaitsForRefill() {
        RateLimiter limiter = new RateLimiter(new RateLimitProperties(2, 3), time);

        assertThat(limiter.tryAcquire("User:alice")).isEmpty();
        assertThat(limiter.tryAcquire("User:alice")).isEmpty();
        assertThat(limiter.tryAcquire("User:alice")).isEmpty();
        assertThat(limiter.tryAcquire("User:alice")).isEqualTo(OptionalLong.of(1));

        time.nanos += TimeUnit.MILLISECONDS.toNanos(500);
        assertThat(limiter.tryAcquire("User:alice")).isEmpty();
        assertThat(limiter.tryAcquire("User:alice")).isPresent();
    }

    @Test
    void eachCallerHasItsOwnBucket() {
        RateLimiter limiter = new RateLimiter(new RateLimitProperties(1, 1), time);

        assertThat(limiter.tryAcquire("User:alice")).isEmpty();
        assertThat(limiter.tryAcquire("User:alice")).isPresent();
        assertThat(limiter.tryAcquire("User:bob")).isEmpty();
    }

    @Test
    void retryAfterRoundsUpToWholeSeconds() {
        RateLimiter limiter = new RateLimiter(new RateLimitProperties(1, 5), time);
        for (int i = 0; i < 5; i++) {
            assertThat(limiter.tryAcquire("User:alice")).isEmpty();
        }

        time.nanos += TimeUnit.MILLISECONDS.toNanos(100);

        assertThat(limiter.tryAcquire("User:alice")).isEqualTo(OptionalLong.of(1));
    }

    @Test
    void burstDefaultsToTheRate() {
        assertThat(new RateLimitProperties(7, 0).capacity()).isEqualTo(7);
        assertThat(new RateLimitProperties(0, 0).enabled()).isFalse();
    }
}
