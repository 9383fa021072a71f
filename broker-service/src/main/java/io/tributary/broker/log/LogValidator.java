package io.tributary.broker.log;

import io.tributary.broker.config.LogConfig;
import io.tributary.broker.producer.AppendOrigin;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.errors.CorruptRecordException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.CompressionType;
import org.apache.kafka.common.record.internal.DefaultRecordBatch;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.requests.ProduceResponse.RecordError;
import org.apache.kafka.common.utils.internals.ByteUtils;
import org.apache.kafka.common.utils.internals.BufferSupplier;
import org.apache.kafka.common.utils.internals.CloseableIterator;

/**
 * Validates record batches from producers and assigns their offsets in place.
 *
 * <p>Batch checks (all batches): magic v2, CRC, size within {@code max.message.bytes}, base
 * offset 0 as sent by clients, record count consistent with the offset range, no control
 * batches from clients, a sequence for idempotent batches. Record checks: a key on compacted
 * topics, timestamps within {@code message.timestamp.before/after.max.ms} for CreateTime topics.
 * Uncompressed batches are walked in their buffer without allocating; compressed ones are
 * decompressed to validate, as Kafka does. Batches are kept as sent: offsets, leader epoch and
 * (for LogAppendTime) the max timestamp are written into the batch header, where the CRC does not
 * cover the first two and the library recomputes it for the third. The one exception, as in
 * Kafka: a compressed batch whose records' offset deltas are not 0, 1, 2, ... is rebuilt with
 * consecutive offsets and compressed again (an uncompressed batch's deltas are kept as sent, as
 * Kafka keeps them).
 *
 * <p>Stateless apart from a per-thread decompression buffer; thread-safe.
 */
public final class LogValidator {

    private static final ThreadLocal<BufferSupplier> BUFFER_SUPPLIER = ThreadLocal.withInitial(BufferSupplier::create);

    private LogValidator() {
    }

    /**
     * Batch-level facts of a produce request's records, gathered before taking the log lock.
     *
     * @param validBytes   bytes of whole batches (a trailing partial batch is ignored)
     * @param batchCount   number of batches
     * @param recordCount  number of records
     * @param hasProducerId whether any batch comes from an idempotent producer
     */
    public record BatchSummary(int validBytes, int batchCount, int recordCount, boolean hasProducerId) {

        /** The records without a trailing partial batch. */
        public MemoryRecords wholeBatches(MemoryRecords records) {
            return validBytes < records.sizeInBytes() ? records.slice(0, validBytes) : records;
        }
    }

    /**
     * Offsets and timestamps of batches a follower copies from its leader.
     *
     * @param firstOffset                 base offset of the first batch
     * @param lastOffset                  last offset of the last batch
     * @param maxTimestamp                largest batch max timestamp, ms
     * @param shallowOffsetOfMaxTimestamp last offset of the batch holding it
     */
    public record ReplicatedOffsets(long firstOffset, long lastOffset, long maxTimestamp, long shallowOffsetOfMaxTimestamp) {
    }

    /**
     * Reads the offsets of replicated batches, which the leader assigned.
     *
     * @throws RecordValidationException (CORRUPT_MESSAGE) when the batches' offsets do not increase
     */
    public static ReplicatedOffsets replicatedOffsets(TopicPartition tp, MemoryRecords records) {
        long firstOffset = -1;
        long lastOffset = -1;
        long maxTimestamp = RecordBatch.NO_TIMESTAMP;
        long shallowOffsetOfMax = -1;
        for (MutableRecordBatch batch : records.batches()) {
            if (firstOffset < 0) {
                firstOffset = batch.baseOffset();
            }
            if (batch.baseOffset() <= lastOffset) {
                throw new RecordValidationException(Errors.CORRUPT_MESSAGE, "Out of order offsets in batches fetched for "
                    + tp + ": " + batch.baseOffset() + " after " + lastOffset);
            }
            lastOffset = batch.lastOffset();
            if (batch.maxTimestamp() > maxTimestamp) {
                maxTimestamp = batch.maxTimestamp();
                shallowOffsetOfMax = batch.lastOffset();
            }
        }
        return new ReplicatedOffsets(firstOffset, lastOffset, maxTimestamp, shallowOffsetOfMax);
    }

