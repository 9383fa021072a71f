package io.tributary.broker.share;

import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.Records;

/**
 * Cuts a read down to the batches that hold acquired records, as Kafka's share fetch answers:
 * batches before the first acquired offset and after the last are left out. Batches stay whole and
 * file slices stay file slices (zero copy); only batch headers are read.
 */
final class AcquiredBatches {

    private AcquiredBatches() {
    }

    /** The part of {@code records} from the batch holding the first acquired offset to the batch holding the last. */
    static Records slice(Records records, List<AcquiredRange> acquired) {
        if (acquired.isEmpty()) {
            return MemoryRecords.EMPTY;
        }
        long first = acquired.get(0).firstOffset();
        long last = acquired.get(acquired.size() - 1).lastOffset();
        int start = 0;
        int end = 0;
        int position = 0;
        for (RecordBatch batch : records.batches()) {
            int size = batch.sizeInBytes();
            if (batch.lastOffset() < first) {
                start = position + size;
            } else if (batch.baseOffset() <= last) {
                end = position + size;
            } else {
                break;
            }
            position += size;
        }
        if (start == 0 && end == records.sizeInBytes()) {
            return records;
        }
        if (end <= start) {
            return MemoryRecords.EMPTY;
        }
        if (records instanceof FileRecords file) {
            return file.slice(start, end - start);
        }
        if (records instanceof MemoryRecords memory) {
            ByteBuffer buffer = memory.buffer().duplicate();
            buffer.position(buffer.position() + start).limit(buffer.position() + end - start);
            return MemoryRecords.readableRecords(buffer.slice());
        }
        return records;
    }
}
