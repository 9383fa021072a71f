package io.tributary.broker.log;

import static io.tributary.broker.log.LogTestSupport.TP;
import static io.tributary.broker.log.LogTestSupport.config;
import static io.tributary.broker.log.LogTestSupport.readAll;
import static io.tributary.broker.log.LogTestSupport.records;
import static io.tributary.broker.log.LogTestSupport.recordsAt;
import static io.tributary.broker.log.LogTestSupport.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.config.LogConfig;
import io.tributary.broker.log.LogTestSupport.LogFixture;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.CompressionType;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LogValidatorTest {

    private static final long HOUR = 3_600_000L;

    @TempDir
    File tmp;

    private LogFixture f;
    private PartitionLog log;

    private PartitionLog open(LogConfig config) throws IOException {
        f = new LogFixture(tmp, config);
        log = f.open();
        return log;
    }

    private long now() {
        return f.time.milliseconds();
    }

    private void assertRejected(MemoryRecords records, Errors error) {
        long end = log.logEndOffset();
        assertThatThrownBy(() -> log.appendAsLeader(records, 0))
            .isInstanceOfSatisfying(RecordValidationException.class, e -> assertThat(e.error()).isEqualTo(error));
        assertThat(log.logEndOffset()).isEqualTo(end);
    }

    private static Compression compression(String name) {
        return Compression.of(CompressionType.forName(name)).build();
    }

    @Test
    void aClientBatchMustStartAtOffsetZero() throws IOException {
        open(config());

        assertRejected(recordsAt(5, now(), "a"), Errors.INVALID_RECORD);

        assertThatCode(() -> LogValidator.analyze(TP, recordsAt(5, now(), "a"), log.config(), false))
            .as("a follower copies the leader's offsets").doesNotThrowAnyException();
    }

    @Test
    void aBatchWhoseCrcDoesNotMatchIsCorrupt() throws IOException {
        open(config());
        MemoryRecords records = records(now(), "payload");
        ByteBuffer buffer = records.buffer();
        int last = buffer.limit() - 2;
        buffer.put(last, (byte) (buffer.get(last) ^ 0x7F));

        assertRejected(MemoryRecords.readableRecords(buffer), Errors.CORRUPT_MESSAGE);
    }

    @Test
    void aBatchLargerThanMaxMessageBytesIsTooLarge() throws IOException {
        MemoryRecords records = records(MockTimeStart.T, "0123456789".repeat(10));
        int size = records.sizeInBytes();
        open(config("max.message.bytes", Integer.toString(size - 1)));

        assertRejected(records(now(), "0123456789".repeat(10)), Errors.MESSAGE_TOO_LARGE);

        log.updateConfig(config("max.message.bytes", Integer.toString(size)));
        assertThat(log.appendAsLeader(records(now(), "0123456789".repeat(10)), 0).lastOffset()).isZero();
    }

    @Test
    void onlyMagicV2IsAccepted() throws IOException {
        open(config());

        assertRejected(MemoryRecords.withRecords(RecordBatch.MAGIC_VALUE_V1, Compression.NONE,
            new SimpleRecord(now(), "k".getBytes(), "v".getBytes())), Errors.INVALID_RECORD);
    }

    @Test
    void clientsMayNotWriteControlBatches() throws IOException {
        open(config());

        assertRejected(MemoryRecords.withEndTransactionMarker(0L, now(), 0, 9L, (short) 0,
            new EndTransactionMarker(ControlRecordType.COMMIT, 0)), Errors.INVALID_RECORD);
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "gzip"})
    void aCompactedTopicRejectsRecordsWithoutAKeyNamingEachOne(String codec) throws IOException {
        open(config("cleanup.policy", "compact"));
        MemoryRecords records = MemoryRecords.withRecords(compression(codec),
            new SimpleRecord(now(), "k0".getBytes(), "a".getBytes()),
            new SimpleRecord(now(), null, "b".getBytes()),
            new SimpleRecord(now(), "k2".getBytes(), "c".getBytes()),
            new SimpleRecord(now(), null, "d".getBytes()));

        assertThatThrownBy(() -> log.appendAsLeader(records, 0))
            .isInstanceOfSatisfying(RecordValidationException.class, e -> {
                assertThat(e.error()).isEqualTo(Errors.INVALID_RECORD);
                assertThat(e.recordErrors().stream().map(r -> r.batchIndex).toList()).containsExactly(1, 3);
                assertThat(e.getMessage()).contains("Compacted topic cannot accept message without key");
            });
        assertThat(log.logEndOffset()).isZero();
        assertThat(log.appendAsLeader(records(now(), "keyed"), 0).firstOffset()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "lz4"})
    void createTimeTimestampsMustLieWithinTheConfiguredBounds(String codec) throws IOException {
        open(config("message.timestamp.before.max.ms", Long.toString(HOUR), "message.timestamp.after.max.ms",
            Long.toString(HOUR)));
        long now = now();

        for (long ts : new long[] {now - HOUR - 1, now + HOUR + 1}) {
            MemoryRecords records = MemoryRecords.withRecords(compression(codec),
                new SimpleRecord(now, "k".getBytes(), "ok".getBytes()), new SimpleRecord(ts, "k".getBytes(), "bad".getBytes()));
            assertThatThrownBy(() -> log.appendAsLeader(records, 0))
                .isInstanceOfSatisfying(RecordValidationException.class, e -> {
                    assertThat(e.error()).isEqualTo(Errors.INVALID_TIMESTAMP);
                    assertThat(e.recordErrors().stream().map(r -> r.batchIndex).toList()).containsExactly(1);
                });
        }
        MemoryRecords atTheBounds = MemoryRecords.withRecords(compression(codec),
            new SimpleRecord(now - HOUR, "k".getBytes(), "a".getBytes()), new SimpleRecord(now + HOUR, "k".getBytes(), "b".getBytes()));
        assertThat(log.appendAsLeader(atTheBounds, 0).lastOffset()).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "zstd"})
    void logAppendTimeTopicsStampTheBrokerTimeOnTheBatch(String codec) throws IOException {
        open(config("message.timestamp.type", "LogAppendTime", "message.timestamp.before.max.ms", "1000"));
        f.time.advance(5000);
        long old = now() - 10 * HOUR;
        MemoryRecords records = MemoryRecords.withRecords(compression(codec),
            new SimpleRecord(old, "k".getBytes(), "a".getBytes()), new SimpleRecord(old + 1, "k".getBytes(), "b".getBytes()));

        LogAppendInfo info = log.appendAsLeader(records, 0);

        assertThat(info.logAppendTime()).isEqualTo(now());
        assertThat(info.maxTimestamp()).isEqualTo(now());
        RecordBatch stored = log.read(0, 10_000, FetchIsolation.LOG_END, true).records().batches().iterator().next();
        assertThat(stored.timestampType()).isEqualTo(TimestampType.LOG_APPEND_TIME);
        assertThat(stored.maxTimestamp()).isEqualTo(now());
        assertThat(stored.isValid()).as("the CRC covers the new max timestamp").isTrue();
        for (Record record : readAll(log, 0)) {
            assertThat(record.timestamp()).isEqualTo(now());
        }
        assertThat(log.fetchOffsetByTimestamp(now()).orElseThrow().offset).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"gzip", "snappy", "lz4", "zstd"})
    void compressedBatchesAreStoredAsSentExceptForOffsetsAndLeaderEpoch(String codec) throws IOException {
        open(config());
        log.appendAsLeader(records(now(), "x", "y", "z"), 0);
        SimpleRecord[] rs = new SimpleRecord[20];
        for (int i = 0; i < rs.length; i++) {
            rs[i] = new SimpleRecord(now() + i, ("k" + i).getBytes(), ("value-" + i + "-" + "abc".repeat(20)).getBytes());
        }
        MemoryRecords sent = MemoryRecords.withRecords(compression(codec), rs);
        byte[] original = Arrays.copyOf(sent.buffer().array(), sent.sizeInBytes());

        LogAppendInfo info = log.appendAsLeader(sent, 7);

        assertThat(List.of(info.firstOffset(), info.lastOffset())).containsExactly(3L, 22L);
        int position = log.read(3, 10, FetchIsolation.LOG_END, true).fetchOffsetMetadata().relativePositionInSegment();
        byte[] file = Files.readAllBytes(f.segmentFile(0, ".log").toPath());
        byte[] stored = Arrays.copyOfRange(file, position, position + original.length);
        ByteBuffer header = ByteBuffer.wrap(stored);
        assertThat(header.getLong(0)).as("base offset").isEqualTo(3);
        assertThat(header.getInt(12)).as("partition leader epoch").isEqualTo(7);
        assertThat(Arrays.copyOfRange(stored, 8, 12)).as("length").isEqualTo(Arrays.copyOfRange(original, 8, 12));
        assertThat(Arrays.copyOfRange(stored, 16, stored.length)).as("magic, CRC, attributes, ..., compressed records")
            .isEqualTo(Arrays.copyOfRange(original, 16, original.length));
        assertThat(position + original.length).as("nothing else was written").isEqualTo(file.length);

        RecordBatch batch = MemoryRecords.readableRecords(ByteBuffer.wrap(stored)).batches().iterator().next();
        assertThat(batch.isValid()).isTrue();
        assertThat(batch.compressionType()).isEqualTo(CompressionType.forName(codec));
        List<Record> read = readAll(log, 3);
        assertThat(read).hasSize(20);
        assertThat(read.get(19).offset()).isEqualTo(22);
        assertThat(values(read).get(5)).startsWith("value-5-");
    }

    @Test
    void aTrailingPartialBatchIsIgnored() throws IOException {
        open(config());
        MemoryRecords whole = records(now(), "a", "b");
        ByteBuffer withTail = ByteBuffer.allocate(whole.sizeInBytes() + 30).put(whole.buffer());
        withTail.put(records(now(), "c").buffer().limit(30)).flip();

        LogAppendInfo info = log.appendAsLeader(MemoryRecords.readableRecords(withTail), 0);

        assertThat(info.lastOffset()).isEqualTo(1);
        assertThat(log.size()).isEqualTo(whole.sizeInBytes());
    }

    @Test
    void offsetsAreAssignedInPlaceAcrossBatches() throws IOException {
        open(config());
        MemoryRecords first = records(now(), "a", "b");
        MemoryRecords second = records(now() + 5, "c");
        ByteBuffer both = ByteBuffer.allocate(first.sizeInBytes() + second.sizeInBytes()).put(first.buffer()).put(second.buffer()).flip();
        MemoryRecords records = MemoryRecords.readableRecords(both);

        LogValidator.AssignedOffsets assigned = LogValidator.validateAndAssignOffsets(TP, records, 40, 3, log.config(), now());

        assertThat(assigned.lastOffset()).isEqualTo(42);
        assertThat(assigned.maxTimestamp()).isEqualTo(now() + 5);
        assertThat(assigned.shallowOffsetOfMaxTimestamp()).isEqualTo(42);
        assertThat(assigned.logAppendTime()).isEqualTo(RecordBatch.NO_TIMESTAMP);
        List<Long> baseOffsets = new java.util.ArrayList<>();
        records.batches().forEach(b -> {
            baseOffsets.add(b.baseOffset());
            assertThat(b.partitionLeaderEpoch()).isEqualTo(3);
            assertThat(b.isValid()).isTrue();
        });
        assertThat(baseOffsets).containsExactly(40L, 42L);
    }

    /** The mock clock's start, for sizing records before a fixture exists. */
    private static final class MockTimeStart {
        static final long T = io.tributary.broker.testing.MockTime.DEFAULT_START_MS;
    }
}
