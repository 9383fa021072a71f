package io.tributary.adminui.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.throughput.ThroughputRecorder.Point;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The rate maths over scrapes at known times. */
class ThroughputRecorderTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private final ThroughputRecorder recorder = new ThroughputRecorder(Duration.ofMinutes(15), Duration.ofSeconds(5));

    private static Instant at(long seconds) {
        return T0.plusSeconds(seconds);
    }

    @Test
    void ratesAreTheIncreasePerSecondSummedOverBrokers() {
        recorder.record(at(0), Map.of(1, new Counters(1000, 0, 10), 2, new Counters(0, 500, 0)), Set.of());
        assertThat(recorder.points(at(0))).as("one scrape gives no rate").isEmpty();
        recorder.record(at(5), Map.of(1, new Counters(6000, 0, 60), 2, new Counters(500, 1500, 5)), Set.of());
        assertThat(recorder.points(at(5))).containsExactly(new Point(at(5), 1100, 200, 11));
        assertThat(recorder.missingBrokers()).isEmpty();
    }

    @Test
    void aCounterThatWentDownIsAResetNotANegativeRate() {
        recorder.record(at(0), Map.of(1, new Counters(1000, 1000, 100)), Set.of());
        recorder.record(at(10), Map.of(1, new Counters(50, 20, 5)), Set.of());
        Point point = recorder.points(at(10)).get(0);
        assertThat(point).isEqualTo(new Point(at(10), 5, 2, 0.5));
    }

    @Test
    void aBrokerThatCannotBeReadIsReportedAndTheOthersStillCount() {
        recorder.record(at(0), Map.of(1, new Counters(0, 0, 0), 2, new Counters(0, 0, 0)), Set.of());
        recorder.record(at(5), Map.of(1, new Counters(0, 0, 50)), Set.of(2));
        assertThat(recorder.missingBrokers()).containsExactly(2);
        assertThat(recorder.points(at(5))).extracting(Point::messagesIn).containsExactly(10.0);

        // Back again: no rate across the gap for broker 2 (its counters start over), broker 1 goes on.
        recorder.record(at(10), Map.of(1, new Counters(0, 0, 100), 2, new Counters(0, 0, 1_000_000)), Set.of());
        assertThat(recorder.missingBrokers()).isEmpty();
        assertThat(recorder.points(at(10))).extracting(Point::messagesIn).containsExactly(10.0, 10.0);
        recorder.record(at(15), Map.of(1, new Counters(0, 0, 100), 2, new Counters(0, 0, 1_000_005)), Set.of());
        assertThat(recorder.points(at(15))).extracting(Point::messagesIn).containsExactly(10.0, 10.0, 1.0);
    }

    @Test
    void everyBrokerMissingAddsNoPoint() {
        recorder.record(at(0), Map.of(1, new Counters(0, 0, 0)), Set.of());
        recorder.record(at(5), Map.of(), Set.of(1));
        assertThat(recorder.points(at(5))).isEmpty();
        assertThat(recorder.missingBrokers()).containsExactly(1);
    }

    @Test
    void theRingBufferKeepsFifteenMinutes() {
        for (int i = 0; i <= 400; i++) {
            recorder.record(at(5L * i), Map.of(1, new Counters(i, i, i)), Set.of());
        }
        List<Point> points = recorder.points(at(2000));
        assertThat(points).hasSize(181);
        assertThat(points.get(0).time()).isEqualTo(at(2000 - 900));
        assertThat(points.get(points.size() - 1).time()).isEqualTo(at(2000));
        assertThat(recorder.points(at(2000 + 900 - 1))).hasSize(1);
        assertThat(recorder.points(at(2000 + 901))).isEmpty();
    }

    @Test
    void afterAPauseTheRatesStartOver() {
        recorder.record(at(0), Map.of(1, new Counters(0, 0, 0)), Set.of(2));
        recorder.pause();
        assertThat(recorder.missingBrokers()).isEmpty();
        recorder.record(at(600), Map.of(1, new Counters(0, 0, 6000)), Set.of());
        assertThat(recorder.points(at(600))).isEmpty();
    }
}
