package io.tributary.faults.history;

import static io.tributary.faults.history.HistoryBuilder.P0;
import static io.tributary.faults.history.HistoryBuilder.read;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class InconsistentOffsetCheckTest {

    @Test
    void twoValuesReadAtOneOffsetAreInconsistent() {
        History history = new HistoryBuilder()
                .send(P0, "a", Outcome.INFO).send(P0, "b", Outcome.INFO)
                .poll("c1", 0, read(P0, 0, "a"))
                .finalRead(P0, 0, "b")
                .build();

        CheckResult result = new HistoryChecker().check(history);

        assertThat(result.count(AnomalyKind.INCONSISTENT_OFFSET)).isEqualTo(1);
        assertThat(result.examples().get(AnomalyKind.INCONSISTENT_OFFSET).get(0).detail())
                .isEqualTo("offset 0 of t-0 was seen holding [a, b]");
        assertThat(result.count(AnomalyKind.DUPLICATE)).isZero();
    }

    @Test
    void aValueReadAtAnOffsetAcknowledgedForAnotherIsInconsistent() {
        // "a" was acknowledged at offset 0 but the log holds "b" there and "a" at offset 1: a leader change rewrote it.
        History history = new HistoryBuilder()
                .send(P0, "b", Outcome.INFO).ok(P0, "a", 0)
                .finalRead(P0, 0, "b").finalRead(P0, 1, "a")
                .build();

        CheckResult result = new HistoryChecker().check(history);

        assertThat(result.count(AnomalyKind.INCONSISTENT_OFFSET)).isEqualTo(1);
        assertThat(result.count(AnomalyKind.LOST)).isZero();
    }

    @Test
    void threeValuesAtOneOffsetAreOneAnomaly() {
        History history = new HistoryBuilder()
                .ok(P0, "a", 0).send(P0, "b", Outcome.INFO).send(P0, "c", Outcome.INFO)
                .poll("c1", 0, read(P0, 0, "b"))
                .finalRead(P0, 0, "c").finalRead(P0, 1, "a")
                .build();

        assertThat(new InconsistentOffsetCheck().check(history)).hasSize(1);
    }
}
