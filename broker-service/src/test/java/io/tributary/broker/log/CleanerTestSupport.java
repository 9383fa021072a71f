package io.tributary.broker.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.log.LogTestSupport.LogFixture;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.Utils;

/** Keyed records, reads that step over cleaned-away offsets, and what a cleaning should leave. */
final class CleanerTestSupport {

    /** One record as read back; {@code value} is null for a tombstone. */
    record KeyValue(long offset, String key, String value) {
    }

    private CleanerTestSupport() {
    }

    /** A batch of keyed records; a null value is a tombstone. Arguments alternate key, value. */
    static MemoryRecords keyed(long timestamp, String... keyValues) {
        SimpleRecord[] records = new SimpleRecord[keyValues.length / 2];
        for (int i = 0; i < records.length; i++) {
            String value = keyValues[2 * i + 1];
            records[i] = new SimpleRecord(timestamp, keyValues[2 * i].getBytes(StandardCharsets.UTF_8),
                value == null ? null : value.getBytes(StandardCharsets.UTF_8));
        }
        return MemoryRecords.withRecords(Compression.NONE, records);
    }

    /** An idempotent producer's batch of keyed records. */
    static MemoryRecords idempotentKeyed(long producerId, short epoch, int baseSequence, long timestamp, String... keyValues) {
        SimpleRecord[] records = new SimpleRecord[keyValues.length / 2];
        for (int i = 0; i < records.length; i++) {
            records[i] = new SimpleRecord(timestamp, keyValues[2 * i].getBytes(StandardCharsets.UTF_8),
                keyValues[2 * i + 1].getBytes(StandardCharsets.UTF_8));
        }
        return MemoryRecords.withIdempotentRecords(Compression.NONE, producerId, epoch, baseSequence, records);
    }

    /** A value of about 100 bytes, so that 1 KiB segments hold a handful of records. */
    static String fat(String value) {
        return LogTestSupport.value(value, 100);
    }

    /** Every record from the log start to the log end, stepping over offsets gaps and emptied batches. */
    static List<KeyValue> readAll(PartitionLog log) {
        List<KeyValue> out = new ArrayList<>();
        long next = log.logStartOffset();
        while (next < log.logEndOffset()) {
            FetchDataInfo info = log.read(next, Integer.MAX_VALUE, FetchIsolation.LOG_END, true);
            long before = next;
            for (RecordBatch batch : info.records().batches()) {
                for (Record r : batch) {
                    if (r.offset() >= next) {
                        out.add(new KeyValue(r.offset(), Utils.utf8(r.key()), r.hasValue() ? Utils.utf8(r.value()) : null));
                    }
                }
                next = Math.max(next, batch.nextOffset());
            }
            assertThat(next).as("read from offset %d makes progress", before).isGreaterThan(before);
        }
        return out;
    }

    /** Reads every retained offset on its own: the indexes lead to the batch holding it. */
    static void assertEachOffsetReadable(PartitionLog log, List<KeyValue> records) {
        for (KeyValue kv : records) {
            FetchDataInfo info = log.read(kv.offset(), 1, FetchIsolation.LOG_END, true);
            RecordBatch first = info.records().batches().iterator().next();
            assertThat(first.baseOffset()).as("batch read at offset %d", kv.offset()).isLessThanOrEqualTo(kv.offset());
            assertThat(first.lastOffset()).as("batch read at offset %d", kv.offset()).isGreaterThanOrEqualTo(kv.offset());
        }
    }

    /**
     * What a full cleaning of {@code [0, cleanedUpTo)} leaves of {@code before}: below it, the
     * latest record of each key (tombstones too when {@code keepTombstones}); from it on, everything.
     */
    static List<KeyValue> expectedAfterClean(List<KeyValue> before, long cleanedUpTo, boolean keepTombstones) {
        Map<String, Long> latest = new HashMap<>();
        for (KeyValue kv : before) {
            if (kv.offset() < cleanedUpTo) {
                latest.put(kv.key(), kv.offset());
            }
        }
        List<KeyValue> out = new ArrayList<>();
        for (KeyValue kv : before) {
            boolean keep = kv.offset() >= cleanedUpTo
                || (latest.get(kv.key()) == kv.offset() && (kv.value() != null || keepTombstones));
            if (keep) {
                out.add(kv);
            }
        }
        return out;
    }

    /** The latest value of each key, in key order of first appearance; tombstoned keys map to null. */
    static Map<String, String> latestValues(List<KeyValue> records) {
        Map<String, String> latest = new LinkedHashMap<>();
        records.forEach(kv -> latest.put(kv.key(), kv.value()));
        return latest;
    }

    static void assertStrictlyIncreasing(List<KeyValue> records) {
        for (int i = 1; i < records.size(); i++) {
            assertThat(records.get(i).offset()).isGreaterThan(records.get(i - 1).offset());
        }
    }

    /** A cleaner of the fixture's log (whatever log object the fixture holds now), not started. */
    static LogCleaner cleanerFor(LogFixture f, File logDirParent, long dedupeBufferBytes) {
        return new LogCleaner(new LogCleaner.Config(1, dedupeBufferBytes, 64 * 1024, 1000), List.of(logDirParent),
            () -> f.log == null || f.log.isClosed() ? List.of() : List.of(f.log), f.time);
    }

    /** Names of the files in the partition directory with the given suffix. */
    static List<String> filesEndingWith(LogFixture f, String suffix) {
        String[] names = f.dir.list((d, name) -> name.endsWith(suffix));
        return names == null ? List.of() : List.of(names);
    }
}
