package io.tributary.broker.log;

import static io.tributary.broker.log.LogTestSupport.config;
import static io.tributary.broker.log.LogTestSupport.offsets;
import static io.tributary.broker.log.LogTestSupport.readAll;
import static io.tributary.broker.log.LogTestSupport.records;
import static io.tributary.broker.log.LogTestSupport.value;
import static io.tributary.broker.log.LogTestSupport.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.tributary.broker.log.LogTestSupport.LogFixture;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.apache.kafka.common.record.internal.FileLogInputStream.FileChannelRecordBatch;
import org.apache.kafka.common.record.internal.FileRecords;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Loading a log after a crash, with damage made on purpose. The log has three segments
 * (base offsets 0, 6 and 12) of three batches of two records each; every batch but a
 * segment's first has an index entry.
 */
class LogRecoveryTest {

    /** Where a batch lies on disk. */
    record BatchInfo(long baseOffset, long lastOffset, int position, int size, long maxTimestamp) {
    }

    @TempDir
    File tmp;

    private LogFixture f;
    private PartitionLog log;
    private long t0;
    private List<String> originalValues;

    @BeforeEach
    void writeThreeSegments() throws IOException {
        f = new LogFixture(tmp, config("segment.bytes", "1024", "index.interval.bytes", "1"));
        log = f.open();
        t0 = f.time.milliseconds();
        for (int i = 0; i < 9; i++) {
            log.appendAsLeader(records(t0 + 1000L * i, value("b" + i + "r0", 100), value("b" + i + "r1", 100)), i < 7 ? 1 : 2);
        }
        log.updateHighWatermark(18);
        assertThat(log.segmentBaseOffsets()).containsExactly(0L, 6L, 12L);
        originalValues = values(readAll(log, 0));
        assertThat(originalValues).hasSize(18);
    }

    private static List<BatchInfo> batchesOnDisk(File logFile) throws IOException {
        FileRecords records = FileRecords.open(logFile, false);
        try {
            List<BatchInfo> out = new ArrayList<>();
            for (FileChannelRecordBatch b : records.batches()) {
                out.add(new BatchInfo(b.baseOffset(), b.lastOffset(), b.position(), b.sizeInBytes(), b.maxTimestamp()));
            }
            return out;
        } finally {
            records.channel().close();
        }
    }

    private List<BatchInfo> batchesOf(long segment) throws IOException {
        return batchesOnDisk(f.segmentFile(segment, ".log"));
    }

