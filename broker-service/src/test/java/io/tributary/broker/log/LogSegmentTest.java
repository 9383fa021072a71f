package io.tributary.broker.log;

import static io.tributary.broker.log.LogTestSupport.appendTo;
import static io.tributary.broker.log.LogTestSupport.recordsAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.tributary.broker.testing.MockTime;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.Records;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LogSegmentTest {

    private static final long T = MockTime.DEFAULT_START_MS;
    private static final long BASE = 40;
    /** An index interval so large that the segment has no index entries: every lookup scans. */
    private static final int NO_INDEX = 1_000_000;

    @TempDir
    File dir;

    private final MockTime time = new MockTime();
    private final MemoryRecords b1 = recordsAt(40, T, "a", "b");
    private final MemoryRecords b2 = recordsAt(42, T, "c");
    private final MemoryRecords b3 = recordsAt(43, T, "d", "e", "f");

    private LogSegment segment(long base, int indexIntervalBytes, int maxIndexSize, long jitterMs) throws IOException {
        return LogSegment.open(dir, base, maxIndexSize, indexIntervalBytes, jitterMs, false, 0, time, false, "");
    }

    private LogSegment threeBatches(int indexIntervalBytes) throws IOException {
        LogSegment segment = segment(BASE, indexIntervalBytes, 4096, 0);
        appendTo(segment, b1);
        appendTo(segment, b2);
        appendTo(segment, b3);
        return segment;
    }

    private static List<Long> offsets(Records records) {
        List<Long> out = new ArrayList<>();
        for (Record r : records.records()) {
            out.add(r.offset());
        }
        return out;
    }

    private static MemoryRecords timestamped(long baseOffset, long... timestamps) {
        SimpleRecord[] records = new SimpleRecord[timestamps.length];
        for (int i = 0; i < timestamps.length; i++) {
            records[i] = new SimpleRecord(timestamps[i], ("v" + (baseOffset + i)).getBytes());
        }
        return MemoryRecords.withRecords(baseOffset, Compression.NONE, records);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, NO_INDEX})
    void readStartsAtTheBatchHoldingTheOffset(int indexIntervalBytes) throws IOException {
        LogSegment segment = threeBatches(indexIntervalBytes);
        int size = segment.size();

        FetchDataInfo fromBase = segment.read(40, 10_000, size, false);
        assertThat(offsets(fromBase.records())).containsExactly(40L, 41L, 42L, 43L, 44L, 45L);
        assertThat(fromBase.fetchOffsetMetadata()).isEqualTo(new LogOffsetMetadata(40, BASE, 0));

        assertThat(offsets(segment.read(41, 10_000, size, false).records())).containsExactly(40L, 41L, 42L, 43L, 44L, 45L);
        FetchDataInfo fromSecond = segment.read(42, 10_000, size, false);
        assertThat(offsets(fromSecond.records())).containsExactly(42L, 43L, 44L, 45L);
        assertThat(fromSecond.fetchOffsetMetadata().relativePositionInSegment()).isEqualTo(b1.sizeInBytes());
        assertThat(offsets(segment.read(44, 10_000, size, false).records())).containsExactly(43L, 44L, 45L);
        assertThat(offsets(segment.read(45, 10_000, size, false).records())).containsExactly(43L, 44L, 45L);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, NO_INDEX})
    void readBeyondTheLastOffsetReturnsNull(int indexIntervalBytes) throws IOException {
        LogSegment segment = threeBatches(indexIntervalBytes);

        assertThat(segment.read(46, 10_000, segment.size(), false)).isNull();
        assertThat(segment.read(1_000, 10_000, segment.size(), true)).isNull();
        assertThat(segment(500, 0, 4096, 0).read(500, 10_000, 0, true)).as("empty segment").isNull();
    }

    @Test
    void maxSizeCutsTheReadUnlessTheFirstBatchMustBeReturnedWhole() throws IOException {
        LogSegment segment = threeBatches(0);
        int size = segment.size();

        FetchDataInfo cut = segment.read(40, 1, size, false);
        assertThat(cut.records().sizeInBytes()).isEqualTo(1);
        assertThat(cut.firstEntryIncomplete()).isTrue();
        assertThat(offsets(cut.records())).isEmpty();

        FetchDataInfo whole = segment.read(40, 1, size, true);
        assertThat(whole.records().sizeInBytes()).isEqualTo(b1.sizeInBytes());
        assertThat(whole.firstEntryIncomplete()).isFalse();
        assertThat(offsets(whole.records())).containsExactly(40L, 41L);

        FetchDataInfo oneAndABit = segment.read(40, b1.sizeInBytes() + 5, size, false);
        assertThat(oneAndABit.records().sizeInBytes()).isEqualTo(b1.sizeInBytes() + 5);
        assertThat(offsets(oneAndABit.records())).as("only whole batches are read back").containsExactly(40L, 41L);

        assertThat(segment.read(40, 0, size, false).records().sizeInBytes()).isZero();
        assertThat(offsets(segment.read(40, 0, size, true).records())).containsExactly(40L, 41L);
    }

    @Test
    void maxPositionBoundsTheRead() throws IOException {
        LogSegment segment = threeBatches(0);

        assertThat(offsets(segment.read(40, 10_000, b1.sizeInBytes(), false).records())).containsExactly(40L, 41L);
        assertThat(offsets(segment.read(40, 10_000, b1.sizeInBytes(), true).records())).containsExactly(40L, 41L);
        FetchDataInfo atLimit = segment.read(42, 10_000, b1.sizeInBytes(), true);
        assertThat(atLimit.records().sizeInBytes()).isZero();
        assertThat(atLimit.fetchOffsetMetadata()).isEqualTo(new LogOffsetMetadata(42, BASE, b1.sizeInBytes()));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, NO_INDEX})
    void translateOffsetFindsTheBatchHoldingTheOffset(int indexIntervalBytes) throws IOException {
        LogSegment segment = threeBatches(indexIntervalBytes);
        int p2 = b1.sizeInBytes();
        int p3 = p2 + b2.sizeInBytes();

        // (base offset, position and size of the batch holding the offset)
        assertThat(segment.translateOffset(40, 0)).isEqualTo(new FileRecords.LogOffsetPosition(40, 0, b1.sizeInBytes()));
        assertThat(segment.translateOffset(41, 0)).isEqualTo(new FileRecords.LogOffsetPosition(40, 0, b1.sizeInBytes()));
        assertThat(segment.translateOffset(42, 0)).isEqualTo(new FileRecords.LogOffsetPosition(42, p2, b2.sizeInBytes()));
        assertThat(segment.translateOffset(44, 0)).isEqualTo(new FileRecords.LogOffsetPosition(43, p3, b3.sizeInBytes()));
        assertThat(segment.translateOffset(45, 0)).isEqualTo(new FileRecords.LogOffsetPosition(43, p3, b3.sizeInBytes()));
        assertThat(segment.translateOffset(46, 0)).isNull();
        assertThat(segment.translateOffset(40, p2)).as("not before the starting position")
            .isEqualTo(new FileRecords.LogOffsetPosition(42, p2, b2.sizeInBytes()));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, NO_INDEX})
    void findOffsetByTimestampReturnsTheFirstRecordAtOrAfterTheTimestamp(int indexIntervalBytes) throws IOException {
        LogSegment segment = segment(BASE, indexIntervalBytes, 4096, 0);
        appendTo(segment, timestamped(40, T + 1000, T + 1005));
        appendTo(segment, timestamped(42, T + 1010));
        appendTo(segment, timestamped(43, T + 1020, T + 1015, T + 1030));

        assertThat(segment.findOffsetByTimestamp(T, 40).offset).isEqualTo(40);
        assertThat(segment.findOffsetByTimestamp(T + 1000, 40).offset).isEqualTo(40);
        assertThat(segment.findOffsetByTimestamp(T + 1003, 40).offset).isEqualTo(41);
        assertThat(segment.findOffsetByTimestamp(T + 1010, 40).offset).isEqualTo(42);
        assertThat(segment.findOffsetByTimestamp(T + 1012, 40).offset).isEqualTo(43);
        FileRecords.TimestampAndOffset found = segment.findOffsetByTimestamp(T + 1016, 40);
        assertThat(found.offset).isEqualTo(43);
        assertThat(found.timestamp).isEqualTo(T + 1020);
        assertThat(segment.findOffsetByTimestamp(T + 1021, 40).offset).isEqualTo(45);
        assertThat(segment.findOffsetByTimestamp(T + 1031, 40)).isNull();
        assertThat(segment.findOffsetByTimestamp(T + 1000, 42).offset).as("not below the starting offset").isEqualTo(42);
        assertThat(segment.maxTimestampSoFar()).isEqualTo(T + 1030);
    }

    @Test
    void truncateToRemovesTheBatchesAtAndAboveTheOffset() throws IOException {
        LogSegment segment = threeBatches(0);

        int removed = segment.truncateTo(43);

        assertThat(removed).isEqualTo(b3.sizeInBytes());
        assertThat(segment.size()).isEqualTo(b1.sizeInBytes() + b2.sizeInBytes());
        assertThat(segment.read(43, 10_000, segment.size(), true)).isNull();
        assertThat(segment.readNextOffset()).isEqualTo(43);
        assertThat(segment.offsetIndex().lastEntry().offset()).isLessThan(43);
        assertThatCode(() -> segment.offsetIndex().sanityCheck(segment.size())).doesNotThrowAnyException();

        appendTo(segment, recordsAt(43, T, "g"));
        assertThat(offsets(segment.read(43, 10_000, segment.size(), false).records())).containsExactly(43L);
        assertThat(segment.readNextOffset()).isEqualTo(44);
    }

    @Test
    void truncateToTheBaseOffsetEmptiesTheSegmentAndBeyondItRemovesNothing() throws IOException {
        LogSegment segment = threeBatches(0);
        int size = segment.size();

        assertThat(segment.truncateTo(46)).isZero();
        assertThat(segment.size()).isEqualTo(size);

        assertThat(segment.truncateTo(BASE)).isEqualTo(size);
        assertThat(segment.size()).isZero();
        assertThat(segment.offsetIndex().entries()).isZero();
        assertThat(segment.timeIndex().entries()).isZero();
        assertThat(segment.readNextOffset()).isEqualTo(BASE);
    }

    @Test
    void truncateToKeepsTheLargestTimestampOfTheRemainingBatches() throws IOException {
        int batchSize = timestamped(0, T).sizeInBytes();
        // Sparse index: an entry every other batch, so batches follow the last time index entry.
        LogSegment segment = segment(0, batchSize + batchSize / 2, 4096, 0);
        for (int i = 0; i < 6; i++) {
            appendTo(segment, timestamped(i, T + 10L * i));
        }
        assertThat(segment.timeIndex().entries()).isEqualTo(2);

        segment.truncateTo(4);

        // Offsets 0..3 remain; the newest of them, offset 3, has T + 30.
        assertThat(segment.maxTimestampAndOffsetSoFar()).isEqualTo(new TimestampOffset(T + 30, 3));
        assertThat(segment.largestTimestamp()).isEqualTo(T + 30);
    }

    @Test
    void rollsWhenTheAppendWouldExceedTheSegmentSize() throws IOException {
        LogSegment segment = segment(BASE, 0, 4096, 0);
        appendTo(segment, b1);
        int max = segment.size() + 100;

        assertThat(segment.shouldRoll(max, Long.MAX_VALUE, 100, T, 50, time.milliseconds())).isFalse();
        assertThat(segment.shouldRoll(max, Long.MAX_VALUE, 101, T, 50, time.milliseconds())).isTrue();
    }

    @Test
    void rollsByAgeMeasuredFromTheFirstRecordTimestamp() throws IOException {
        LogSegment segment = segment(BASE, 0, 4096, 0);
        appendTo(segment, b1);

        assertThat(segment.shouldRoll(1 << 30, 1000, 10, T + 1000, 50, time.milliseconds())).isFalse();
        assertThat(segment.shouldRoll(1 << 30, 1000, 10, T + 1001, 50, time.milliseconds())).isTrue();
    }

    @Test
    void rollsByWallClockAgeWhenRecordsHaveNoTimestamp() throws IOException {
        LogSegment segment = segment(BASE, 0, 4096, 0);
        appendTo(segment, timestamped(40, RecordBatch.NO_TIMESTAMP));

        time.advance(1000);
        assertThat(segment.shouldRoll(1 << 30, 1000, 10, RecordBatch.NO_TIMESTAMP, 41, time.milliseconds())).isFalse();
        time.advance(1);
        assertThat(segment.shouldRoll(1 << 30, 1000, 10, RecordBatch.NO_TIMESTAMP, 41, time.milliseconds())).isTrue();
    }

    @Test
    void anEmptySegmentNeverRollsByAge() throws IOException {
        LogSegment segment = segment(BASE, 0, 4096, 0);

        time.advance(10_000);

        assertThat(segment.shouldRoll(1 << 30, 1000, 10, T + 10_000, BASE, time.milliseconds())).isFalse();
    }

    @Test
    void jitterShortensTheRollAge() throws IOException {
        LogSegment segment = segment(BASE, 0, 4096, 400);
        appendTo(segment, b1);

        assertThat(segment.shouldRoll(1 << 30, 1000, 10, T + 600, 50, time.milliseconds())).isFalse();
        assertThat(segment.shouldRoll(1 << 30, 1000, 10, T + 601, 50, time.milliseconds())).isTrue();
    }

    @Test
    void rollsWhenTheOffsetIndexIsFull() throws IOException {
        // 24 bytes: 3 offset entries, 2 time entries; equal timestamps add a single time entry.
        LogSegment segment = segment(0, 0, 24, 0);
        for (int i = 0; i < 3; i++) {
            appendTo(segment, recordsAt(i, T, "x"));
        }
        assertThat(segment.shouldRoll(1 << 30, Long.MAX_VALUE, 10, T, 3, time.milliseconds())).isFalse();

        appendTo(segment, recordsAt(3, T, "x"));

        assertThat(segment.offsetIndex().isFull()).isTrue();
        assertThat(segment.timeIndex().isFull()).isFalse();
        assertThat(segment.shouldRoll(1 << 30, Long.MAX_VALUE, 10, T, 4, time.milliseconds())).isTrue();
    }

    @Test
    void rollsWhenTheTimeIndexIsFull() throws IOException {
        // 16 bytes: 2 offset entries, 1 time entry.
        LogSegment segment = segment(0, 0, 16, 0);
        appendTo(segment, recordsAt(0, T, "x"));
        assertThat(segment.shouldRoll(1 << 30, Long.MAX_VALUE, 10, T + 1, 1, time.milliseconds())).isFalse();

        appendTo(segment, recordsAt(1, T + 1, "x"));

        assertThat(segment.timeIndex().isFull()).isTrue();
        assertThat(segment.offsetIndex().isFull()).isFalse();
        assertThat(segment.shouldRoll(1 << 30, Long.MAX_VALUE, 10, T + 2, 2, time.milliseconds())).isTrue();
    }

    @Test
    void rollsWhenTheOffsetWouldNotFitTheRelativeIndex() throws IOException {
        LogSegment segment = segment(BASE, 0, 4096, 0);
        appendTo(segment, b1);

        assertThat(segment.shouldRoll(1 << 30, Long.MAX_VALUE, 10, T, BASE + Integer.MAX_VALUE, time.milliseconds())).isFalse();
        assertThat(segment.shouldRoll(1 << 30, Long.MAX_VALUE, 10, T, BASE + Integer.MAX_VALUE + 1L, time.milliseconds()))
            .isTrue();
    }

    @Test
    void recoverRebuildsTheSameIndexesThatAppendsBuilt() throws IOException {
        LogSegment segment = segment(0, 1, 4096, 0);
        for (int i = 0; i < 8; i++) {
            appendTo(segment, timestamped(i, T + 100L * i));
        }
        List<OffsetPosition> offsetEntries = new ArrayList<>();
        for (int i = 0; i < segment.offsetIndex().entries(); i++) {
            offsetEntries.add(segment.offsetIndex().entry(i));
        }
        TimestampOffset lastTimeEntry = segment.timeIndex().lastEntry();

        int truncated = segment.recover(batch -> { });

        assertThat(truncated).isZero();
        assertThat(offsetEntries).hasSize(7);
        List<OffsetPosition> rebuilt = new ArrayList<>();
        for (int i = 0; i < segment.offsetIndex().entries(); i++) {
            rebuilt.add(segment.offsetIndex().entry(i));
        }
        assertThat(rebuilt).isEqualTo(offsetEntries);
        assertThat(segment.timeIndex().lastEntry()).isEqualTo(lastTimeEntry);
        assertThat(segment.findOffsetByTimestamp(T + 450, 0).offset).isEqualTo(5);
    }

    @org.junit.jupiter.api.Test
    void afterItsDirectoryIsMovedEveryFileOfTheSegmentFollows() throws IOException {
        LogSegment segment = threeBatches(0);
        File moved = new File(dir.getParentFile(), dir.getName() + "-moved");
        java.nio.file.Files.move(dir.toPath(), moved.toPath());
        try {
            segment.updateParentDir(moved);

            segment.changeFileSuffixes("", LogFileNames.DELETED_SUFFIX);

            assertThat(moved.list()).containsExactlyInAnyOrder("00000000000000000040.log.deleted",
                "00000000000000000040.index.deleted", "00000000000000000040.timeindex.deleted");
            segment.deleteIfExists();
            assertThat(moved.list()).isEmpty();
        } finally {
            // Give the directory back to @TempDir, which cleans it up.
            java.nio.file.Files.move(moved.toPath(), dir.toPath());
        }
    }
}
