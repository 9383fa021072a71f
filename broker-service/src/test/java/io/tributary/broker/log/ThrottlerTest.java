package io.tributary.broker.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.MockTime;
import java.time.Duration;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;

/** The cleaner's I/O throttle, as Kafka's {@code Throttler}, on a simulated clock. */
class ThrottlerTest {

    private final MockTime time = new MockTime();

    /** {@code calls} observations of {@code bytes} each, 1 ms of work apart; the simulated ms they took. */
    private long run(Throttler throttler, int calls, int bytes) {
        long start = time.milliseconds();
        for (int i = 0; i < calls; i++) {
            time.sleep(1);
            throttler.maybeThrottle(bytes);
        }
        return time.milliseconds() - start;
    }

    /**
     * Asserts that {@code calls} observations of {@code bytes} took the time {@code rate} allows:
     * at most that plus the work itself, at least that less the last period, which ends unmeasured.
     */
    private static void assertTookRateTime(long elapsedMs, int calls, int bytes, double rate) {
        double totalMs = (double) calls * bytes / rate * 1000;
        double lastPeriodMs = 301.0 * bytes / rate * 1000;
        assertThat((double) elapsedMs).isBetween(totalMs - lastPeriodMs, totalMs + calls);
    }

    @Test
    void aFasterCallerSleepsUntilItsAverageIsTheDesiredRate() {
        Throttler throttler = new Throttler(100_000, 300, time);
        // 10 MB, which 1 ms per 10 KB would do in 1 s: at 100 KB/s it takes about 100 s.
        long elapsedMs = run(throttler, 1_000, 10_000);
        assertTookRateTime(elapsedMs, 1_000, 10_000, 100_000);
        assertThat(elapsedMs).isGreaterThan(60_000);
    }

    @Test
    void aSlowerCallerAndAnUnlimitedOneNeverSleep() {
        assertThat(run(new Throttler(100_000, 300, time), 1_000, 10)).isEqualTo(1_000);
        assertThat(run(new Throttler(Double.MAX_VALUE, 300, time), 1_000, 10_000_000)).isEqualTo(1_000);
    }

    @Test
    void aNewRateAppliesFromTheNextPeriod() {
        Throttler throttler = new Throttler(100_000, 300, time);
        throttler.updateDesiredRatePerSec(1_000_000);
        assertTookRateTime(run(throttler, 1_000, 10_000), 1_000, 10_000, 1_000_000);
        throttler.updateDesiredRatePerSec(Double.MAX_VALUE);
        assertThat(run(throttler, 1_000, 10_000)).isEqualTo(1_000);
    }

    @Test
    void wakeUpEndsASleepUnderWay() throws Exception {
        Throttler throttler = new Throttler(1, 0, Time.SYSTEM);
        Thread sleeper = new Thread(() -> throttler.maybeThrottle(1_000_000_000));
        sleeper.start();
        // A wake-up before the sleep of about 30 years starts is only counted: keep waking it.
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            throttler.wakeUp();
            sleeper.join(50);
            return !sleeper.isAlive();
        });
    }
}