    /**
     * Offsets and timestamps assigned to an append.
     *
     * @param records                     the batches to write: those given, their offsets assigned in place, or,
     *                                    when a compressed batch had to be rebuilt, a new buffer holding it
     * @param lastOffset                  offset of the last record
     * @param maxTimestamp                largest record timestamp, ms
     * @param shallowOffsetOfMaxTimestamp last offset of the batch holding it
     * @param logAppendTime               the time set on LogAppendTime topics, else -1
     */
    public record AssignedOffsets(MemoryRecords records, long lastOffset, long maxTimestamp, long shallowOffsetOfMaxTimestamp, long logAppendTime) {
    }

    /**
     * Checks every batch of a client append ({@code fromClient}, whose offsets the leader assigns)
     * or of a follower's.
     *
     * @throws RecordValidationException  with INVALID_RECORD, MESSAGE_TOO_LARGE or CORRUPT_MESSAGE
     */
    public static BatchSummary analyze(TopicPartition tp, MemoryRecords records, LogConfig config, boolean fromClient) {
        return analyze(tp, records, config, fromClient ? AppendOrigin.CLIENT : AppendOrigin.REPLICATION);
    }

    /**
     * Checks every batch of an append: from a client or a transaction coordinator (the leader
     * assigns offsets; only a coordinator may write control batches, its transaction markers), or
     * from a follower.
     *
     * @throws RecordValidationException  with INVALID_RECORD, MESSAGE_TOO_LARGE or CORRUPT_MESSAGE
     */
    public static BatchSummary analyze(TopicPartition tp, MemoryRecords records, LogConfig config, AppendOrigin origin) {
        boolean fromClient = origin == AppendOrigin.CLIENT || origin == AppendOrigin.COORDINATOR;
        int validBytes = 0;
        int batches = 0;
        int recordCount = 0;
        boolean hasProducerId = false;
        for (MutableRecordBatch batch : records.batches()) {
            int batchSize = batch.sizeInBytes();
            if (batch.magic() != RecordBatch.MAGIC_VALUE_V2) {
                throw new RecordValidationException(Errors.INVALID_RECORD, "Record batch with magic " + batch.magic()
                    + " appended to " + tp + "; only magic v2 is accepted");
            }
            if (fromClient && batch.baseOffset() != 0) {
                throw new RecordValidationException(Errors.INVALID_RECORD, "The baseOffset of the record batch in the append to "
                    + tp + " should be 0, but it is " + batch.baseOffset());
            }
            if (batchSize > config.maxMessageBytes()) {
                throw new RecordValidationException(Errors.MESSAGE_TOO_LARGE, "The record batch size in the append to " + tp
                    + " is " + batchSize + " bytes which exceeds the maximum configured value of " + config.maxMessageBytes());
            }
            try {
                batch.ensureValid();
            } catch (CorruptRecordException | InvalidRecordException e) {
                throw new RecordValidationException(Errors.CORRUPT_MESSAGE, "Record batch in the append to " + tp
                    + " is corrupt: " + e.getMessage());
            }
            long countFromOffsets = batch.lastOffset() - batch.baseOffset() + 1;
            Integer count = batch.countOrNull();
            if (countFromOffsets <= 0 || count == null || count <= 0 || countFromOffsets != count) {
                throw new RecordValidationException(Errors.INVALID_RECORD, "Inconsistent batch offset range "
                    + batch.baseOffset() + ".." + batch.lastOffset() + " and record count " + count + " in the append to " + tp);
            }
            if (origin == AppendOrigin.CLIENT && batch.isControlBatch()) {
                throw new RecordValidationException(Errors.INVALID_RECORD, "Clients are not allowed to write control records");
            }
            if (batch.hasProducerId()) {
                hasProducerId = true;
                if (batch.baseSequence() < 0 && !batch.isControlBatch()) {
                    throw new RecordValidationException(Errors.INVALID_RECORD, "Invalid sequence number "
                        + batch.baseSequence() + " in an idempotent batch appended to " + tp);
                }
            }
            validBytes += batchSize;
            batches++;
            recordCount += count;
        }
        if (fromClient && validBytes > config.segmentBytes()) {
            // As Kafka's UnifiedLog.append, once the batches are checked: an append must fit in one segment.
            throw new RecordValidationException(Errors.RECORD_LIST_TOO_LARGE, "Message batch size is "
                + validBytes + " bytes in append to partition " + tp
                + " which exceeds the maximum configured segment size of " + config.segmentBytes() + ".");
        }
        return new BatchSummary(validBytes, batches, recordCount, hasProducerId);
    }

