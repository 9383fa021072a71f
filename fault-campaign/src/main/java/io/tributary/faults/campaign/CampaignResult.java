package io.tributary.faults.campaign;

import io.tributary.faults.history.CampaignRow;
import io.tributary.faults.history.CheckResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What one campaign run did and found: its seed and topic, the faults in the order made, the check of the whole
 * history, the results of each fault kind's windows ({@link FaultAttribution}), the history's size, the run's wall
 * time, and {@code failure} if a fault could not be made or healed or the cluster did not recover (the run then stopped
 * making faults, finished the workload and still checked the history). Immutable.
 */
public record CampaignResult(
        long seed,
        String topic,
        List<FaultRecord> faults,
        CheckResult whole,
        Map<String, List<CheckResult>> byKind,
        int sends,
        int polls,
        double wallSeconds,
        Optional<String> failure) {

    /** The row name of the whole history's check. */
    public static final String WHOLE = "whole history";

    public CampaignResult {
        Objects.requireNonNull(topic, "topic");
        faults = List.copyOf(faults);
        Objects.requireNonNull(whole, "whole");
        byKind = Map.copyOf(byKind);
        Objects.requireNonNull(failure, "failure");
    }

    /** One row per fault kind, in order of first appearance, then the whole history's row. */
    public List<CampaignRow> rows() {
        List<CampaignRow> rows = new ArrayList<>();
        for (FaultRecord fault : faults) {
            if (rows.stream().noneMatch(r -> r.fault().equals(fault.kind())) && byKind.containsKey(fault.kind())) {
                rows.add(CampaignRow.of(fault.kind(), byKind.get(fault.kind())));
            }
        }
        rows.add(CampaignRow.of(WHOLE, List.of(whole)));
        return rows;
    }

    /** True if the run made every fault, recovered from each, and the whole history has no anomaly. */
    public boolean passed() {
        return failure.isEmpty() && whole.valid();
    }
}
