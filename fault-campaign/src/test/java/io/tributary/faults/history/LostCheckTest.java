package io.tributary.faults.history;

import static io.tributary.faults.history.HistoryBuilder.P0;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LostCheckTest {

    @Test
    void acknowledgedValueAbsentFromTheFinalReadsIsLostEvenIfAPollSawIt() {
        History history = new HistoryBuilder()
                .ok(P0, "a", 0).ok(P0, "b", 1).ok(P0, "c", 2)
                .poll("c1", 0, HistoryBuilder.read(P0, 0, "a"), HistoryBuilder.read(P0, 1, "b"))
                .finalRead(P0, 0, "a").finalRead(P0, 2, "c")
                .build();

        CheckResult result = new HistoryChecker().check(history);

        assertThat(result.count(AnomalyKind.LOST)).isEqualTo(1);
        assertThat(result.examples().get(AnomalyKind.LOST)).singleElement()
                .satisfies(a -> assertThat(a.detail()).contains("value b", "offset 1 of t-0"));
        assertThat(result.valid()).isFalse();
        assertThat(result.acknowledged()).isEqualTo(3);
    }

    @Test
    void indeterminateAndFailedSendsAreNotLostWhetherOrNotTheyAppear() {
        History history = new HistoryBuilder()
                .ok(P0, "a", 0)
                .send(P0, "timed-out-written", Outcome.INFO)
                .send(P0, "timed-out-not-written", Outcome.INFO)
                .send(P0, "rejected", Outcome.FAIL)
                .finalRead(P0, 0, "a").finalRead(P0, 1, "timed-out-written")
                .build();

        CheckResult result = new HistoryChecker().check(history);

        assertThat(result.count(AnomalyKind.LOST)).isZero();
        assertThat(result.count(AnomalyKind.UNEXPECTED_VALUE)).isZero();
        assertThat(result.valid()).isTrue();
        assertThat(result.acknowledged()).isEqualTo(1);
    }
}
