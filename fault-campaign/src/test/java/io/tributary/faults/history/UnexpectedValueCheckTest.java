package io.tributary.faults.history;

import static io.tributary.faults.history.HistoryBuilder.P0;
import static io.tributary.faults.history.HistoryBuilder.read;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class UnexpectedValueCheckTest {

    @Test
    void valuesNeverSentOrDefinitelyFailedAreUnexpectedOncePerValue() {
        History history = new HistoryBuilder()
                .ok(P0, "a", 0).send(P0, "rejected", Outcome.FAIL)
                .poll("c1", 0, read(P0, 0, "a"), read(P0, 1, "ghost"))
                .finalRead(P0, 0, "a").finalRead(P0, 1, "ghost").finalRead(P0, 2, "rejected")
                .build();

        CheckResult result = new HistoryChecker().check(history);

        assertThat(result.count(AnomalyKind.UNEXPECTED_VALUE)).isEqualTo(2);
        assertThat(result.examples().get(AnomalyKind.UNEXPECTED_VALUE)).extracting(Anomaly::detail).containsExactly(
                "value ghost was read but never sent", "value rejected was read but its send failed definitely");
    }

    @Test
    void indeterminateSendsMayAppear() {
        History history = new HistoryBuilder()
                .send(P0, "maybe", Outcome.INFO)
                .finalRead(P0, 0, "maybe")
                .build();

        assertThat(new UnexpectedValueCheck().check(history)).isEmpty();
    }
}
