package io.tributary.broker.share;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;

/** Record batches for share-partition tests. */
final class ShareTestRecords {

    private ShareTestRecords() {
    }

    /** The batches of {@code parts} one after the other. */
    static MemoryRecords concat(MemoryRecords... parts) {
        int size = 0;
        for (MemoryRecords part : parts) {
            size += part.sizeInBytes();
        }
        ByteBuffer buffer = ByteBuffer.allocate(size);
        for (MemoryRecords part : parts) {
            buffer.put(part.buffer().duplicate());
        }
        buffer.flip();
        return MemoryRecords.readableRecords(buffer);
    }

    /** A transaction's batch of {@code count} records by {@code producerId}. */
    static MemoryRecords transactional(long baseOffset, long producerId, int count) {
        SimpleRecord[] records = new SimpleRecord[count];
        for (int i = 0; i < count; i++) {
            records[i] = new SimpleRecord(("t" + (baseOffset + i)).getBytes());
        }
        return MemoryRecords.withTransactionalRecords(baseOffset, Compression.NONE, producerId, (short) 0, 0, 0, records);
    }

    /** A commit or abort marker of {@code producerId}'s transaction. */
    static MemoryRecords marker(long offset, long producerId, boolean commit) {
        return MemoryRecords.withEndTransactionMarker(offset, 0L, 0, producerId, (short) 0,
            new EndTransactionMarker(commit ? ControlRecordType.COMMIT : ControlRecordType.ABORT, 0));
    }

    /** Consecutive batches from {@code baseOffset}, of the given record counts. */
    static MemoryRecords batches(long baseOffset, int... counts) {
        List<MemoryRecords> parts = new ArrayList<>();
        long offset = baseOffset;
        int size = 0;
        for (int count : counts) {
            SimpleRecord[] records = new SimpleRecord[count];
            for (int i = 0; i < count; i++) {
                records[i] = new SimpleRecord(("v" + (offset + i)).getBytes());
            }
            MemoryRecords part = MemoryRecords.withRecords(offset, Compression.NONE, records);
            parts.add(part);
            size += part.sizeInBytes();
            offset += count;
        }
        ByteBuffer buffer = ByteBuffer.allocate(size);
        parts.forEach(p -> buffer.put(p.buffer().duplicate()));
        buffer.flip();
        return MemoryRecords.readableRecords(buffer);
    }
}
