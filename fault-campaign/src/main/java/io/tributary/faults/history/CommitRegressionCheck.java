package io.tributary.faults.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link AnomalyKind#COMMIT_REGRESSION}: among the OK commits of one group and partition, ordered by completion
 * time, an offset below the one committed before it. Failed and indeterminate commits are ignored. A workload that
 * seeks back and commits on purpose must not use this check.
 */
public final class CommitRegressionCheck implements HistoryCheck {

    private record GroupPartition(String group, TopicPartition partition) {
    }

    @Override
    public List<Anomaly> check(History history) {
        List<Commit> ok = history.commits().stream()
                .filter(c -> c.outcome() == Outcome.OK)
                .sorted(Comparator.comparingLong(Commit::completedNanos))
                .toList();
        Map<GroupPartition, Commit> last = new HashMap<>();
        List<Anomaly> regressions = new ArrayList<>();
        for (Commit commit : ok) {
            Commit previous = last.put(new GroupPartition(commit.group(), commit.partition()), commit);
            if (previous != null && commit.offset() < previous.offset()) {
                regressions.add(new Anomaly(AnomalyKind.COMMIT_REGRESSION, "group " + commit.group() + " committed "
                        + commit.offset() + " for " + commit.partition() + " (by " + commit.client() + ", completed at "
                        + commit.completedNanos() + " ns) after " + previous.offset() + " (by " + previous.client()
                        + ", completed at " + previous.completedNanos() + " ns)"));
            }
        }
        return regressions;
    }
}
