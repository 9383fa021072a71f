package io.tributary.faults.history;

import static io.tributary.faults.history.HistoryBuilder.P0;
import static io.tributary.faults.history.HistoryBuilder.P1;
import static io.tributary.faults.history.HistoryBuilder.read;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DuplicateCheckTest {

    @Test
    void oneValueAtTwoOffsetsIsOneDuplicate() {
        History history = new HistoryBuilder()
                .ok(P0, "a", 0).send(P0, "b", Outcome.INFO)
                .poll("c1", 0, read(P0, 0, "a"), read(P0, 1, "b"), read(P0, 2, "b"))
                .finalRead(P0, 0, "a").finalRead(P0, 1, "b").finalRead(P0, 2, "b")
                .build();

        CheckResult result = new HistoryChecker().check(history);

        assertThat(result.count(AnomalyKind.DUPLICATE)).isEqualTo(1);
        assertThat(result.examples().get(AnomalyKind.DUPLICATE).get(0).detail())
                .isEqualTo("value b was read at [t-0@1, t-0@2]");
        assertThat(result.count(AnomalyKind.INCONSISTENT_OFFSET)).isZero();
    }

    @Test
    void oneValueInTwoPartitionsIsADuplicate() {
        History history = new HistoryBuilder()
                .ok(P0, "a", 0)
                .finalRead(P0, 0, "a").finalRead(P1, 0, "a")
                .build();

        assertThat(new DuplicateCheck().check(history)).hasSize(1);
    }

    @Test
    void reReadingTheSameOffsetIsNoDuplicate() {
        History history = new HistoryBuilder()
                .ok(P0, "a", 0)
                .poll("c1", 0, read(P0, 0, "a"))
                .poll("c2", 0, read(P0, 0, "a"))
                .finalRead(P0, 0, "a")
                .build();

        assertThat(new HistoryChecker().check(history).valid()).isTrue();
    }
}
