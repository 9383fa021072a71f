package io.tributary.faults.history;

import static io.tributary.faults.history.HistoryBuilder.P0;
import static io.tributary.faults.history.HistoryBuilder.P1;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UnavailabilityTest {

    private static final long SECOND = 1_000_000_000L;

    private static History of(Send... sends) {
        return new History(List.of(sends), new FinalReads(Map.of(), List.of()));
    }

    private static Send ok(long invoked, long completed) {
        return ok(P0, invoked, completed);
    }

    private static Send ok(TopicPartition partition, long invoked, long completed) {
        return Send.ok("p", partition, "v" + partition.partition() + "-" + invoked + "-" + completed, invoked, invoked,
                completed);
    }

    private static Send failed(Outcome outcome, long invoked, long completed) {
        return Send.unacknowledged("p", P0, "f" + invoked + "-" + completed, outcome, invoked, completed);
    }

    @Test
    void retriedSendsWithoutAnyFailureStillStallThePartition() {
        // The producer retried one send for 7 s and succeeded: no error surfaced, yet nothing was acknowledged.
        History history = of(
                ok(0, 1 * SECOND),
                ok(1 * SECOND, 8 * SECOND),
                ok(2 * SECOND, 8 * SECOND),
                ok(8 * SECOND, 9 * SECOND));

        assertThat(Unavailability.longestNanos(history)).isEqualTo(7 * SECOND);
    }

    @Test
    void failedSendsCountOnlyByTheTimeWithoutAcknowledgement() {
        History history = of(
                ok(0, 1 * SECOND),
                failed(Outcome.INFO, 1 * SECOND, 5 * SECOND),
                failed(Outcome.FAIL, 5 * SECOND, 6 * SECOND),
                ok(6 * SECOND, 8 * SECOND));

        assertThat(Unavailability.longestNanos(history)).isEqualTo(7 * SECOND);
    }

    @Test
    void failuresAfterTheLastAcknowledgementStallUntilTheLastCompletion() {
        assertThat(Unavailability.longestNanos(of(
                ok(0, 1 * SECOND), failed(Outcome.INFO, 1 * SECOND, 10 * SECOND))))
                .isEqualTo(9 * SECOND);
    }

    @Test
    void anIdleProducerStallsNothingButTheLatencyOfItsNextSend() {
        History history = of(
                ok(0, 1 * SECOND),
                ok(60 * SECOND, 61 * SECOND));

        assertThat(Unavailability.longestNanos(history)).isEqualTo(1 * SECOND);
    }

    @Test
    void producersWithoutAcksAllDoNotCount() {
        History history = of(
                ok(0, 1 * SECOND),
                failed(Outcome.INFO, 1 * SECOND, 50 * SECOND).withAcksAll(false),
                ok(1 * SECOND, 2 * SECOND));

        assertThat(Unavailability.longestNanos(history)).isEqualTo(1 * SECOND);
        assertThat(new HistoryChecker().check(history).unavailableNanos()).isEqualTo(1 * SECOND);
    }

    @Test
    void aStalledPartitionIsNotHiddenByAnotherThatKeepsAcknowledging() {
        History history = of(
                ok(P0, 0, 1 * SECOND),
                ok(P1, 1 * SECOND, 2 * SECOND),
                ok(P1, 2 * SECOND, 3 * SECOND),
                ok(P1, 3 * SECOND, 4 * SECOND),
                ok(P0, 1 * SECOND, 6 * SECOND));

        assertThat(Unavailability.longestNanos(history)).isEqualTo(5 * SECOND);
        assertThat(Unavailability.stalls(history)).extracting(Unavailability.Stall::partition)
                .contains(P0.topic() + "-" + P0.partition(), P1.topic() + "-" + P1.partition());
    }

    @Test
    void aWindowSeesOnlyTheStallsThatEndWithinIt() {
        History history = of(
                ok(0, 1 * SECOND),
                ok(1 * SECOND, 4 * SECOND),
                ok(4 * SECOND, 5 * SECOND),
                ok(5 * SECOND, 15 * SECOND),
                ok(15 * SECOND, 16 * SECOND));

        assertThat(Unavailability.longestNanos(history, 0, 4 * SECOND)).isEqualTo(1 * SECOND);
        assertThat(Unavailability.longestNanos(history, 0, 5 * SECOND)).isEqualTo(3 * SECOND);
        assertThat(Unavailability.longestNanos(history, 5 * SECOND, 16 * SECOND)).isEqualTo(10 * SECOND);
        assertThat(Unavailability.longestNanos(history, 10 * SECOND, 15 * SECOND)).isEqualTo(0);
        assertThat(Unavailability.longestNanos(history, 17 * SECOND, 20 * SECOND)).isZero();
    }

    @Test
    void anEmptyHistoryHasNoStall() {
        assertThat(Unavailability.longestNanos(of())).isZero();
        assertThat(Unavailability.stalls(of())).isEmpty();
    }
}
