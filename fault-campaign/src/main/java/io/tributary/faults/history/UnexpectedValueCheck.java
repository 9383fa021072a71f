package io.tributary.faults.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@link AnomalyKind#UNEXPECTED_VALUE}: a value read (polls or final reads) that was never sent, or whose send
 * failed definitely ({@link Outcome#FAIL}: the client was told it was not written). Values of indeterminate sends may
 * appear, and so may values of transactions, even aborted ones (their records are in the log; only
 * {@link TransactionCheck} judges who may read them). One anomaly per distinct value.
 */
public final class UnexpectedValueCheck implements HistoryCheck {

    @Override
    public List<Anomaly> check(History history) {
        Map<String, Outcome> sent = new HashMap<>();
        for (Send send : history.sends()) {
            sent.merge(send.value(), send.outcome(), (a, b) -> a == Outcome.FAIL ? b : a);
        }
        for (Transaction transaction : history.transactions()) {
            // Written to the log whatever the transaction's end; read_uncommitted readers may see aborted ones.
            transaction.writes().forEach(w -> sent.put(w.value(), Outcome.OK));
        }
        Set<String> unexpected = new TreeSet<>();
        for (ConsumedRecord read : history.allReads()) {
            Outcome outcome = sent.get(read.value());
            if (outcome == null || outcome == Outcome.FAIL) {
                unexpected.add(read.value());
            }
        }
        List<Anomaly> anomalies = new ArrayList<>();
        for (String value : unexpected) {
            anomalies.add(new Anomaly(AnomalyKind.UNEXPECTED_VALUE, "value " + value + " was read but "
                    + (sent.containsKey(value) ? "its send failed definitely" : "never sent")));
        }
        return anomalies;
    }
}
