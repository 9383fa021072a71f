package io.tributary.faults.history;

import static io.tributary.faults.history.HistoryBuilder.P0;
import static io.tributary.faults.history.HistoryBuilder.P1;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CommitRegressionCheckTest {

    @Test
    void anOkCommitBelowThePreviousOneIsReported() {
        History history = new HistoryBuilder()
                .commit(P0, 5, Outcome.OK)
                .commit(P1, 2, Outcome.OK)
                .commit(P0, 3, Outcome.OK)
                .build();

        CheckResult result = new HistoryChecker().check(history);

        assertThat(result.count(AnomalyKind.COMMIT_REGRESSION)).isEqualTo(1);
        assertThat(result.examples().get(AnomalyKind.COMMIT_REGRESSION).get(0).detail())
                .startsWith("group g committed 3 for t-0").contains("after 5");
    }

    @Test
    void failedAndIndeterminateCommitsAndOtherPartitionsDoNotCount() {
        History history = new HistoryBuilder()
                .commit(P0, 5, Outcome.OK)
                .commit(P0, 2, Outcome.FAIL)
                .commit(P0, 1, Outcome.INFO)
                .commit(P1, 1, Outcome.OK)
                .commit(P0, 5, Outcome.OK)
                .build();

        assertThat(new CommitRegressionCheck().check(history)).isEmpty();
    }

    @Test
    void commitsAreOrderedByCompletionNotInvocation() {
        // Invoked first, completed last: the lower offset 3 completes after 5, a regression.
        var slow = new Commit("c1", "g", P0, 3, 0, 100, Outcome.OK);
        var fast = new Commit("c2", "g", P0, 5, 10, 20, Outcome.OK);
        History history = new History(List.of(slow, fast), new FinalReads(java.util.Map.of(), List.of()));

        assertThat(new CommitRegressionCheck().check(history)).hasSize(1);
    }
}
