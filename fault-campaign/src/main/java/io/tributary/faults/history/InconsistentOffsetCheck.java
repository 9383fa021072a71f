package io.tributary.faults.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@link AnomalyKind#INCONSISTENT_OFFSET}: a partition offset holds one record forever, so every observation of it
 * must show the same value. Observations are the records read (polls and final reads) and the offsets OK sends were
 * acknowledged at. One anomaly per offset, whatever the number of values seen there.
 */
public final class InconsistentOffsetCheck implements HistoryCheck {

    private record Position(TopicPartition partition, long offset) implements Comparable<Position> {
        @Override
        public int compareTo(Position other) {
            int byPartition = partition.compareTo(other.partition);
            return byPartition != 0 ? byPartition : Long.compare(offset, other.offset);
        }
    }

    @Override
    public List<Anomaly> check(History history) {
        Map<Position, Set<String>> values = new TreeMap<>();
        for (ConsumedRecord read : history.allReads()) {
            values.computeIfAbsent(new Position(read.partition(), read.offset()), p -> new TreeSet<>())
                    .add(read.value());
        }
        for (Send send : history.sends()) {
            send.acknowledgedPartition().ifPresent(partition -> values
                    .computeIfAbsent(new Position(partition, send.offset().getAsLong()), p -> new TreeSet<>())
                    .add(send.value()));
        }
        List<Anomaly> inconsistent = new ArrayList<>();
        values.forEach((position, seen) -> {
            if (seen.size() > 1) {
                inconsistent.add(new Anomaly(AnomalyKind.INCONSISTENT_OFFSET, "offset " + position.offset()
                        + " of " + position.partition() + " was seen holding " + seen));
            }
        });
        return inconsistent;
    }
}