    /**
     * Checks every record and assigns offsets from {@code firstOffset}, in place. A compressed batch
     * whose records' offset deltas are not 0, 1, 2, ... cannot take its offsets in place: as Kafka's
     * {@code LogValidator} does, it is rebuilt (decompressed and compressed again with the batch's
     * codec at its default level) with consecutive offsets, keeping the producer id, epoch, base
     * sequence, transactional and control flags, and every record's timestamp, key, value and
     * headers; the other batches are kept as sent.
     *
     * @param leaderEpoch the leader epoch written into each batch
     * @param now         current time, ms (LogAppendTime and timestamp bounds)
     * @throws RecordValidationException with INVALID_RECORD or INVALID_TIMESTAMP and the records at fault;
     *         MESSAGE_TOO_LARGE or RECORD_LIST_TOO_LARGE when a rebuilt batch outgrows {@code max.message.bytes}
     *         or the append {@code segment.bytes}
     */
    public static AssignedOffsets validateAndAssignOffsets(TopicPartition tp, MemoryRecords records, long firstOffset,
                                                           int leaderEpoch, LogConfig config, long now) {
        ByteBuffer buffer = records.buffer();
        int position = buffer.position();
        long nextOffset = firstOffset;
        long maxTimestamp = RecordBatch.NO_TIMESTAMP;
        long shallowOffsetOfMaxTimestamp = -1;
        boolean logAppendTime = config.messageTimestampType() == TimestampType.LOG_APPEND_TIME;
        MemoryRecords[] rebuilt = null; // by batch index, only once a batch is rebuilt
        Optional<Compression> target = config.targetCompression();
        int index = 0;
        for (MutableRecordBatch batch : records.batches()) {
            long batchMaxTimestamp;
            CompressionType compression = compressionOf(tp, batch);
            if (compression == CompressionType.SNAPPY) {
                String problem = SnappyFraming.problem(buffer.slice(position + DefaultRecordBatch.RECORD_BATCH_OVERHEAD,
                    Math.max(0, batch.sizeInBytes() - DefaultRecordBatch.RECORD_BATCH_OVERHEAD)));
                if (problem != null) {
                    throw invalid(tp, "Malformed compressed records: " + problem);
                }
            }
            int lastOffsetDelta = (int) (batch.lastOffset() - batch.baseOffset());
            Compression rebuildWith = null;
            if (compression != CompressionType.NONE) {
                batchMaxTimestamp = validateCompressedRecords(tp, batch, config, now);
                if (batchMaxTimestamp == NOT_CONSECUTIVE) {
                    rebuildWith = target.orElseGet(() -> Compression.of(compression).build());
                }
            } else {
                batchMaxTimestamp = validateUncompressedRecords(tp, batch, buffer, position, config, now);
            }
            // The topic's compression.type other than producer (Kafka's LogValidator): a batch of another codec is
            // compressed again with the topic's; a coordinator's uncompressed control batch stays as it is.
            if (rebuildWith == null && target.isPresent() && target.get().type() != compression
                    && !(compression == CompressionType.NONE && batch.isControlBatch())) {
                rebuildWith = target.get();
            }
            if (rebuildWith != null) {
                MemoryRecords batchRebuilt = CompressedBatchRebuild.rebuild(tp, batch, rebuildWith, nextOffset,
                    leaderEpoch, config, now, BUFFER_SUPPLIER.get());
                rebuilt = rebuilt == null ? new MemoryRecords[CompressedBatchRebuild.countBatches(records)] : rebuilt;
                rebuilt[index] = batchRebuilt;
                batchMaxTimestamp = batchRebuilt.batches().iterator().next().maxTimestamp();
            }
            position += batch.sizeInBytes();
            if (rebuilt == null || rebuilt[index] == null) {
                batch.setLastOffset(nextOffset + lastOffsetDelta);
                batch.setPartitionLeaderEpoch(leaderEpoch);
                if (logAppendTime) {
                    batch.setMaxTimestamp(TimestampType.LOG_APPEND_TIME, now);
                    batchMaxTimestamp = now;
                } else if (batch.timestampType() != TimestampType.CREATE_TIME || batch.maxTimestamp() != batchMaxTimestamp) {
                    // A client's LogAppendTime flag on a CreateTime topic is rewritten, as Kafka does.
                    batch.setMaxTimestamp(TimestampType.CREATE_TIME, batchMaxTimestamp);
                }
            }
            nextOffset += lastOffsetDelta + 1;
            if (batchMaxTimestamp > maxTimestamp) {
                maxTimestamp = batchMaxTimestamp;
                shallowOffsetOfMaxTimestamp = nextOffset - 1;
            }
            index++;
        }
        MemoryRecords toWrite = rebuilt == null ? records : CompressedBatchRebuild.assemble(tp, records, rebuilt, config);
        return new AssignedOffsets(toWrite, nextOffset - 1, maxTimestamp, shallowOffsetOfMaxTimestamp,
            logAppendTime ? now : RecordBatch.NO_TIMESTAMP);
    }

