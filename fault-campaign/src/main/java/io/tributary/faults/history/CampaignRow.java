package io.tributary.faults.history;

import java.util.List;
import java.util.Objects;

/**
 * One line of the campaign's table: a fault kind and the sums over its runs. {@code worstUnavailableNanos} is the
 * largest {@link CheckResult#unavailableNanos()} of those runs.
 */
public record CampaignRow(
        String fault,
        int runs,
        long acknowledged,
        long lost,
        long duplicated,
        long inconsistent,
        long worstUnavailableNanos) {

    public CampaignRow {
        Objects.requireNonNull(fault, "fault");
    }

    /** The row of {@code fault} summing {@code results}, one per run. */
    public static CampaignRow of(String fault, List<CheckResult> results) {
        return new CampaignRow(fault, results.size(),
                results.stream().mapToLong(CheckResult::acknowledged).sum(),
                results.stream().mapToLong(r -> r.count(AnomalyKind.LOST)).sum(),
                results.stream().mapToLong(r -> r.count(AnomalyKind.DUPLICATE)).sum(),
                results.stream().mapToLong(r -> r.count(AnomalyKind.INCONSISTENT_OFFSET)).sum(),
                results.stream().mapToLong(CheckResult::unavailableNanos).max().orElse(0));
    }
}
