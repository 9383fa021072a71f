package io.tributary.faults.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.faults.history.CheckResult;
import io.tributary.faults.history.ConsumedRecord;
import io.tributary.faults.history.FinalReads;
import io.tributary.faults.history.History;
import io.tributary.faults.history.HistoryChecker;
import io.tributary.faults.history.Operation;
import io.tributary.faults.history.Poll;
import io.tributary.faults.history.Send;
import io.tributary.faults.history.TopicPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FaultAttributionTest {

    private static final long SECOND = 1_000_000_000L;
    private static final TopicPartition P0 = new TopicPartition("t", 0);

    private static FaultRecord fault(String kind, long startSeconds) {
        return new FaultRecord(kind, "target", startSeconds * SECOND, (startSeconds + 1) * SECOND,
                (startSeconds + 2) * SECOND, Optional.empty());
    }

    @Test
    void aLostValueCountsForTheFaultDuringWhichItWasSent() {
        // v1 (before any fault) and v2 (during kill) survive; v3, sent during pause, is lost.
        List<Operation> ops = List.of(
                Send.ok("p", P0, "v1", 0, 0, SECOND / 2),
                Send.ok("p", P0, "v2", 1, 11 * SECOND, 11 * SECOND + 1),
                Send.ok("p", P0, "v3", 2, 21 * SECOND, 21 * SECOND + 1));
        History history = new History(ops, new FinalReads(Map.of(P0, 2L),
                List.of(new ConsumedRecord(P0, 0, "v1"), new ConsumedRecord(P0, 1, "v2"))));

        Map<String, List<CheckResult>> byKind = FaultAttribution.resultsByKind(history,
                List.of(fault("kill", 10), fault("pause", 20)), new HistoryChecker());

        assertThat(byKind).containsOnlyKeys("kill", "pause");
        assertThat(byKind.get("kill")).singleElement().satisfies(r -> {
            assertThat(r.acknowledged()).isEqualTo(1);
            assertThat(r.valid()).isTrue();
        });
        assertThat(byKind.get("pause")).singleElement().satisfies(r -> {
            assertThat(r.acknowledged()).isEqualTo(1);
            assertThat(r.count(io.tributary.faults.history.AnomalyKind.LOST)).isEqualTo(1);
        });
    }

    @Test
    void aWindowReadsOnlyItsOwnValuesSoOtherWindowsValuesAreNotUnexpected() {
        List<Operation> ops = new ArrayList<>();
        ops.add(Send.ok("p", P0, "a", 0, 1 * SECOND, 1 * SECOND + 1));
        ops.add(Send.ok("p", P0, "b", 1, 11 * SECOND, 11 * SECOND + 1));
        ops.add(Poll.ok("c", null, 0, 12 * SECOND, 12 * SECOND + 1,
                List.of(new ConsumedRecord(P0, 0, "a"), new ConsumedRecord(P0, 1, "b"))));
        History history = new History(ops, new FinalReads(Map.of(P0, 2L),
                List.of(new ConsumedRecord(P0, 0, "a"), new ConsumedRecord(P0, 1, "b"))));

        History window = FaultAttribution.window(history, 10 * SECOND, 20 * SECOND);

        assertThat(window.sends()).extracting(Send::value).containsExactly("b");
        assertThat(window.allReads()).extracting(ConsumedRecord::value).containsExactly("b", "b");
        assertThat(new HistoryChecker().check(window).valid()).isTrue();
    }

    @Test
    void aFaultsUnavailabilityIsTheLongestStallEndingInItsWindow() {
        // Partition t-0 stalls from 2 s to 11 s (first fault's window) and from 11 s to 17 s, a moment before the
        // second fault's start at 12 s to after it: the second fault claims that one.
        List<Operation> ops = List.of(
                Send.ok("p", P0, "v1", 0, 1 * SECOND, 2 * SECOND),
                Send.ok("p", P0, "v2", 1, 2 * SECOND, 11 * SECOND),
                Send.ok("p", P0, "v3", 2, 11 * SECOND, 17 * SECOND));
        History history = new History(ops, new FinalReads(Map.of(P0, 3L), List.of(new ConsumedRecord(P0, 0, "v1"),
                new ConsumedRecord(P0, 1, "v2"), new ConsumedRecord(P0, 2, "v3"))));

        Map<String, List<CheckResult>> byKind = FaultAttribution.resultsByKind(history,
                List.of(fault("first", 0), fault("second", 12)), new HistoryChecker());

        assertThat(byKind.get("first").get(0).unavailableNanos()).isEqualTo(9 * SECOND);
        assertThat(byKind.get("second").get(0).unavailableNanos()).isEqualTo(6 * SECOND);
    }
}
