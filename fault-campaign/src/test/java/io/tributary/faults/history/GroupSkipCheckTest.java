package io.tributary.faults.history;

import static io.tributary.faults.history.HistoryBuilder.P0;
import static io.tributary.faults.history.HistoryBuilder.P1;
import static io.tributary.faults.history.HistoryBuilder.read;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GroupSkipCheckTest {

    @Test
    void aRecordBelowTheCommittedOffsetThatNoMemberReadIsReported() {
        History history = new HistoryBuilder()
                .ok(P0, "a", 0).ok(P0, "b", 1).ok(P0, "c", 2)
                .poll("c1", 0, read(P0, 0, "a"))
                .poll("c2", 0, read(P0, 2, "c"))
                .commit(P0, 3, Outcome.OK)
                .finalRead(P0, 0, "a").finalRead(P0, 1, "b").finalRead(P0, 2, "c")
                .build();

        CheckResult result = new HistoryChecker().check(history);

        assertThat(result.count(AnomalyKind.SKIPPED_BY_GROUP)).isEqualTo(1);
        assertThat(result.examples().get(AnomalyKind.SKIPPED_BY_GROUP).get(0).detail())
                .isEqualTo("group g committed 3 for t-0 but none of its members read offset 1 (b)");
    }

    @Test
    void readsOfAnyMemberCountAndRecordsAtOrAboveTheCommitDoNot() {
        History history = new HistoryBuilder()
                .ok(P0, "a", 0).ok(P0, "b", 1).ok(P0, "c", 2).ok(P1, "d", 0)
                .poll("c1", 0, read(P0, 0, "a"))
                .poll("c2", 1, read(P0, 1, "b"))
                .commit(P0, 2, Outcome.OK)
                .commit(P0, 3, Outcome.INFO)
                .commit(P1, 1, Outcome.FAIL)
                .finalRead(P0, 0, "a").finalRead(P0, 1, "b").finalRead(P0, 2, "c").finalRead(P1, 0, "d")
                .build();

        assertThat(new GroupSkipCheck().check(history)).isEmpty();
    }

    @Test
    void readsOfAConsumerWithoutAGroupDoNotCountForTheGroup() {
        var send = Send.ok("producer", P0, "a", 0, 0, 1);
        var assigned = new Poll("solo", Optional.empty(), 0, 2, 3, Outcome.OK, List.of(read(P0, 0, "a")));
        var commit = new Commit("c1", "g", P0, 1, 4, 5, Outcome.OK);
        History history = new History(List.of(send, assigned, commit),
                new FinalReads(java.util.Map.of(P0, 1L), List.of(read(P0, 0, "a"))));

        assertThat(new GroupSkipCheck().check(history)).hasSize(1);
    }
}
