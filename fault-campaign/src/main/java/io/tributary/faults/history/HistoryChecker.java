package io.tributary.faults.history;

import java.util.ArrayList;
import java.util.List;

/**
 * Checks a run's {@link History} with a list of {@link HistoryCheck}s and sums up what they found. Stateless and
 * thread-safe.
 */
public final class HistoryChecker {

    private final List<HistoryCheck> checks;

    public HistoryChecker(List<HistoryCheck> checks) {
        this.checks = List.copyOf(checks);
    }

    /** A checker with {@link #standardChecks()}. */
    public HistoryChecker() {
        this(standardChecks());
    }

    /** One check per {@link AnomalyKind}. */
    public static List<HistoryCheck> standardChecks() {
        return List.of(new LostCheck(), new DuplicateCheck(), new InconsistentOffsetCheck(),
                new NonMonotonicReadCheck(), new CommitRegressionCheck(), new GroupSkipCheck(),
                new UnexpectedValueCheck(), new TransactionCheck());
    }

    public CheckResult check(History history) {
        List<Anomaly> anomalies = new ArrayList<>();
        for (HistoryCheck check : checks) {
            anomalies.addAll(check.check(history));
        }
        long acknowledged = history.sends().stream().filter(s -> s.outcome() == Outcome.OK).count();
        return CheckResult.of(acknowledged, anomalies, Unavailability.longestNanos(history));
    }
}
