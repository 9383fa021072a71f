package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.BaseRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.requests.ProduceRequest;

/**
 * Reading a Produce partition's record batches before they are appended, when they may be corrupt: kafka-clients
 * throws {@link IllegalArgumentException} for some corrupt batch headers (a length that overflows a buffer limit,
 * a codec id no codec has) where a {@code CorruptRecordException} would be due. Here all of those make the partition
 * CORRUPT_MESSAGE instead of failing the whole request with UNKNOWN_SERVER_ERROR (found by issue 21's fuzzer, seed 1:
 * ~640 ERROR lines with stack traces in 23 s). Stateless; thread-safe.
 */
final class ProducedBatches {

    private ProducedBatches() {
    }

    /** The partition's batches; none when they cannot all be read (the partition is then refused by {@link #check}). */
    static List<RecordBatch> readable(BaseRecords records) {
        List<RecordBatch> batches = new ArrayList<>();
        try {
            for (RecordBatch batch : ((MemoryRecords) records).batches()) {
                batch.compressionType(); // an unknown codec id throws here, not later
                batches.add(batch);
            }
        } catch (RuntimeException e) {
            return List.of();
        }
        return batches;
    }

    /**
     * Kafka's {@link ProduceRequest#validateRecords} (magic, one batch from v3, zstd from v7) with corrupt batches,
     * and codec ids no codec has, refused.
     *
     * @return null when the records may be appended, else the partition's error and its message
     */
    static Refusal check(short version, BaseRecords records) {
        try {
            ProduceRequest.validateRecords(version, records);
            for (RecordBatch batch : ((MemoryRecords) records).batches()) {
                batch.compressionType(); // an unknown codec id throws here, whatever the version
            }
            return null;
        } catch (ApiException e) {
            return new Refusal(Errors.forException(e), e.getMessage());
        } catch (IllegalArgumentException e) {
            return new Refusal(Errors.CORRUPT_MESSAGE, "Corrupt record batch: " + e.getMessage());
        }
    }

    /** Why a partition's records are refused. */
    record Refusal(Errors error, String message) {
    }
}