    /** What {@link #validateCompressedRecords} answers for a batch whose offset deltas are not 0, 1, 2, ... */
    private static final long NOT_CONSECUTIVE = Long.MIN_VALUE;

    /**
     * Walks the records of an uncompressed batch in its buffer: record layout (varint length,
     * attributes, varlong timestamp delta, varint offset delta, key, value, headers) checked
     * without allocating.
     *
     * @return the largest record timestamp
     */
    private static long validateUncompressedRecords(TopicPartition tp, RecordBatch batch, ByteBuffer buffer, int batchStart,
                                                    LogConfig config, long now) {
        int count = batch.countOrNull();
        int end = batchStart + batch.sizeInBytes();
        ByteBuffer view = buffer.duplicate();
        view.position(batchStart + DefaultRecordBatch.RECORD_BATCH_OVERHEAD);
        view.limit(end);
        long baseTimestamp = ((DefaultRecordBatch) batch).baseTimestamp();
        // A batch flagged LogAppendTime gives every record the batch's max timestamp, as kafka-clients reads it.
        boolean flaggedLogAppendTime = batch.timestampType() == TimestampType.LOG_APPEND_TIME;
        long maxTimestamp = RecordBatch.NO_TIMESTAMP;
        List<RecordError> errors = null;
        Errors errorCode = Errors.INVALID_RECORD;
        try {
            for (int i = 0; i < count; i++) {
                int length = ByteUtils.readVarint(view);
                int recordStart = view.position();
                if (length <= 0 || length > view.remaining()) {
                    throw invalid(tp, "Record " + i + " has invalid size " + length);
                }
                view.get(); // attributes
                long timestampDelta = ByteUtils.readVarlong(view);
                long timestamp = flaggedLogAppendTime ? batch.maxTimestamp() : baseTimestamp + timestampDelta;
                ByteUtils.readVarint(view); // offset delta: kept as sent, as Kafka keeps it in an uncompressed batch
                int keyLength = ByteUtils.readVarint(view);
                skip(view, keyLength);
                skip(view, ByteUtils.readVarint(view));
                int headers = ByteUtils.readVarint(view);
                if (headers < 0) {
                    throw invalid(tp, "Record " + i + " has " + headers + " headers");
                }
                for (int h = 0; h < headers; h++) {
                    int headerKeyLength = ByteUtils.readVarint(view);
                    if (headerKeyLength < 0) {
                        throw invalid(tp, "Record " + i + " has a header with a null key");
                    }
                    skip(view, headerKeyLength);
                    skip(view, ByteUtils.readVarint(view));
                }
                if (view.position() - recordStart != length) {
                    throw invalid(tp, "Record " + i + " declares " + length + " bytes but holds "
                        + (view.position() - recordStart));
                }
                Problem problem = recordProblem(i, keyLength >= 0, timestamp, flaggedLogAppendTime, config, now);
                if (problem != null) {
                    errors = addError(errors, i, problem.message());
                    errorCode = worse(errorCode, problem.error());
                }
                if (timestamp > maxTimestamp) {
                    maxTimestamp = timestamp;
                }
            }
        } catch (RuntimeException e) {
            if (e instanceof RecordValidationException rve) {
                throw rve;
            }
            throw invalid(tp, "Malformed records in batch: " + e);
        }
        if (view.hasRemaining()) {
            throw invalid(tp, "Batch has " + view.remaining() + " bytes after its " + count + " records");
        }
        throwIfErrors(tp, errors, errorCode);
        return maxTimestamp;
    }

