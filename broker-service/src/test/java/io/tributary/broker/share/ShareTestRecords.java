package io.tributary.broker.share;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;

/** Record batches for share-partition tests. */
final class ShareTestRecords {

    private ShareTestRecords() {
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
