package io.tributary.broker.log;

import static io.tributary.broker.log.LogTestSupport.config;
import static io.tributary.broker.log.LogTestSupport.offsets;
import static io.tributary.broker.log.LogTestSupport.readAll;
import static io.tributary.broker.log.LogTestSupport.records;
import static io.tributary.broker.log.LogTestSupport.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.config.LogConfig;
import io.tributary.broker.log.LogTestSupport.LogFixture;
import java.io.File;
import java.io.IOException;
import java.time.Duration;
import org.apache.kafka.common.errors.OffsetOutOfRangeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Retention by time, size and log start offset, with delayed deletion of the removed segments. */
class PartitionLogRetentionTest {

    private static final long MINUTE = Duration.ofMinutes(1).toMillis();

    @TempDir
    File tmp;

    private LogFixture f;
    private PartitionLog log;

    /** 1 KiB segments hold two of our 300-byte records each. */
    private PartitionLog open(String... settings) throws IOException {
        String[] all = new String[settings.length + 2];
        all[0] = "segment.bytes";
        all[1] = "1024";
        System.arraycopy(settings, 0, all, 2, settings.length);
        f = new LogFixture(tmp, config(all));
        log = f.open();
        return log;
    }

    private void appendLarge(int count) {
        for (int i = 0; i < count; i++) {
            log.appendAsLeader(records(f.time.milliseconds(), value("r" + log.logEndOffset(), 300)), 0);
        }
    }

    private void assertSegmentFilesRenamedForDeletion(long base) {
        assertThat(f.segmentFile(base, ".log")).doesNotExist();
        assertThat(f.segmentFile(base, ".log.deleted")).exists();
        assertThat(f.segmentFile(base, ".index.deleted")).exists();
        assertThat(f.segmentFile(base, ".timeindex.deleted")).exists();
    }

    private void assertSegmentFilesGone(long base) {
        for (String suffix : new String[] {".log", ".index", ".timeindex", ".log.deleted", ".index.deleted",
            ".timeindex.deleted"}) {
            assertThat(f.segmentFile(base, suffix)).doesNotExist();
        }
    }

    @Test
    void retentionMsDeletesWholeSegmentsWhoseNewestRecordIsTooOld() throws IOException {
        open("retention.ms", Long.toString(15 * MINUTE));
        appendLarge(2);
        f.time.advance(10 * MINUTE);
        appendLarge(2);
        f.time.advance(10 * MINUTE);
        appendLarge(2);
        log.updateHighWatermark(log.logEndOffset());
        assertThat(log.segmentBaseOffsets()).containsExactly(0L, 2L, 4L);

        assertThat(log.deleteOldSegments()).isEqualTo(1);

        assertThat(log.segmentBaseOffsets()).containsExactly(2L, 4L);
        assertThat(log.logStartOffset()).as("ListOffsets EARLIEST").isEqualTo(2);
        assertThatThrownBy(() -> log.read(0, 1000, FetchIsolation.HIGH_WATERMARK, true))
            .isInstanceOf(OffsetOutOfRangeException.class);
        assertThat(offsets(readAll(log, 2))).containsExactly(2L, 3L, 4L, 5L);
        assertThat(log.fetchOffsetByTimestamp(0).orElseThrow().offset).isEqualTo(2);
        assertThat(log.deleteOldSegments()).as("nothing more is old enough").isZero();
    }

    @Test
    void removedSegmentsAreRenamedAndTheirFilesDeletedAfterTheDelay() throws IOException {
        open("retention.ms", Long.toString(MINUTE), "file.delete.delay.ms", "30000");
        appendLarge(4);
        f.time.advance(2 * MINUTE);
        appendLarge(1);
        log.updateHighWatermark(log.logEndOffset());

        assertThat(log.deleteOldSegments()).isEqualTo(2);
        assertSegmentFilesRenamedForDeletion(0);
        assertSegmentFilesRenamedForDeletion(2);

        f.time.advance(29_999);
        assertSegmentFilesRenamedForDeletion(0);

        f.time.advance(1);
        assertSegmentFilesGone(0);
        assertSegmentFilesGone(2);
        assertThat(f.segmentFile(4, ".log")).exists();
    }

    @Test
    void whenEverySegmentExpiresTheLogKeepsAnEmptyActiveSegmentAtItsEnd() throws IOException {
        open("retention.ms", Long.toString(MINUTE));
        appendLarge(5);
        log.updateHighWatermark(5);
        f.time.advance(2 * MINUTE);

        assertThat(log.deleteOldSegments()).isEqualTo(3);

        assertThat(log.segmentBaseOffsets()).containsExactly(5L);
        assertThat(log.logStartOffset()).isEqualTo(5);
        assertThat(log.logEndOffset()).isEqualTo(5);
        assertThat(log.size()).isZero();
        assertThat(log.appendAsLeader(records(f.time.milliseconds(), "next"), 0).firstOffset()).isEqualTo(5);
    }

