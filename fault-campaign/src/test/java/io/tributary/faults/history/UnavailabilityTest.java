package io.tributary.faults.history;

import static io.tributary.faults.history.HistoryBuilder.P0;
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
        return Send.ok("p", P0, "v" + invoked, invoked, invoked, completed);
    }

    private static Send failed(Outcome outcome, long invoked, long completed) {
        return Send.unacknowledged("p", P0, "v" + invoked, outcome, invoked, completed);
    }

    @Test
    void windowRunsFromTheOkBeforeTheFailuresToTheOkAfterThem() {
        History history = of(
                ok(0, 1 * SECOND),
                failed(Outcome.INFO, 2 * SECOND, 5 * SECOND),
                failed(Outcome.FAIL, 5 * SECOND, 6 * SECOND),
                ok(6 * SECOND, 8 * SECOND),
                failed(Outcome.INFO, 9 * SECOND, 10 * SECOND),
                ok(10 * SECOND, 11 * SECOND));

        assertThat(Unavailability.longestNanos(history)).isEqualTo(7 * SECOND);
    }

    @Test
    void failuresAtTheStartCountFromTheirInvocationAndAtTheEndToTheirLastCompletion() {
        assertThat(Unavailability.longestNanos(of(
                failed(Outcome.INFO, 1 * SECOND, 4 * SECOND), ok(4 * SECOND, 5 * SECOND))))
                .isEqualTo(4 * SECOND);
        assertThat(Unavailability.longestNanos(of(
                ok(0, 1 * SECOND), failed(Outcome.INFO, 1 * SECOND, 10 * SECOND))))
                .isEqualTo(9 * SECOND);
    }

    @Test
    void idleGapsAndProducersWithoutAcksAllDoNotCount() {
        History history = of(
                ok(0, 1 * SECOND),
                failed(Outcome.INFO, 2 * SECOND, 50 * SECOND).withAcksAll(false),
                ok(60 * SECOND, 61 * SECOND));

        assertThat(Unavailability.longestNanos(history)).isZero();
        assertThat(new HistoryChecker().check(history).unavailableNanos()).isZero();
    }

    @Test
    void sendsAreTakenInCompletionOrder() {
        // The OK send completes inside the failures' run, so it splits it into two windows of 3 s and 4 s.
        History history = of(
                ok(0, 1 * SECOND),
                failed(Outcome.INFO, 1 * SECOND, 3 * SECOND),
                ok(0, 4 * SECOND),
                failed(Outcome.INFO, 4 * SECOND, 7 * SECOND),
                ok(7 * SECOND, 8 * SECOND));

        assertThat(Unavailability.longestNanos(history)).isEqualTo(4 * SECOND);
    }
}
