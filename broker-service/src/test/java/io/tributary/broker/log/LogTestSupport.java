package io.tributary.broker.log;

import io.tributary.broker.config.LogConfig;
import io.tributary.broker.testing.MockScheduler;
import io.tributary.broker.testing.MockTime;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.Utils;

/** Builders and a log fixture shared by the storage tests. */
final class LogTestSupport {

    static final TopicPartition TP = new TopicPartition("events", 0);
    static final int PRODUCER_ID_EXPIRATION_MS = 86_400_000;

    private LogTestSupport() {
    }

    /**
     * A topic config with the given settings as broker defaults (string values), so that
     * segment.bytes may go down to 1 KiB as the broker's static default allows.
     */
    static LogConfig config(String... keyValues) {
        Map<String, Object> defaults = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            defaults.put(keyValues[i], keyValues[i + 1]);
        }
        return LogConfig.create(defaults, Map.of());
    }

    /** A value of {@code size} bytes, starting with {@code label} so reads can be told apart. */
    static String value(String label, int size) {
        StringBuilder sb = new StringBuilder(label);
        while (sb.length() < size) {
            sb.append('.');
        }
        return sb.toString();
    }

    static SimpleRecord[] simpleRecords(long timestamp, String... values) {
        SimpleRecord[] records = new SimpleRecord[values.length];
        for (int i = 0; i < values.length; i++) {
            records[i] = new SimpleRecord(timestamp, ("k" + i).getBytes(StandardCharsets.UTF_8),
                values[i].getBytes(StandardCharsets.UTF_8));
        }
        return records;
    }

    /** One batch as a client sends it (base offset 0), every record at {@code timestamp}. */
    static MemoryRecords records(long timestamp, String... values) {
        return MemoryRecords.withRecords(Compression.NONE, simpleRecords(timestamp, values));
    }

    /** One batch with its final offsets, as a segment stores it. */
    static MemoryRecords recordsAt(long baseOffset, long timestamp, String... values) {
        return MemoryRecords.withRecords(baseOffset, Compression.NONE, simpleRecords(timestamp, values));
    }

    /** One batch of an idempotent producer as the client sends it. */
    static MemoryRecords idempotent(long producerId, short epoch, int baseSequence, long timestamp, String... values) {
        return MemoryRecords.withIdempotentRecords(Compression.NONE, producerId, epoch, baseSequence,
            simpleRecords(timestamp, values));
    }

    /** Appends a batch that carries its offsets to a segment, as the log does. */
    static void appendTo(LogSegment segment, MemoryRecords records) throws IOException {
        long lastOffset = -1;
        long maxTimestamp = RecordBatch.NO_TIMESTAMP;
        long offsetOfMax = -1;
        for (RecordBatch batch : records.batches()) {
            lastOffset = batch.lastOffset();
            if (batch.maxTimestamp() > maxTimestamp) {
                maxTimestamp = batch.maxTimestamp();
                offsetOfMax = batch.lastOffset();
            }
        }
        segment.append(lastOffset, maxTimestamp, offsetOfMax, records);
    }

    /** Every record from {@code from} to the log end (LOG_END isolation), across segments. */
    static List<Record> readAll(PartitionLog log, long from) {
        List<Record> out = new ArrayList<>();
        long next = from;
        while (next < log.logEndOffset()) {
            FetchDataInfo info = log.read(next, Integer.MAX_VALUE, FetchIsolation.LOG_END, true);
            long before = next;
            for (Record record : info.records().records()) {
                if (record.offset() >= next) {
                    out.add(record);
                    next = record.offset() + 1;
                }
            }
            if (next == before) {
                break;
            }
        }
        return out;
    }

    static List<Long> offsets(List<Record> records) {
        return records.stream().map(Record::offset).toList();
    }

    static List<String> values(List<Record> records) {
        return records.stream().map(r -> Utils.utf8(r.value())).toList();
    }

    /** A partition log in a temporary directory with a mock clock and scheduler; reopened cleanly or after a crash. */
    static final class LogFixture {
        final MockTime time;
        final MockScheduler scheduler;
        final File dir;
        LogConfig config;
        PartitionLog log;

        LogFixture(File parent, LogConfig config) {
            this(parent, config, new MockTime());
        }

        LogFixture(File parent, LogConfig config, MockTime time) {
            this.time = time;
            this.scheduler = new MockScheduler(time);
            this.dir = new File(parent, "events-0");
            this.config = config;
            if (!dir.mkdirs() && !dir.isDirectory()) {
                throw new IllegalStateException("Could not create " + dir);
            }
        }

        PartitionLog open() throws IOException {
            log = LogLoader.load(dir, TP, config, 0, 0, 0, true, scheduler, time, PRODUCER_ID_EXPIRATION_MS);
            return log;
        }

        /** Closes the log as a clean shutdown does and loads it again, with its checkpointed offsets. */
        PartitionLog closeAndReload() throws IOException {
            long logStart = log.logStartOffset();
            long highWatermark = log.highWatermark();
            log.flush(log.logEndOffset());
            log.close();
            log = LogLoader.load(dir, TP, config, log.recoveryPoint(), logStart, highWatermark, true, scheduler, time,
                PRODUCER_ID_EXPIRATION_MS);
            return log;
        }

        /**
         * Abandons the log as a crash does (no flush, no producer snapshot, indexes left
         * preallocated) and loads it again without a clean-shutdown marker, recovering from
         * {@code recoveryPoint}.
         */
        PartitionLog crashAndReload(long recoveryPoint) throws IOException {
            long logStart = log.logStartOffset();
            long highWatermark = log.highWatermark();
            crash();
            return reloadUnclean(recoveryPoint, logStart, highWatermark);
        }

        void crash() {
            log.closeHandlers();
        }

        PartitionLog reloadUnclean(long recoveryPoint, long logStart, long highWatermark) throws IOException {
            log = LogLoader.load(dir, TP, config, recoveryPoint, logStart, highWatermark, false, scheduler, time,
                PRODUCER_ID_EXPIRATION_MS);
            return log;
        }

        PartitionLog reloadClean() throws IOException {
            log = LogLoader.load(dir, TP, config, 0, 0, 0, true, scheduler, time, PRODUCER_ID_EXPIRATION_MS);
            return log;
        }

        File segmentFile(long baseOffset, String suffix) {
            return new File(dir, LogFileNames.filenamePrefixFromOffset(baseOffset) + suffix);
        }
    }
}
