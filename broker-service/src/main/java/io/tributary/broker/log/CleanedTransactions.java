package io.tributary.broker.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * The cleaner's view of the transactions in the segments it cleans together, as Kafka's
 * {@code CleanedTransactionMetadata} (KIP-98): records of an aborted transaction are dropped; its
 * ABORT marker is kept, with its entry copied into the cleaned segment's transaction index, while
 * this cleaning dropped records of it (read_committed consumers of older copies still need it),
 * and may go once a later cleaning finds none; a COMMIT marker may go once no record of its
 * transaction is seen. A marker that may go still waits for its delete horizon, which the
 * cleaner's filter checks.
 *
 * <p>Batches are fed in offset order: data batches to {@link #onBatchRead}, control batches to
 * {@link #onControlBatchRead}.
 *
 * <p>Not thread-safe: one per group of segments of one cleaning.
 */
final class CleanedTransactions {

    /** An aborted transaction met in this cleaning, and whether any of its records were. */
    private static final class AbortedInCleaning {
        private final TransactionIndex.AbortedTxnEntry entry;
        private boolean recordsSeen;

        private AbortedInCleaning(TransactionIndex.AbortedTxnEntry entry) {
            this.entry = entry;
        }
    }

    /** Aborted transactions of the cleaned range, by first offset, not yet reached. */
    private final Deque<TransactionIndex.AbortedTxnEntry> aborted;
    private final Map<Long, AbortedInCleaning> ongoingAborted = new HashMap<>();
    private final Set<Long> ongoingCommitted = new HashSet<>();
    private final TransactionIndex cleanedIndex;

    /**
     * @param abortedTransactions the aborts whose transactions overlap the cleaned range
     * @param cleanedIndex        the transaction index of the cleaned segment
     */
    CleanedTransactions(List<TransactionIndex.AbortedTxnEntry> abortedTransactions, TransactionIndex cleanedIndex) {
        this.aborted = new ArrayDeque<>(abortedTransactions.stream()
            .sorted(Comparator.comparingLong(TransactionIndex.AbortedTxnEntry::firstOffset)).toList());
        this.cleanedIndex = cleanedIndex;
    }

    /** @return whether the data batch may be dropped: it belongs to an aborted transaction */
    boolean onBatchRead(RecordBatch batch) {
        consumeAbortedUpTo(batch.lastOffset());
        if (!batch.isTransactional()) {
            return false;
        }
        AbortedInCleaning abortedTxn = ongoingAborted.get(batch.producerId());
        if (abortedTxn != null) {
            abortedTxn.recordsSeen = true;
            return true;
        }
        ongoingCommitted.add(batch.producerId());
        return false;
    }

    /** @return whether the control batch may be dropped (once past its delete horizon) */
    boolean onControlBatchRead(RecordBatch batch) {
        consumeAbortedUpTo(batch.lastOffset());
        Iterator<Record> records = batch.iterator();
        if (!records.hasNext()) {
            return true; // emptied by an earlier cleaning
        }
        ControlRecordType type = ControlRecordType.parse(records.next().key());
        long producerId = batch.producerId();
        if (type == ControlRecordType.ABORT) {
            AbortedInCleaning abortedTxn = ongoingAborted.remove(producerId);
            if (abortedTxn != null && abortedTxn.recordsSeen) {
                try {
                    cleanedIndex.append(abortedTxn.entry);
                } catch (IOException e) {
                    throw new UncheckedIOException("Could not write the transaction index of a cleaned segment", e);
                }
                return false;
            }
            return true;
        }
        if (type == ControlRecordType.COMMIT) {
            return !ongoingCommitted.remove(producerId);
        }
        return false;
    }

    private void consumeAbortedUpTo(long offset) {
        while (!aborted.isEmpty() && aborted.peekFirst().firstOffset() <= offset) {
            TransactionIndex.AbortedTxnEntry entry = aborted.pollFirst();
            ongoingAborted.putIfAbsent(entry.producerId(), new AbortedInCleaning(entry));
        }
    }
}
