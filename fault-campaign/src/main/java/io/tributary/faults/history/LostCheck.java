package io.tributary.faults.history;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@link AnomalyKind#LOST}: every acknowledged ({@link Outcome#OK}) send's value must be in the {@link FinalReads}.
 * Failed and indeterminate sends are never lost: they may or may not appear.
 *
 * <p>This is the strict form of Kafka's guarantee: a committed record survives. It subsumes the weaker form (a value
 * never read although a consumer read past its offset), since the final reads read past every offset.
 */
public final class LostCheck implements HistoryCheck {

    @Override
    public List<Anomaly> check(History history) {
        Set<String> finallyRead = new HashSet<>();
        history.finalReads().records().forEach(r -> finallyRead.add(r.value()));
        List<Anomaly> lost = new ArrayList<>();
        for (Send send : history.sends()) {
            if (send.outcome() == Outcome.OK && !finallyRead.contains(send.value())) {
                TopicPartition partition = send.acknowledgedPartition().orElseThrow();
                Long end = history.finalReads().endOffsets().get(partition);
                lost.add(new Anomaly(AnomalyKind.LOST, "value " + send.value() + " sent by " + send.client()
                        + " was acknowledged at offset " + send.offset().getAsLong() + " of " + partition
                        + " but the final reads (to end offset " + end + ") do not contain it"));
            }
        }
        return lost;
    }
}
