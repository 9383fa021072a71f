package io.tributary.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.testing.MockTime;
import org.junit.jupiter.api.Test;

/** One line per key per interval; the next line after the interval counts the ones left out. */
class IntervalLogTest {

    private final MockTime time = new MockTime();

    @Test
    void linesWithinTheIntervalAreLeftOutAndCounted() {
        IntervalLog log = new IntervalLog(10_000, time);
        assertThat(log.allow("per-ip")).isZero();
        assertThat(log.allow("per-ip")).isEqualTo(IntervalLog.SUPPRESS);
        assertThat(log.allow("per-ip")).isEqualTo(IntervalLog.SUPPRESS);
        assertThat(log.allow("blocked:EXTERNAL")).as("a key of its own").isZero();

        time.advance(10_000);
        long suppressed = log.allow("per-ip");
        assertThat(suppressed).isEqualTo(2);
        assertThat(log.more(suppressed)).isEqualTo(" (2 more like it not logged in the last 10000 ms)");
        assertThat(log.more(0)).isEmpty();
    }

    @Test
    void zeroIntervalLetsEveryLineThrough() {
        IntervalLog log = new IntervalLog(0, time);
        assertThat(log.allow("per-ip")).isZero();
        assertThat(log.allow("per-ip")).isZero();
    }
}
