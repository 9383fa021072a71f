package io.tributary.faults.history;

import java.util.List;

/**
 * One property of a history. Implementations are stateless and report one {@link Anomaly} per incident (per lost
 * value, per duplicated value, per inconsistent offset, ...), in a deterministic order, so counts compare across runs.
 */
@FunctionalInterface
public interface HistoryCheck {

    List<Anomaly> check(History history);
}
