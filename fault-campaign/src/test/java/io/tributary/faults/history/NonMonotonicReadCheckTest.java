package io.tributary.faults.history;

import static io.tributary.faults.history.HistoryBuilder.P0;
import static io.tributary.faults.history.HistoryBuilder.P1;
import static io.tributary.faults.history.HistoryBuilder.read;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NonMonotonicReadCheckTest {

    private final HistoryBuilder sent = new HistoryBuilder()
            .ok(P0, "a", 0).ok(P0, "b", 1).ok(P0, "c", 2).ok(P1, "x", 0)
            .finalRead(P0, 0, "a").finalRead(P0, 1, "b").finalRead(P0, 2, "c").finalRead(P1, 0, "x");

    @Test
    void offsetsOutOfOrderWithinOnePollAreReported() {
        History history = sent
                .poll("c1", 0, read(P0, 1, "b"), read(P1, 0, "x"), read(P0, 0, "a"))
                .build();

        CheckResult result = new HistoryChecker().check(history);

        assertThat(result.count(AnomalyKind.NON_MONOTONIC_READ)).isEqualTo(1);
        assertThat(result.examples().get(AnomalyKind.NON_MONOTONIC_READ).get(0).detail())
                .isEqualTo("a poll of c1 returned offset 0 of t-0 after offset 1");
    }

    @Test
    void anOffsetReadTwiceByOneConsumerInOneEpochIsReported() {
        History history = sent
                .poll("c1", 3, read(P0, 0, "a"), read(P0, 1, "b"))
                .poll("c1", 3, read(P0, 1, "b"), read(P0, 2, "c"))
                .build();

        CheckResult result = new HistoryChecker().check(history);

        assertThat(result.count(AnomalyKind.NON_MONOTONIC_READ)).isEqualTo(1);
        assertThat(result.examples().get(AnomalyKind.NON_MONOTONIC_READ).get(0).detail())
                .contains("c1 read offset 1 of t-0 twice in assignment epoch 3");
    }

    @Test
    void reReadingAfterAReassignmentOrByAnotherConsumerIsFine() {
        History history = sent
                .poll("c1", 0, read(P0, 0, "a"), read(P0, 1, "b"))
                .poll("c1", 1, read(P0, 1, "b"), read(P0, 2, "c"))
                .poll("c2", 0, read(P0, 0, "a"))
                .build();

        assertThat(new HistoryChecker().check(history).valid()).isTrue();
    }

    @Test
    void skippedOffsetsAreNotReported() {
        History history = sent.poll("c1", 0, read(P0, 0, "a"), read(P0, 2, "c")).build();

        assertThat(new NonMonotonicReadCheck().check(history)).isEmpty();
    }
}