    @Test
    void retentionBytesDeletesTheOldestSegmentsWhileTheRestStaysAtOrAboveTheLimit() throws IOException {
        open();
        appendLarge(8);
        log.updateHighWatermark(8);
        long segmentSize = f.segmentFile(0, ".log").length();
        assertThat(log.size()).isEqualTo(4 * segmentSize);
        assertThat(log.deleteOldSegments()).as("retention.bytes is unlimited by default").isZero();

        log.updateConfig(config("segment.bytes", "1024", "retention.bytes", Long.toString(2 * segmentSize + 1)));
        assertThat(log.deleteOldSegments()).isEqualTo(1);
        assertThat(log.segmentBaseOffsets()).containsExactly(2L, 4L, 6L);

        log.updateConfig(config("segment.bytes", "1024", "retention.bytes", Long.toString(2 * segmentSize)));
        assertThat(log.deleteOldSegments()).isEqualTo(1);
        assertThat(log.segmentBaseOffsets()).containsExactly(4L, 6L);
        assertThat(log.size()).isEqualTo(2 * segmentSize);
        assertThat(log.logStartOffset()).isEqualTo(4);
    }

    @Test
    void retentionNeverDeletesDataAboveTheHighWatermark() throws IOException {
        open("retention.ms", Long.toString(MINUTE));
        appendLarge(6);
        f.time.advance(10 * MINUTE);

        assertThat(log.deleteOldSegments()).as("nothing is committed").isZero();
        assertThat(log.segmentBaseOffsets()).containsExactly(0L, 2L, 4L);

        log.updateHighWatermark(3);
        assertThat(log.deleteOldSegments()).isEqualTo(1);
        assertThat(log.segmentBaseOffsets()).containsExactly(2L, 4L);
        assertThat(log.logStartOffset()).isEqualTo(2);

        log.updateHighWatermark(5);
        assertThat(log.deleteOldSegments()).as("segment 4 holds offset 5, above the high watermark").isEqualTo(1);
        assertThat(log.segmentBaseOffsets()).containsExactly(4L);
        assertThat(offsets(readAll(log, 4))).containsExactly(4L, 5L);
    }

    @Test
    void segmentsWhollyBelowTheLogStartOffsetAreDeletedWhateverThePolicy() throws IOException {
        open("cleanup.policy", "compact", "retention.ms", "-1");
        appendLarge(7);
        log.updateHighWatermark(7);
        log.maybeIncrementLogStartOffset(5, "DeleteRecords");

        assertThat(log.deleteOldSegments()).isEqualTo(2);

        assertThat(log.segmentBaseOffsets()).containsExactly(4L, 6L);
        assertThat(log.logStartOffset()).isEqualTo(5);
        assertThat(offsets(readAll(log, 5))).containsExactly(5L, 6L);
    }

    @Test
    void compactedTopicsAndInfiniteRetentionKeepOldSegments() throws IOException {
        open("cleanup.policy", "compact", "retention.ms", "1");
        appendLarge(5);
        log.updateHighWatermark(5);
        f.time.advance(10 * MINUTE);
        assertThat(log.deleteOldSegments()).isZero();

        log.updateConfig(config("segment.bytes", "1024", "retention.ms", "-1", "retention.bytes", "-1"));
        assertThat(log.deleteOldSegments()).isZero();

        log.updateConfig(config("segment.bytes", "1024", "retention.ms", Long.toString(MINUTE)));
        assertThat(log.deleteOldSegments()).as("the new retention.ms applies").isEqualTo(3);
    }

    @Test
    void theRecoveryPointFollowsTheLogStartOffsetSoPendingFlushesStillWork() throws IOException {
        open();
        appendLarge(8);
        log.updateHighWatermark(8);
        // The rolls at offsets 2, 4 and 6 scheduled flushes that have not run yet.
        assertThat(f.scheduler.pendingTaskNames()).hasSize(3);
        long segmentSize = f.segmentFile(0, ".log").length();
        log.updateConfig(config("segment.bytes", "1024", "retention.bytes", Long.toString(2 * segmentSize)));

        assertThat(log.deleteOldSegments()).isEqualTo(2);
        assertThat(log.logStartOffset()).isEqualTo(4);
        assertThat(log.recoveryPoint()).isGreaterThanOrEqualTo(log.logStartOffset());

        f.scheduler.tick();
        assertThat(log.recoveryPoint()).isEqualTo(6);
    }

    @Test
    void producerStateBelowTheNewLogStartOffsetIsDropped() throws IOException {
        open("retention.ms", Long.toString(MINUTE));
        log.appendAsLeader(LogTestSupport.idempotent(7L, (short) 0, 0, f.time.milliseconds(), value("p", 300)), 0);
        appendLarge(3);
        log.updateHighWatermark(4);
        assertThat(log.producerStateManager().lastEntry(7L)).isPresent();
        f.time.advance(2 * MINUTE);
        log.appendAsLeader(records(f.time.milliseconds(), value("fresh", 300)), 0);
        log.updateHighWatermark(5);

        log.deleteOldSegments();

        assertThat(log.logStartOffset()).isEqualTo(4);
        assertThat(log.producerStateManager().lastEntry(7L)).isEmpty();
        assertThat(log.producerStateManager().oldestSnapshotOffset().orElse(Long.MAX_VALUE)).isGreaterThanOrEqualTo(4);
    }

    @Test
    void aRetentionRunOnAClosedLogDoesNothing() throws IOException {
        open("retention.ms", "1");
        appendLarge(3);
        log.updateHighWatermark(3);
        f.time.advance(MINUTE);
        log.close();

        assertThat(log.deleteOldSegments()).isZero();
        LogConfig unchanged = log.config();
        assertThat(unchanged.retentionMs()).isEqualTo(1);
    }
}
