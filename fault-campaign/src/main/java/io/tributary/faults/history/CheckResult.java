package io.tributary.faults.history;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the checker found in one history.
 *
 * <p>{@code acknowledged} is the number of OK sends; {@code counts} has every {@link AnomalyKind} (0 where none was
 * found, and always 0 for kinds not yet checked); {@code examples} has, per kind found, its first
 * {@link #EXAMPLES_PER_KIND} anomalies; {@code unavailableNanos} is {@link Unavailability#longestNanos(History)}.
 */
public record CheckResult(
        long acknowledged,
        Map<AnomalyKind, Integer> counts,
        Map<AnomalyKind, List<Anomaly>> examples,
        long unavailableNanos) {

    /** How many anomalies of each kind a result keeps as examples. */
    public static final int EXAMPLES_PER_KIND = 5;

    public CheckResult {
        Objects.requireNonNull(counts, "counts");
        var all = new EnumMap<AnomalyKind, Integer>(AnomalyKind.class);
        for (AnomalyKind kind : AnomalyKind.values()) {
            all.put(kind, counts.getOrDefault(kind, 0));
        }
        counts = Map.copyOf(all);
        var kept = new EnumMap<AnomalyKind, List<Anomaly>>(AnomalyKind.class);
        examples.forEach((kind, list) -> kept.put(kind, List.copyOf(list)));
        examples = Map.copyOf(kept);
    }

    /** Builds a result from every anomaly found, keeping the first few of each kind as examples. */
    public static CheckResult of(long acknowledged, List<Anomaly> anomalies, long unavailableNanos) {
        var counts = new EnumMap<AnomalyKind, Integer>(AnomalyKind.class);
        var examples = new EnumMap<AnomalyKind, List<Anomaly>>(AnomalyKind.class);
        for (Anomaly anomaly : anomalies) {
            counts.merge(anomaly.kind(), 1, Integer::sum);
            var list = examples.computeIfAbsent(anomaly.kind(), k -> new ArrayList<>());
            if (list.size() < EXAMPLES_PER_KIND) {
                list.add(anomaly);
            }
        }
        return new CheckResult(acknowledged, counts, examples, unavailableNanos);
    }

    public int count(AnomalyKind kind) {
        return counts.get(kind);
    }

    /** True if no anomaly of any kind was found. Unavailability does not make a history invalid. */
    public boolean valid() {
        return counts.values().stream().allMatch(c -> c == 0);
    }
}
