package io.tributary.broker.log;

import static io.tributary.broker.log.LogTestSupport.config;
import static io.tributary.broker.log.LogTestSupport.offsets;
import static io.tributary.broker.log.LogTestSupport.readAll;
import static io.tributary.broker.log.LogTestSupport.records;
import static io.tributary.broker.log.LogTestSupport.value;
import static io.tributary.broker.log.LogTestSupport.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.log.LogTestSupport.LogFixture;
import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.stream.LongStream;
import org.apache.kafka.common.errors.OffsetOutOfRangeException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionLogTest {

    @TempDir
    File tmp;

    private LogFixture f;
    private PartitionLog log;

    private PartitionLog open(io.tributary.broker.config.LogConfig config) throws IOException {
        f = new LogFixture(tmp, config);
        log = f.open();
        return log;
    }

    private long now() {
        return f.time.milliseconds();
    }

    private LogAppendInfo append(long timestamp, String... values) {
        return log.appendAsLeader(records(timestamp, values), 0);
    }

    /** Appends one record of about {@code size} bytes per call, at the current time. */
    private void appendLarge(int count, int size) {
        for (int i = 0; i < count; i++) {
            log.appendAsLeader(records(now(), value("r" + log.logEndOffset(), size)), 0);
        }
    }

    @Test
    void appendsGetContiguousOffsets() throws IOException {
        open(config());

        LogAppendInfo first = append(now(), "a", "b");
        LogAppendInfo second = append(now(), "c");
        LogAppendInfo third = append(now(), "d", "e", "f");

        assertThat(List.of(first.firstOffset(), first.lastOffset())).containsExactly(0L, 1L);
        assertThat(List.of(second.firstOffset(), second.lastOffset())).containsExactly(2L, 2L);
        assertThat(List.of(third.firstOffset(), third.lastOffset())).containsExactly(3L, 5L);
        assertThat(third.recordCount()).isEqualTo(3);
        assertThat(third.duplicate()).isFalse();
        assertThat(log.logEndOffset()).isEqualTo(6);
        List<Record> read = readAll(log, 0);
        assertThat(offsets(read)).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
        assertThat(values(read)).containsExactly("a", "b", "c", "d", "e", "f");
    }

    @Test
    void appendsStampTheLeaderEpochAndRecordItInTheCache() throws IOException {
        open(config());

        log.appendAsLeader(records(now(), "a", "b"), 3);
        log.appendAsLeader(records(now(), "c"), 3);
        log.appendAsLeader(records(now(), "d"), 5);

        assertThat(log.leaderEpochCache().entries()).containsExactly(new EpochEntry(3, 0), new EpochEntry(5, 3));
        List<Integer> epochs = new java.util.ArrayList<>();
        log.read(0, Integer.MAX_VALUE, FetchIsolation.LOG_END, true).records().batches()
            .forEach(b -> epochs.add(b.partitionLeaderEpoch()));
        assertThat(epochs).containsExactly(3, 3, 5);
    }

    @Test
    void readsWithHighWatermarkIsolationStopAtTheHighWatermark() throws IOException {
        open(config());
        append(now(), "a", "b");
        append(now(), "c");
        append(now(), "d", "e", "f");
        assertThat(log.highWatermark()).isZero();

        FetchDataInfo nothingCommitted = log.read(0, Integer.MAX_VALUE, FetchIsolation.HIGH_WATERMARK, true);
        assertThat(nothingCommitted.records().sizeInBytes()).isZero();
        assertThat(nothingCommitted.fetchOffsetMetadata().messageOffset()).isZero();

        log.updateHighWatermark(3);
        assertThat(offsets(recordsOf(log.read(0, Integer.MAX_VALUE, FetchIsolation.HIGH_WATERMARK, true))))
            .containsExactly(0L, 1L, 2L);
        assertThat(offsets(recordsOf(log.read(0, Integer.MAX_VALUE, FetchIsolation.TXN_COMMITTED, true))))
            .containsExactly(0L, 1L, 2L);
        FetchDataInfo atHighWatermark = log.read(3, Integer.MAX_VALUE, FetchIsolation.HIGH_WATERMARK, true);
        assertThat(atHighWatermark.records().sizeInBytes()).isZero();
        assertThat(atHighWatermark.fetchOffsetMetadata().messageOffset()).isEqualTo(3);
        assertThat(log.read(4, Integer.MAX_VALUE, FetchIsolation.HIGH_WATERMARK, true).records().sizeInBytes()).isZero();
        assertThat(offsets(recordsOf(log.read(3, Integer.MAX_VALUE, FetchIsolation.LOG_END, true))))
            .containsExactly(3L, 4L, 5L);

        // A high watermark inside a batch: the batch is not yet wholly committed.
        log.updateHighWatermark(4);
        assertThat(offsets(recordsOf(log.read(0, Integer.MAX_VALUE, FetchIsolation.HIGH_WATERMARK, true))))
            .containsExactly(0L, 1L, 2L);

        log.updateHighWatermark(6);
        assertThat(offsets(recordsOf(log.read(0, Integer.MAX_VALUE, FetchIsolation.HIGH_WATERMARK, true))))
            .containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
    }

    private static List<Record> recordsOf(FetchDataInfo info) {
        List<Record> out = new java.util.ArrayList<>();
        info.records().records().forEach(out::add);
        return out;
    }

    @Test
    void readsOutsideTheLogAreOutOfRange() throws IOException {
        open(config());
        append(now(), "a", "b");

        assertThat(log.read(2, 1000, FetchIsolation.LOG_END, true).records().sizeInBytes())
            .as("reading at the log end offset is an empty read").isZero();
        assertThatThrownBy(() -> log.read(3, 1000, FetchIsolation.LOG_END, true))
            .isInstanceOf(OffsetOutOfRangeException.class);
        assertThatThrownBy(() -> log.read(-1, 1000, FetchIsolation.LOG_END, true))
            .isInstanceOf(OffsetOutOfRangeException.class);
    }

    @Test
    void theHighWatermarkStaysWithinTheLog() throws IOException {
        open(config());
        append(now(), "a", "b", "c");

        log.updateHighWatermark(100);
        assertThat(log.highWatermark()).isEqualTo(3);
        assertThat(log.fetchHighWatermarkMetadata()).isEqualTo(log.logEndOffsetMetadata());

        log.updateHighWatermark(1);
        assertThat(log.maybeIncrementHighWatermark(LogOffsetMetadata.unknownPosition(0))).isFalse();
        assertThat(log.maybeIncrementHighWatermark(LogOffsetMetadata.unknownPosition(2))).isTrue();
        assertThat(log.highWatermark()).isEqualTo(2);
        assertThat(log.fetchHighWatermarkMetadata().positionKnown()).isTrue();
    }

    @Test
    void rollsANewSegmentWhenSegmentBytesWouldBeExceeded() throws IOException {
        open(config("segment.bytes", "1024"));

        appendLarge(7, 300);

        assertThat(log.numberOfSegments()).isEqualTo(4);
        assertThat(log.segmentBaseOffsets()).containsExactly(0L, 2L, 4L, 6L);
        for (long base : log.segmentBaseOffsets()) {
            assertThat(f.segmentFile(base, ".log").length()).isBetween(1L, 1024L);
        }
        assertThat(offsets(readAll(log, 0))).containsExactlyElementsOf(LongStream.range(0, 7).boxed().toList());
        assertThat(values(readAll(log, 5)).get(0)).startsWith("r5.");
    }

    @Test
    void rollsANewSegmentWhenSegmentMsHasElapsed() throws IOException {
        open(config("segment.ms", "60000"));
        append(now(), "a");

        f.time.advance(59_999);
        append(now(), "b");
        assertThat(log.numberOfSegments()).isEqualTo(1);

        f.time.advance(2);
        append(now(), "c");
        assertThat(log.segmentBaseOffsets()).containsExactly(0L, 2L);
        assertThat(values(readAll(log, 0))).containsExactly("a", "b", "c");
    }

    @Test
    void aRollSnapshotsProducerStateAndSchedulesAFlushThatMovesTheRecoveryPoint() throws IOException {
        open(config("segment.bytes", "1024"));
        appendLarge(3, 300);
        assertThat(log.segmentBaseOffsets()).containsExactly(0L, 2L);
        assertThat(log.producerStateManager().snapshotOffsets()).contains(2L);
        assertThat(log.recoveryPoint()).isZero();

        f.scheduler.tick();

        assertThat(log.recoveryPoint()).isEqualTo(2);
    }

    @Test
    void flushMessagesMovesTheRecoveryPointWithTheAppends() throws IOException {
        open(config("flush.messages", "2"));

        append(now(), "a");
        assertThat(log.recoveryPoint()).isZero();
        append(now(), "b");
        assertThat(log.recoveryPoint()).isEqualTo(2);
        append(now(), "c", "d");
        assertThat(log.recoveryPoint()).isEqualTo(4);
    }

    @Test
    void aConfigUpdateAppliesToTheNextAppend() throws IOException {
        open(config());
        append(now(), "a");
        f.time.advance(10_000);
        append(now(), "b");
        assertThat(log.numberOfSegments()).isEqualTo(1);

        log.updateConfig(config("segment.ms", "5000", "max.message.bytes", "200"));
        f.time.advance(10_000);
        append(now(), "c");

        assertThat(log.segmentBaseOffsets()).containsExactly(0L, 2L);
        assertThatThrownBy(() -> append(now(), value("big", 300)))
            .isInstanceOfSatisfying(RecordValidationException.class,
                e -> assertThat(e.error()).isEqualTo(Errors.MESSAGE_TOO_LARGE));
        assertThat(log.logEndOffset()).isEqualTo(3);
    }

    @Test
    void deleteRecordsRaisesTheLogStartOffsetUpToTheHighWatermark() throws IOException {
        open(config());
        for (int i = 0; i < 10; i++) {
            log.appendAsLeader(records(now(), "v" + i), i < 5 ? 1 : 2);
        }
        log.updateHighWatermark(8);

        assertThat(log.maybeIncrementLogStartOffset(6, "DeleteRecords")).isTrue();

        assertThat(log.logStartOffset()).isEqualTo(6);
        assertThat(offsets(readAll(log, 6)).get(0)).isEqualTo(6);
        assertThatThrownBy(() -> log.read(5, 1000, FetchIsolation.LOG_END, true))
            .isInstanceOf(OffsetOutOfRangeException.class);
        assertThat(log.leaderEpochCache().entries()).containsExactly(new EpochEntry(2, 6));
        assertThat(log.maybeIncrementLogStartOffset(3, "lower")).isFalse();
        assertThat(log.logStartOffset()).isEqualTo(6);
        assertThatThrownBy(() -> log.maybeIncrementLogStartOffset(9, "above the high watermark"))
            .isInstanceOf(OffsetOutOfRangeException.class);
        assertThat(log.logStartOffset()).isEqualTo(6);
    }

    @Test
    void fetchOffsetByTimestampFindsTheFirstRecordAtOrAfterTheTimestampAcrossSegments() throws IOException {
        open(config("segment.bytes", "1024"));
        long t0 = now();
        for (int i = 0; i < 8; i++) {
            log.appendAsLeader(records(t0 + 100L * i, value("r" + i, 300)), 0);
        }
        assertThat(log.numberOfSegments()).isGreaterThan(2);

        assertThat(log.fetchOffsetByTimestamp(t0 - 1).orElseThrow().offset).isZero();
        assertThat(log.fetchOffsetByTimestamp(t0 + 300).orElseThrow().offset).isEqualTo(3);
        FileRecords.TimestampAndOffset between = log.fetchOffsetByTimestamp(t0 + 450).orElseThrow();
        assertThat(between.offset).isEqualTo(5);
        assertThat(between.timestamp).isEqualTo(t0 + 500);
        assertThat(log.fetchOffsetByTimestamp(t0 + 701)).isEmpty();

        log.updateHighWatermark(8);
        log.maybeIncrementLogStartOffset(3, "DeleteRecords");
        assertThat(log.fetchOffsetByTimestamp(t0).orElseThrow().offset).as("not below the log start offset").isEqualTo(3);
    }

    @Test
    void fetchOffsetOfMaxTimestampFindsItsFirstOccurrenceAndSurvivesAReload() throws IOException {
        open(config("segment.bytes", "1024"));
        long t0 = now();
        long[] timestamps = {t0 + 100, t0 + 200, t0 + 900, t0 + 300, t0 + 900, t0 + 400, t0 + 500};
        for (long ts : timestamps) {
            log.appendAsLeader(records(ts, value("x", 300)), 0);
        }

        FileRecords.TimestampAndOffset max = log.fetchOffsetOfMaxTimestamp().orElseThrow();
        assertThat(max.offset).isEqualTo(2);
        assertThat(max.timestamp).isEqualTo(t0 + 900);

        log = f.closeAndReload();
        assertThat(log.fetchOffsetOfMaxTimestamp().orElseThrow().offset).isEqualTo(2);
        assertThat(log.fetchOffsetByTimestamp(t0 + 450).orElseThrow().offset).isEqualTo(2);
    }

    @Test
    void truncateToRemovesEverythingFromTheOffsetAcrossSegments() throws IOException {
        open(config("segment.bytes", "1024"));
        for (int i = 0; i < 8; i++) {
            log.appendAsLeader(records(now(), value("r" + i, 300)), i < 4 ? 1 : 2);
        }
        log.updateHighWatermark(8);
        assertThat(log.segmentBaseOffsets()).containsExactly(0L, 2L, 4L, 6L);

        assertThat(log.truncateTo(5)).isTrue();

        assertThat(log.logEndOffset()).isEqualTo(5);
        assertThat(log.highWatermark()).isEqualTo(5);
        assertThat(log.segmentBaseOffsets()).containsExactly(0L, 2L, 4L);
        assertThat(offsets(readAll(log, 0))).containsExactly(0L, 1L, 2L, 3L, 4L);
        assertThat(log.leaderEpochCache().entries()).containsExactly(new EpochEntry(1, 0), new EpochEntry(2, 4));
        assertThat(f.segmentFile(6, ".log.deleted")).exists();

        assertThat(log.appendAsLeader(records(now(), "after"), 3).firstOffset()).isEqualTo(5);
        assertThat(log.truncateTo(6)).as("nothing at or above the log end").isFalse();

        log = f.closeAndReload();
        assertThat(log.logEndOffset()).isEqualTo(6);
        assertThat(values(readAll(log, 4))).hasSize(2).last().isEqualTo("after");
    }

    @Test
    void truncateFullyRestartsTheLogAtTheGivenOffset() throws IOException {
        open(config());
        append(now(), "a", "b");
        log.updateHighWatermark(2);

        log.truncateFullyAndStartAt(100);

        assertThat(log.logStartOffset()).isEqualTo(100);
        assertThat(log.logEndOffset()).isEqualTo(100);
        assertThat(log.highWatermark()).isEqualTo(100);
        assertThat(log.segmentBaseOffsets()).containsExactly(100L);
        assertThat(append(now(), "c").firstOffset()).isEqualTo(100);
        assertThatThrownBy(() -> log.read(0, 100, FetchIsolation.LOG_END, true)).isInstanceOf(OffsetOutOfRangeException.class);
    }

    @Test
    void aCleanReloadRestoresOffsetsSegmentsAndData() throws IOException {
        open(config("segment.bytes", "1024"));
        appendLarge(5, 300);
        log.updateHighWatermark(4);
        log.maybeIncrementLogStartOffset(1, "DeleteRecords");
        List<Long> segments = log.segmentBaseOffsets();

        log = f.closeAndReload();

        assertThat(log.logEndOffset()).isEqualTo(5);
        assertThat(log.logStartOffset()).isEqualTo(1);
        assertThat(log.highWatermark()).isEqualTo(4);
        assertThat(log.segmentBaseOffsets()).isEqualTo(segments);
        assertThat(offsets(readAll(log, 1))).containsExactly(1L, 2L, 3L, 4L);
        assertThat(log.appendAsLeader(records(now(), "next"), 0).firstOffset()).isEqualTo(5);
        assertThat(log.activeSegment().offsetIndex().isFull()).isFalse();
    }
}
