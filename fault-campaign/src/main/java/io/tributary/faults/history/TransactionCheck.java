package io.tributary.faults.history;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@link AnomalyKind#ABORTED_READ}, Kafka's transactional guarantees as a read_committed reader sees them:
 * <ul>
 *   <li>a value of an aborted transaction ({@link Outcome#FAIL}) in the final reads or returned to a
 *       {@link History#readCommittedClients() read_committed} consumer;</li>
 *   <li>a torn transaction: a committed one ({@link Outcome#OK}) some of whose values the final reads lack, or one of
 *       unknown outcome ({@link Outcome#INFO}) of which the final reads hold some values but not all.</li>
 * </ul>
 * The final reads read committed, to the last stable offset, after every transaction has ended. One anomaly per
 * value read, and one per torn transaction.
 */
public final class TransactionCheck implements HistoryCheck {

    @Override
    public List<Anomaly> check(History history) {
        Set<String> committedReads = new HashSet<>();
        history.finalReads().records().forEach(r -> committedReads.add(r.value()));
        List<Anomaly> anomalies = new ArrayList<>();
        Set<String> aborted = new HashSet<>();
        for (Transaction transaction : history.transactions()) {
            List<String> values = transaction.writes().stream().map(TransactionalWrite::value).toList();
            long visible = values.stream().filter(committedReads::contains).count();
            switch (transaction.outcome()) {
                case FAIL -> aborted.addAll(values);
                case OK -> {
                    if (visible < values.size()) {
                        anomalies.add(torn(transaction, "committed", visible, values.size()));
                    }
                }
                case INFO -> {
                    if (visible > 0 && visible < values.size()) {
                        anomalies.add(torn(transaction, "ended unknown", visible, values.size()));
                    }
                }
            }
        }
        for (ConsumedRecord read : history.finalReads().records()) {
            if (aborted.contains(read.value())) {
                anomalies.add(new Anomaly(AnomalyKind.ABORTED_READ, "the final read_committed reads hold "
                        + read.value() + " of an aborted transaction at " + read.partition() + " offset "
                        + read.offset()));
            }
        }
        for (Poll poll : history.polls()) {
            if (!history.readCommittedClients().contains(poll.client())) {
                continue;
            }
            for (ConsumedRecord read : poll.records()) {
                if (aborted.contains(read.value())) {
                    anomalies.add(new Anomaly(AnomalyKind.ABORTED_READ, "read_committed consumer " + poll.client()
                            + " read " + read.value() + " of an aborted transaction at " + read.partition()
                            + " offset " + read.offset()));
                }
            }
        }
        return anomalies;
    }

    private static Anomaly torn(Transaction transaction, String how, long visible, int size) {
        return new Anomaly(AnomalyKind.ABORTED_READ, "transaction of " + transaction.client() + " " + how
                + " (completed at " + transaction.completedNanos() + " ns) is torn: the final reads hold " + visible
                + " of its " + size + " values " + transaction.writes().stream().map(TransactionalWrite::value)
                .toList());
    }
}
