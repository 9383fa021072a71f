package io.tributary.broker.share.dlq;

import io.tributary.broker.share.ArchivedRange;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.internal.DefaultRecord;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.SimpleRecord;

/**
 * The dead-letter records of archived share-group records, as Kafka 4.4 writes them (KIP-1191,
 * {@code ShareGroupDLQStateManager}): one record per archived offset, timestamped when written,
 * carrying the context headers below (values UTF-8 text). With {@code errors.deadletterqueue.copy.record.enable}
 * the original key and value are copied too (as in Kafka, not the original headers or timestamp); without
 * it, or for an offset whose record is gone (compacted, deleted), key and value are null.
 *
 * <pre>
 * __dlq.errors.topic           source topic name
 * __dlq.errors.partition       source partition, decimal
 * __dlq.errors.offset          source offset, decimal
 * __dlq.errors.group           share group id
 * __dlq.errors.delivery.count  deliveries when archived, decimal
 * __dlq.errors.message         "Offset rejected by client." or "Offset delivery count exceeded the threshold."
 * </pre>
 *
 * Records are split into batches of at most {@code maxBatchBytes} (the dead-letter topic's
 * {@code max.message.bytes}); a single record larger than that still gets a batch of its own.
 */
public final class DeadLetterRecords {

    public static final String HEADER_TOPIC = "__dlq.errors.topic";
    public static final String HEADER_PARTITION = "__dlq.errors.partition";
    public static final String HEADER_OFFSET = "__dlq.errors.offset";
    public static final String HEADER_GROUP = "__dlq.errors.group";
    public static final String HEADER_DELIVERY_COUNT = "__dlq.errors.delivery.count";
    public static final String HEADER_MESSAGE = "__dlq.errors.message";

    /** Bytes of a v2 batch header (Kafka's {@code DefaultRecordBatch.RECORD_BATCH_OVERHEAD}). */
    private static final int BATCH_OVERHEAD = 61;

    private DeadLetterRecords() {
    }

    /**
     * @param sourceTopic   the archived records' topic name
     * @param originals     the original records by offset (empty when not copied)
     * @param timestampMs   the dead-letter records' timestamp (now), ms
     * @param maxBatchBytes most bytes of one batch
     * @return the batches, in offset order, covering every offset of {@code range}
     */
    public static List<MemoryRecords> build(ArchivedRange range, String sourceTopic, Map<Long, Record> originals,
                                            long timestampMs, int maxBatchBytes) {
        List<MemoryRecords> batches = new ArrayList<>();
        List<SimpleRecord> batch = new ArrayList<>();
        int batchBytes = BATCH_OVERHEAD;
        for (long offset = range.firstOffset(); offset <= range.lastOffset(); offset++) {
            Record original = originals.get(offset);
            ByteBuffer key = original != null && original.hasKey() ? original.key() : null;
            ByteBuffer value = original != null && original.hasValue() ? original.value() : null;
            Header[] headers = headers(range, sourceTopic, offset);
            int size = DefaultRecord.sizeInBytes(batch.size(), 0, key, value, headers);
            if (!batch.isEmpty() && batchBytes + size > maxBatchBytes) {
                batches.add(MemoryRecords.withRecords(Compression.NONE, batch.toArray(SimpleRecord[]::new)));
                batch.clear();
                batchBytes = BATCH_OVERHEAD;
                size = DefaultRecord.sizeInBytes(0, 0, key, value, headers);
            }
            batch.add(new SimpleRecord(timestampMs, key, value, headers));
            batchBytes += size;
        }
        if (!batch.isEmpty()) {
            batches.add(MemoryRecords.withRecords(Compression.NONE, batch.toArray(SimpleRecord[]::new)));
        }
        return batches;
    }

    /** The context headers of the dead-letter record of {@code offset}. */
    public static Header[] headers(ArchivedRange range, String sourceTopic, long offset) {
        return new Header[]{
            header(HEADER_TOPIC, sourceTopic),
            header(HEADER_PARTITION, Integer.toString(range.key().partition().partition())),
            header(HEADER_OFFSET, Long.toString(offset)),
            header(HEADER_GROUP, range.key().groupId()),
            header(HEADER_DELIVERY_COUNT, Short.toString((short) range.deliveryCount())),
            header(HEADER_MESSAGE, range.reason().message())
        };
    }

    private static Header header(String name, String value) {
        return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
