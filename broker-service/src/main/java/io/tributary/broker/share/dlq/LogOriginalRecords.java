package io.tributary.broker.share.dlq;

import io.tributary.broker.replica.FetchParams;
import io.tributary.broker.replica.FetchPartition;
import io.tributary.broker.replica.FetchPartitionResult;
import io.tributary.broker.share.ShareLog;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * {@link OriginalRecords} read through the consumer fetch path of the local log ({@link ShareLog}), up to
 * {@code maxBytes} a read, until the range is covered or a read makes no progress. Blocks up to
 * {@code timeoutMs} a read: call on the dead-letter thread.
 */
public final class LogOriginalRecords implements OriginalRecords {

    private final ShareLog log;
    private final int maxBytes;
    private final long timeoutMs;

    public LogOriginalRecords(ShareLog log, int maxBytes, long timeoutMs) {
        this.log = log;
        this.maxBytes = maxBytes;
        this.timeoutMs = timeoutMs;
    }

    @Override
    public Map<Long, Record> read(TopicPartition tp, long firstOffset, long lastOffset) {
        Map<Long, Record> found = new HashMap<>();
        long next = firstOffset;
        while (next <= lastOffset) {
            LinkedHashMap<TopicPartition, FetchPartition> partitions = new LinkedHashMap<>();
            partitions.put(tp, new FetchPartition(next, RecordBatch.NO_PARTITION_LEADER_EPOCH, maxBytes,
                RecordBatch.NO_PARTITION_LEADER_EPOCH));
            FetchPartitionResult result;
            try {
                result = log.fetch(new FetchParams(-1, 0, 1, maxBytes, IsolationLevel.READ_UNCOMMITTED), partitions)
                    .get(timeoutMs, TimeUnit.MILLISECONDS).get(tp);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return found;
            } catch (ExecutionException | TimeoutException e) {
                return found;
            }
            if (result == null || result.error() != Errors.NONE || result.records() == null) {
                return found;
            }
            long before = next;
            for (RecordBatch batch : result.records().batches()) {
                if (!batch.isControlBatch()) {
                    for (Record record : batch) {
                        if (record.offset() >= firstOffset && record.offset() <= lastOffset) {
                            found.put(record.offset(), record);
                        }
                    }
                }
                next = Math.max(next, batch.lastOffset() + 1);
                if (next > lastOffset) {
                    break;
                }
            }
            if (next == before) {
                return found;
            }
        }
        return found;
    }
}