    private static long validateCompressedRecords(TopicPartition tp, RecordBatch batch, LogConfig config, long now) {
        long maxTimestamp = RecordBatch.NO_TIMESTAMP;
        List<RecordError> errors = null;
        Errors errorCode = Errors.INVALID_RECORD;
        int i = 0;
        boolean consecutive = true;
        try (CloseableIterator<Record> records = ((DefaultRecordBatch) batch).skipKeyValueIterator(BUFFER_SUPPLIER.get())) {
            while (records.hasNext()) {
                Record record = records.next();
                // Offsets of a compressed batch are assigned in place only when its records' deltas are 0, 1, 2, ...
                consecutive &= record.offset() - batch.baseOffset() == i;
                Problem problem = recordProblem(i, record.hasKey(), record.timestamp(),
                    batch.timestampType() == TimestampType.LOG_APPEND_TIME, config, now);
                if (problem != null) {
                    errors = addError(errors, i, problem.message());
                    errorCode = worse(errorCode, problem.error());
                }
                maxTimestamp = Math.max(maxTimestamp, record.timestamp());
                i++;
            }
        } catch (CorruptRecordException | InvalidRecordException | IllegalStateException e) {
            throw invalid(tp, "Malformed compressed records: " + e.getMessage());
        } catch (org.apache.kafka.common.KafkaException e) {
            throw invalid(tp, "Compressed records cannot be read: " + e.getMessage());
        }
        if (i != batch.countOrNull()) {
            throw invalid(tp, "Batch declares " + batch.countOrNull() + " records but holds " + i);
        }
        throwIfErrors(tp, errors, errorCode);
        return consecutive ? maxTimestamp : NOT_CONSECUTIVE;
    }

    /** What is wrong with one record, and the partition error code it earns. */
    private record Problem(Errors error, String message) {
    }

    /** The code of a partition's refusal: INVALID_TIMESTAMP once any record has a timestamp error, as Kafka's processRecordErrors. */
    private static Errors worse(Errors current, Errors next) {
        return current == Errors.INVALID_TIMESTAMP ? current : next;
    }

    /**
     * @param flaggedLogAppendTime the client set the batch's timestamp type to LogAppendTime, which
     *                             only a broker may (refused on a LogAppendTime topic, as Kafka's
     *                             {@code LogValidator.validateTimestamp})
     */
    private static Problem recordProblem(int index, boolean hasKey, long timestamp,
                                         boolean flaggedLogAppendTime, LogConfig config, long now) {
        if (config.compact() && !hasKey) {
            return new Problem(Errors.INVALID_RECORD, "Compacted topic cannot accept message without key");
        }
        if (config.messageTimestampType() == TimestampType.CREATE_TIME && timestamp != RecordBatch.NO_TIMESTAMP) {
            if (now - timestamp > config.messageTimestampBeforeMaxMs()) {
                return new Problem(Errors.INVALID_TIMESTAMP, "Timestamp " + timestamp + " of message with offset delta " + index + " is before the broker's time "
                    + now + " by more than message.timestamp.before.max.ms=" + config.messageTimestampBeforeMaxMs());
            }
            if (timestamp - now > config.messageTimestampAfterMaxMs()) {
                return new Problem(Errors.INVALID_TIMESTAMP, "Timestamp " + timestamp + " of message with offset delta " + index + " is after the broker's time "
                    + now + " by more than message.timestamp.after.max.ms=" + config.messageTimestampAfterMaxMs());
            }
        } else if (flaggedLogAppendTime) {
            return new Problem(Errors.INVALID_TIMESTAMP, "Invalid timestamp type in message with offset delta " + index
                + ". Producer should not set timestamp type to LogAppendTime.");
        }
        return null;
    }

    private static List<RecordError> addError(List<RecordError> errors, int index, String message) {
        List<RecordError> list = errors == null ? new ArrayList<>() : errors;
        list.add(new RecordError(index, message));
        return list;
    }

    private static void throwIfErrors(TopicPartition tp, List<RecordError> errors, Errors errorCode) {
        if (errors != null) {
            throw new RecordValidationException(errorCode, "One or more records have been rejected in the append to "
                + tp + ": " + errors.get(0).message, errors);
        }
    }

    private static void skip(ByteBuffer view, int length) {
        if (length > 0) {
            if (length > view.remaining()) {
                throw new IllegalStateException("field of " + length + " bytes overruns the record");
            }
            view.position(view.position() + length);
        }
    }

    /** A batch's codec; an id no codec has (5 to 7) makes the batch invalid, not the broker fail. */
    private static CompressionType compressionOf(TopicPartition tp, RecordBatch batch) {
        try {
            return batch.compressionType();
        } catch (IllegalArgumentException e) {
            throw invalid(tp, "Batch has an unknown compression codec: " + e.getMessage());
        }
    }

    private static RecordValidationException invalid(TopicPartition tp, String message) {
        return new RecordValidationException(Errors.INVALID_RECORD, message + " (in the append to " + tp + ")");
    }
}
