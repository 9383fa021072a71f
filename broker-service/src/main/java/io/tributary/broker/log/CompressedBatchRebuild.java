package io.tributary.broker.log;

import io.tributary.broker.config.LogConfig;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.DefaultRecordBatch;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.internals.BufferSupplier;
import org.apache.kafka.common.utils.internals.CloseableIterator;

/**
 * The cases where {@link LogValidator} does not keep a produced batch as sent, as Kafka's
 * {@code LogValidator}: a compressed batch whose records' offset deltas are not 0, 1, 2, ..., and
 * any batch of a codec other than the topic's {@code compression.type} (unless that is
 * {@code producer}), is rebuilt with consecutive offsets and compressed with the topic's codec
 * (or, for offset gaps on a {@code producer} topic, its own at its default level); the append is
 * assembled from the batches kept and the batches rebuilt. Stateless; thread-safe.
 */
final class CompressedBatchRebuild {

    private CompressedBatchRebuild() {
    }

    static int countBatches(MemoryRecords records) {
        int count = 0;
        for (MutableRecordBatch ignored : records.batches()) {
            count++;
        }
        return count;
    }

    /**
     * A compressed batch rebuilt with consecutive offsets from {@code baseOffset}, as Kafka's
     * {@code LogValidator} builds it when offsets cannot be assigned in place: its records (timestamps
     * as validated, keys, values, headers) compressed with {@code compression},
     * the producer id, epoch, base sequence, transactional and control flags kept, the topic's
     * timestamp type, and the leader epoch.
     *
     * @throws RecordValidationException (MESSAGE_TOO_LARGE) when the rebuilt batch exceeds {@code max.message.bytes}
     */
    static MemoryRecords rebuild(TopicPartition tp, RecordBatch batch, Compression compression,
                                         long baseOffset, int leaderEpoch, LogConfig config, long now,
                                 BufferSupplier bufferSupplier) {
        TimestampType timestampType = config.messageTimestampType() == TimestampType.LOG_APPEND_TIME
            ? TimestampType.LOG_APPEND_TIME : TimestampType.CREATE_TIME;
        List<Record> records = new ArrayList<>(batch.countOrNull());
        int estimatedSize = DefaultRecordBatch.RECORD_BATCH_OVERHEAD;
        try (CloseableIterator<Record> iterator = batch.streamingIterator(bufferSupplier)) {
            while (iterator.hasNext()) {
                Record record = iterator.next();
                records.add(record);
                estimatedSize += record.sizeInBytes() + 5;
            }
        }
        // Kafka's buffer estimate for a rebuild: the records uncompressed; the builder grows it if compression expands them.
        MemoryRecordsBuilder builder = MemoryRecords.builder(ByteBuffer.allocate(estimatedSize), RecordBatch.MAGIC_VALUE_V2,
            compression, timestampType, baseOffset, now, batch.producerId(),
            batch.producerEpoch(), batch.baseSequence(), batch.isTransactional(), batch.isControlBatch(), leaderEpoch);
        long offset = baseOffset;
        for (Record record : records) {
            if (batch.isControlBatch()) {
                builder.appendControlRecordWithOffset(offset++, new SimpleRecord(record.timestamp(), record.key(),
                    record.value(), record.headers()));
            } else {
                builder.appendWithOffset(offset++, record);
            }
        }
        MemoryRecords rebuilt = builder.build();
        if (rebuilt.sizeInBytes() > config.maxMessageBytes()) {
            throw new RecordValidationException(Errors.MESSAGE_TOO_LARGE, "Message batch size is " + rebuilt.sizeInBytes()
                + " bytes in append to partition " + tp + " which exceeds the maximum configured size of "
                + config.maxMessageBytes() + ".");
        }
        return rebuilt;
    }

    /**
     * The batches to write: each as sent (offsets assigned in place) or as rebuilt.
     *
     * @throws RecordValidationException (RECORD_LIST_TOO_LARGE) when they no longer fit in a segment
     */
    static MemoryRecords assemble(TopicPartition tp, MemoryRecords records, MemoryRecords[] rebuilt,
                                          LogConfig config) {
        int size = 0;
        int index = 0;
        for (MutableRecordBatch batch : records.batches()) {
            size += rebuilt[index] != null ? rebuilt[index].sizeInBytes() : batch.sizeInBytes();
            index++;
        }
        if (size > config.segmentBytes()) {
            throw new RecordValidationException(Errors.RECORD_LIST_TOO_LARGE, "Message batch size is " + size
                + " bytes in append to partition " + tp + ", which exceeds the maximum configured segment size of "
                + config.segmentBytes() + ".");
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        index = 0;
        for (MutableRecordBatch batch : records.batches()) {
            if (rebuilt[index] != null) {
                out.put(rebuilt[index].buffer().duplicate());
            } else {
                batch.writeTo(out);
            }
            index++;
        }
        out.flip();
        return MemoryRecords.readableRecords(out);
    }
}