    private static void flipByte(File file, long position) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file, "rw")) {
            raf.seek(position);
            int b = raf.read();
            raf.seek(position);
            raf.write(~b);
        }
    }

    private static void truncate(File file, long length) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file, "rw")) {
            raf.setLength(length);
        }
    }

    /** What every recovery must give: the valid prefix with its offsets, usable indexes, appends at the end. */
    private void assertRecoveredTo(long expectedEnd, List<Long> expectedSegments) throws IOException {
        assertThat(log.logEndOffset()).isEqualTo(expectedEnd);
        assertThat(log.segmentBaseOffsets()).containsExactlyElementsOf(expectedSegments);
        assertThat(offsets(readAll(log, 0))).containsExactlyElementsOf(LongStream.range(0, expectedEnd).boxed().toList());
        assertThat(values(readAll(log, 0))).containsExactlyElementsOf(originalValues.subList(0, (int) expectedEnd));
        for (long segment : expectedSegments) {
            for (BatchInfo batch : batchesOf(segment)) {
                LogOffsetMetadata found = log.read(batch.lastOffset(), 1, FetchIsolation.LOG_END, true).fetchOffsetMetadata();
                assertThat(found).isEqualTo(new LogOffsetMetadata(batch.lastOffset(), segment, batch.position()));
            }
        }
        assertThat(log.fetchOffsetByTimestamp(t0 + 1000L * (expectedEnd / 2 - 1)).orElseThrow().offset)
            .isEqualTo(expectedEnd - 2);

        LogAppendInfo next = log.appendAsLeader(records(f.time.milliseconds(), "after recovery"), 3);
        assertThat(next.firstOffset()).isEqualTo(expectedEnd);
        assertThat(values(readAll(log, expectedEnd))).containsExactly("after recovery");

        log.close();
        for (long segment : expectedSegments) {
            assertIndexesMatchTheSegment(segment, expectedEnd);
        }
        log = f.reloadClean();
        assertThat(log.logEndOffset()).isEqualTo(expectedEnd + 1);
    }

    /**
     * The (trimmed) index files hold exactly the entries appends would have made, and pass their
     * checks. The batch appended after recovery at {@code appendedOffset} may lack its entry: a
     * segment loaded without recovery starts counting index.interval.bytes afresh.
     */
    private void assertIndexesMatchTheSegment(long segment, long appendedOffset) throws IOException {
        File logFile = f.segmentFile(segment, ".log");
        List<BatchInfo> batches = batchesOf(segment);
        assertThat(f.segmentFile(segment, ".index")).exists();
        assertThat(f.segmentFile(segment, ".timeindex")).exists();
        OffsetIndex offsetIndex = new OffsetIndex(f.segmentFile(segment, ".index"), segment, 1 << 20);
        TimeIndex timeIndex = new TimeIndex(f.segmentFile(segment, ".timeindex"), segment, 1 << 20);
        assertThatCode(() -> offsetIndex.sanityCheck(logFile.length())).doesNotThrowAnyException();
        assertThatCode(() -> timeIndex.sanityCheck(logFile.length())).doesNotThrowAnyException();
        List<OffsetPosition> expected = new ArrayList<>();
        for (int i = 1; i < batches.size(); i++) {
            expected.add(new OffsetPosition(batches.get(i).lastOffset(), batches.get(i).position()));
        }
        List<OffsetPosition> actual = new ArrayList<>();
        for (int i = 0; i < offsetIndex.entries(); i++) {
            actual.add(offsetIndex.entry(i));
        }
        boolean holdsAppended = !batches.isEmpty() && batches.get(batches.size() - 1).baseOffset() == appendedOffset;
        if (holdsAppended && batches.size() > 1 && actual.size() == expected.size() - 1) {
            expected.remove(expected.size() - 1);
        }
        assertThat(actual).isEqualTo(expected);
        if (!batches.isEmpty()) {
            BatchInfo newest = batches.stream().max(java.util.Comparator.comparingLong(BatchInfo::maxTimestamp)).orElseThrow();
            assertThat(timeIndex.lastEntry()).isEqualTo(new TimestampOffset(newest.maxTimestamp(), newest.lastOffset()));
        }
    }

    @Test
    void aTruncatedLastBatchIsDropped() throws IOException {
        BatchInfo last = batchesOf(12).get(2);
        f.crash();
        truncate(f.segmentFile(12, ".log"), last.position() + 20);

        log = f.reloadUnclean(0, 0, 0);

        assertThat(f.segmentFile(12, ".log").length()).isEqualTo(last.position());
        assertRecoveredTo(16, List.of(0L, 6L, 12L));
    }

    @ParameterizedTest
    @ValueSource(ints = {7, 16, 100, 5000})
    void garbageAfterTheLastBatchIsDropped(int garbageBytes) throws IOException {
        long validLength = f.segmentFile(12, ".log").length();
        f.crash();
        byte[] garbage = new byte[garbageBytes];
        new Random(garbageBytes).nextBytes(garbage);
        Files.write(f.segmentFile(12, ".log").toPath(), garbage, StandardOpenOption.APPEND);

        log = f.reloadUnclean(0, 0, 0);

        assertThat(f.segmentFile(12, ".log").length()).isEqualTo(validLength);
        assertRecoveredTo(18, List.of(0L, 6L, 12L));
    }

    @Test
    void zeroesAfterTheLastBatchAreDropped() throws IOException {
        long validLength = f.segmentFile(12, ".log").length();
        f.crash();
        Files.write(f.segmentFile(12, ".log").toPath(), new byte[4096], StandardOpenOption.APPEND);

        log = f.reloadUnclean(0, 0, 0);

        assertThat(f.segmentFile(12, ".log").length()).isEqualTo(validLength);
        assertRecoveredTo(18, List.of(0L, 6L, 12L));
    }

    @Test
    void aLastBatchWithAFlippedCrcByteIsDropped() throws IOException {
        BatchInfo last = batchesOf(12).get(2);
        f.crash();
        flipByte(f.segmentFile(12, ".log"), last.position() + 17);

        log = f.reloadUnclean(0, 0, 0);

        assertRecoveredTo(16, List.of(0L, 6L, 12L));
    }

    @Test
    void aLastBatchWithAFlippedPayloadByteIsDroppedAndItsLeaderEpochForgotten() throws IOException {
        BatchInfo secondLast = batchesOf(12).get(1);
        assertThat(log.leaderEpochCache().entries()).containsExactly(new EpochEntry(1, 0), new EpochEntry(2, 14));
        f.crash();
        flipByte(f.segmentFile(12, ".log"), secondLast.position() + secondLast.size() - 3);

        log = f.reloadUnclean(0, 0, 0);

        assertThat(log.leaderEpochCache().entries()).containsExactly(new EpochEntry(1, 0));
        assertRecoveredTo(14, List.of(0L, 6L, 12L));
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aZeroedOffsetIndexIsRebuilt(boolean cleanShutdown) throws IOException {
        File index = f.segmentFile(6, ".index");
        if (cleanShutdown) {
            log.close();
        } else {
            f.crash();
        }
        Files.write(index.toPath(), new byte[(int) index.length()]);

        log = cleanShutdown ? f.reloadClean() : f.reloadUnclean(0, 0, 0);

        assertRecoveredTo(18, List.of(0L, 6L, 12L));
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void missingIndexesAreRebuilt(boolean cleanShutdown) throws IOException {
        if (cleanShutdown) {
            log.close();
        } else {
            f.crash();
        }
        Files.delete(f.segmentFile(6, ".index").toPath());
        Files.delete(f.segmentFile(6, ".timeindex").toPath());
        Files.delete(f.segmentFile(0, ".timeindex").toPath());

        log = cleanShutdown ? f.reloadClean() : f.reloadUnclean(0, 0, 0);

        assertRecoveredTo(18, List.of(0L, 6L, 12L));
    }

    @Test
    void damageInAMiddleSegmentDropsEverythingAfterIt() throws IOException {
        BatchInfo second = batchesOf(6).get(1);
        f.crash();
        flipByte(f.segmentFile(6, ".log"), second.position() + 40);

        log = f.reloadUnclean(0, 0, 0);

        assertThat(f.segmentFile(12, ".log")).doesNotExist();
        assertThat(f.segmentFile(12, ".index")).doesNotExist();
        assertThat(f.segmentFile(12, ".timeindex")).doesNotExist();
        assertThat(log.activeSegment().offsetIndex().isFull()).as("the new active segment takes index entries").isFalse();
        assertRecoveredTo(8, List.of(0L, 6L));
    }

    @Test
    void damageInTheFirstBatchOfAMiddleSegmentLeavesItEmptyAndActive() throws IOException {
        f.crash();
        flipByte(f.segmentFile(6, ".log"), 17);

        log = f.reloadUnclean(0, 0, 0);

        assertThat(f.segmentFile(6, ".log").length()).isZero();
        assertRecoveredTo(6, List.of(0L, 6L));
    }

    @Test
    void recoveryStartsAtTheSegmentHoldingTheRecoveryPoint() throws IOException {
        BatchInfo damaged = batchesOf(0).get(1);
        BatchInfo last = batchesOf(12).get(2);
        f.crash();
        flipByte(f.segmentFile(0, ".log"), damaged.position() + 17);
        truncate(f.segmentFile(12, ".log"), last.position() + 5);

        log = f.reloadUnclean(12, 0, 0);

        // Segment 0 lies below the recovery point and is trusted; the torn tail of segment 12 is not.
        assertThat(log.logEndOffset()).isEqualTo(16);
        assertThat(f.segmentFile(0, ".log").length()).isEqualTo(batchesOf(0).stream().mapToLong(BatchInfo::size).sum());
        assertThat(batchesOf(0)).hasSize(3);
    }

    @Test
    void aCleanShutdownSkipsRecovery() throws IOException {
        BatchInfo damaged = batchesOf(0).get(1);
        long length = f.segmentFile(0, ".log").length();
        log.close();
        flipByte(f.segmentFile(0, ".log"), damaged.position() + 17);

        log = f.reloadClean();

        assertThat(log.logEndOffset()).isEqualTo(18);
        assertThat(f.segmentFile(0, ".log").length()).as("not re-read, so not truncated").isEqualTo(length);
        log.closeHandlers();

        log = f.reloadUnclean(0, 0, 0);
        assertThat(log.logEndOffset()).as("a full recovery finds the damage").isEqualTo(damaged.baseOffset());
    }

    @Test
    void leftoversOfDeletionsAndOrphanIndexesAreRemovedOnLoad() throws IOException {
        log.updateConfig(config("segment.bytes", "1024", "index.interval.bytes", "1", "retention.bytes", "1"));
        assertThat(log.deleteOldSegments()).isEqualTo(2);
        assertThat(f.segmentFile(0, ".log.deleted")).exists();
        File orphanIndex = f.segmentFile(99, ".index");
        Files.write(orphanIndex.toPath(), new byte[16]);
        File tmpFile = new File(f.dir, "leader-epoch-checkpoint.tmp");
        Files.write(tmpFile.toPath(), new byte[3]);
        f.crash();

        log = f.reloadUnclean(0, 12, 18);

        assertThat(f.segmentFile(0, ".log.deleted")).doesNotExist();
        assertThat(f.segmentFile(6, ".index.deleted")).doesNotExist();
        assertThat(orphanIndex).doesNotExist();
        assertThat(tmpFile).doesNotExist();
        assertThat(log.segmentBaseOffsets()).containsExactly(12L);
        assertThat(log.logStartOffset()).isEqualTo(12);
        assertThat(log.highWatermark()).isEqualTo(18);
    }
}
