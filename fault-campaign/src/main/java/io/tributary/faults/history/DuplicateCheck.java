package io.tributary.faults.history;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@link AnomalyKind#DUPLICATE}: a value read at two or more distinct (partition, offset) positions, by the polls
 * or the final reads. Reading the same position twice is not a duplicate (consumers re-read after a rebalance).
 */
public final class DuplicateCheck implements HistoryCheck {

    @Override
    public List<Anomaly> check(History history) {
        Map<String, Set<String>> positions = new LinkedHashMap<>();
        for (ConsumedRecord read : history.allReads()) {
            positions.computeIfAbsent(read.value(), v -> new TreeSet<>()).add(read.partition() + "@" + read.offset());
        }
        List<Anomaly> duplicates = new ArrayList<>();
        new TreeMap<>(positions).forEach((value, at) -> {
            if (at.size() > 1) {
                duplicates.add(new Anomaly(AnomalyKind.DUPLICATE, "value " + value + " was read at " + at));
            }
        });
        return duplicates;
    }
}
