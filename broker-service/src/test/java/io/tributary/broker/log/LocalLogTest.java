package io.tributary.broker.log;

import static io.tributary.broker.log.LogTestSupport.TP;
import static io.tributary.broker.log.LogTestSupport.config;
import static io.tributary.broker.log.LogTestSupport.recordsAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.config.LogConfig;
import io.tributary.broker.testing.MockScheduler;
import io.tributary.broker.testing.MockTime;
import java.io.File;
import java.io.IOException;
import java.util.List;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** LocalLog on its own: segments in a directory, no producer state, epochs or high watermark. */
class LocalLogTest {

    @TempDir
    File tmp;

    private final MockTime time = new MockTime();
    private final MockScheduler scheduler = new MockScheduler(time);
    private final java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock();
    private File dir;
    private LocalLog localLog;

    @BeforeEach
    void open() throws IOException {
        dir = new File(tmp, "events-0");
        assertThat(dir.mkdirs()).isTrue();
        localLog = open(config());
    }

    private LocalLog open(LogConfig config) throws IOException {
        LogSegments segments = new LogSegments(TP);
        segments.add(LogSegment.open(dir, 0, config.segmentIndexBytes(), config.indexIntervalBytes(), 0, false, 0,
            time, false, ""));
        return new LocalLog(lock, dir, TP, config, segments, 0, new LogOffsetMetadata(0, 0, 0), scheduler, time);
    }

    @AfterEach
    void close() {
        if (!localLog.isClosed()) {
            localLog.closeHandlers();
        }
    }

    /** Writes {@code count} records at the log end, as PartitionLog does once they are validated. */
    private void append(int count) throws IOException {
        long base = localLog.logEndOffset();
        String[] values = new String[count];
        for (int i = 0; i < count; i++) {
            values[i] = "v" + (base + i);
        }
        MemoryRecords records = recordsAt(base, time.milliseconds(), values);
        RecordBatch batch = records.batches().iterator().next();
        localLog.append(localLog.activeSegment(), batch.lastOffset(), batch.maxTimestamp(), batch.lastOffset(), records);
    }

    @Test
    void appendMovesTheLogEndOffsetWithItsPosition() throws IOException {
        append(3);

        assertThat(localLog.logEndOffset()).isEqualTo(3);
        assertThat(localLog.logEndOffsetMetadata())
            .isEqualTo(new LogOffsetMetadata(3, 0, localLog.activeSegment().size()));
        assertThat(localLog.activeSegment().size()).isPositive();
    }

    @Test
    void aNewActiveSegmentStartsAtTheLogEnd() throws IOException {
        append(3);
        localLog.activeSegment().onBecomeInactiveSegment();

        LogSegment segment = localLog.startNewActiveSegment(3);

        assertThat(localLog.activeSegment()).isSameAs(segment);
        assertThat(localLog.segments().baseOffsets()).containsExactly(0L, 3L);
        assertThat(localLog.logEndOffsetMetadata()).isEqualTo(new LogOffsetMetadata(3, 3, 0));
    }

    @Test
    void flushMovesTheRecoveryPointUpToTheLogEnd() throws IOException {
        append(3);
        time.sleep(1_000);

        localLog.flush(2);
        assertThat(localLog.recoveryPoint()).isEqualTo(2);
        assertThat(localLog.lastFlushedTimeMs()).isEqualTo(time.milliseconds());

        localLog.flush(100);
        assertThat(localLog.recoveryPoint()).as("bounded by the log end offset").isEqualTo(3);

        localLog.flush(1);
        assertThat(localLog.recoveryPoint()).as("never moves down").isEqualTo(3);
    }

    @Test
    void truncationRemovesLaterSegmentsAndCutsTheActiveOne() throws IOException {
        append(2);
        append(1);
        localLog.activeSegment().onBecomeInactiveSegment();
        localLog.startNewActiveSegment(3);
        append(3);

        localLog.truncateTo(2);

        assertThat(localLog.segments().baseOffsets()).containsExactly(0L);
        assertThat(localLog.logEndOffset()).isEqualTo(2);
        assertThat(localLog.activeSegment().readNextOffset()).isEqualTo(2);
    }

    @Test
    void removingAllSegmentsStartsAnEmptyLogAtTheNewOffset() throws IOException {
        append(3);

        localLog.removeAllSegmentsAndStartAt(10);

        assertThat(localLog.segments().baseOffsets()).containsExactly(10L);
        assertThat(localLog.logEndOffsetMetadata()).isEqualTo(new LogOffsetMetadata(10, 10, 0));
    }

    @Test
    void aCompactedLogRollsByMaxCompactionLagToo() throws IOException {
        localLog.closeHandlers();
        dir = new File(tmp, "compacted-0");
        assertThat(dir.mkdirs()).isTrue();
        localLog = open(config("cleanup.policy", "compact", "segment.ms", "3600000", "max.compaction.lag.ms", "60000"));
        append(1);
        long now = time.milliseconds();

        assertThat(localLog.shouldRoll(100, now + 60_000, 1, now + 60_000)).isFalse();
        assertThat(localLog.shouldRoll(100, now + 60_001, 1, now + 60_001)).as("the record timestamp counts").isTrue();
    }

    @Test
    void aCleanerSwapPreparedBeforeAChangeIsRefused() throws IOException {
        long version = localLog.segmentsVersion();
        localLog.segmentsChanged();

        assertThat(localLog.removeCleanedAwaySegments(List.of(), version)).isFalse();
        assertThat(localLog.replaceSegments(localLog.activeSegment(), List.of(), version, SwapHook.NONE)).isFalse();
        assertThat(localLog.removeCleanedAwaySegments(List.of(localLog.activeSegment()), localLog.segmentsVersion()))
            .as("never the active segment").isFalse();
    }

    @Test
    void aClosedLogRefusesWrites() {
        long version = localLog.segmentsVersion();

        localLog.closeHandlers();

        assertThat(localLog.isClosed()).isTrue();
        assertThat(localLog.segmentsVersion()).isGreaterThan(version);
        assertThatThrownBy(localLog::checkOpen).isInstanceOf(KafkaStorageException.class)
            .hasMessageContaining("is closed");
    }
}
