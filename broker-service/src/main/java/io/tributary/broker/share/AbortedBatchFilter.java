package io.tributary.broker.share;

import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * Finds the batches of aborted transactions in a read_committed read (KIP-98), the way a consumer
 * skips them: a transactional batch is aborted when its producer has an aborted transaction that
 * started at or before it and whose abort marker comes later. A share group with
 * {@code share.isolation.level=read_committed} archives such batches instead of delivering them.
 * Batches must be given in offset order; only control batches are decoded (one record each).
 * Not thread-safe; one per read.
 */
final class AbortedBatchFilter {

    private final PriorityQueue<FetchResponseData.AbortedTransaction> pending =
        new PriorityQueue<>(Comparator.comparingLong(FetchResponseData.AbortedTransaction::firstOffset));
    private final Set<Long> abortedProducers = new HashSet<>();

    /** @param aborted the aborted transactions the read overlaps, as the log reports them */
    AbortedBatchFilter(List<FetchResponseData.AbortedTransaction> aborted) {
        pending.addAll(aborted);
    }

    /** Whether {@code batch} holds records of an aborted transaction. */
    boolean isAborted(RecordBatch batch) {
        while (!pending.isEmpty() && pending.peek().firstOffset() <= batch.lastOffset()) {
            abortedProducers.add(pending.poll().producerId());
        }
        if (batch.isControlBatch()) {
            if (abortedProducers.contains(batch.producerId())) {
                var records = batch.iterator();
                if (records.hasNext()) {
                    Record marker = records.next();
                    if (ControlRecordType.parse(marker.key()) == ControlRecordType.ABORT) {
                        abortedProducers.remove(batch.producerId());
                    }
                }
            }
            return false;
        }
        return batch.isTransactional() && abortedProducers.contains(batch.producerId());
    }
}
