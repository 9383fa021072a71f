package io.tributary.broker.log;

import static io.tributary.broker.log.CleanerTestSupport.assertEachOffsetReadable;
import static io.tributary.broker.log.CleanerTestSupport.assertStrictlyIncreasing;
import static io.tributary.broker.log.CleanerTestSupport.cleanerFor;
import static io.tributary.broker.log.CleanerTestSupport.expectedAfterClean;
import static io.tributary.broker.log.CleanerTestSupport.fat;
import static io.tributary.broker.log.CleanerTestSupport.filesEndingWith;
import static io.tributary.broker.log.CleanerTestSupport.idempotentKeyed;
import static io.tributary.broker.log.CleanerTestSupport.keyed;
import static io.tributary.broker.log.CleanerTestSupport.readAll;
import static io.tributary.broker.log.LogTestSupport.TP;
import static io.tributary.broker.log.LogTestSupport.config;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.log.CleanerTestSupport.KeyValue;
import io.tributary.broker.log.LogTestSupport.LogFixture;
import java.io.File;
import java.io.IOException;
import java.util.List;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.record.internal.FileLogInputStream.FileChannelRecordBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log cleaner on a real {@link PartitionLog} with 1 KiB segments (about five 100-byte records
 * each) and a mock clock: what survives a cleaning, what may not be cleaned yet, and the
 * cleaner checkpoint.
 */
class LogCleanerTest {

    private static final long MINUTE = 60_000;
    private static final long LARGE_DEDUPE_BUFFER = 1024 * 1024;

    @TempDir
    File tmp;

    private LogFixture f;
    private PartitionLog log;
    private LogCleaner cleaner;

    private void open(String... settings) throws IOException {
        String[] all = new String[settings.length + 6];
        all[0] = "segment.bytes";
        all[1] = "1024";
        all[2] = "cleanup.policy";
        all[3] = "compact";
        all[4] = "min.cleanable.dirty.ratio";
        all[5] = "0.01";
        System.arraycopy(settings, 0, all, 6, settings.length);
        f = new LogFixture(tmp, config(all));
        log = f.open();
        cleaner = cleanerFor(f, tmp, LARGE_DEDUPE_BUFFER);
    }

    /** Writes {@code rounds} updates of keys k0..k(keys-1), one record per batch, value "r{round}-k{key}". */
    private void writeRounds(int rounds, int keys) {
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < keys; k++) {
                log.appendAsLeader(keyed(f.time.milliseconds(), "k" + k, fat("r" + r + "-k" + k)), 0);
            }
        }
    }

    private void commitAll() {
        log.updateHighWatermark(log.logEndOffset());
    }

    @Test
    void keepsTheLatestValueOfEachKeyAtItsOriginalOffsetAndNeverTouchesTheActiveSegment() throws IOException {
        open();
        writeRounds(4, 10);
        commitAll();
        List<KeyValue> before = readAll(log);
        long logEnd = log.logEndOffset();
        LogSegment active = log.activeSegment();
        int activeSize = active.size();
        assertThat(log.numberOfSegments()).isGreaterThan(4);

        assertThat(cleaner.cleanFilthiestLog()).isTrue();

        List<KeyValue> after = readAll(log);
        assertThat(after).isEqualTo(expectedAfterClean(before, active.baseOffset(), true));
        assertThat(after.size()).isLessThan(before.size());
        assertStrictlyIncreasing(after);
        assertThat(after.get(after.size() - 1).offset()).isEqualTo(logEnd - 1);
        assertThat(log.logEndOffset()).as("log end offset").isEqualTo(logEnd);
        assertThat(log.activeSegment()).as("active segment").isSameAs(active);
        assertThat(active.size()).isEqualTo(activeSize);
        assertEachOffsetReadable(log, after);
        assertThat(cleaner.checkpoints()).containsEntry(TP, active.baseOffset());
        assertThat(filesEndingWith(f, ".cleaned")).isEmpty();
        assertThat(filesEndingWith(f, ".swap")).isEmpty();

        // Appends go on at the log end; a read across the gaps still reaches it.
        log.appendAsLeader(keyed(f.time.milliseconds(), "k0", "new"), 0);
        assertThat(log.logEndOffset()).isEqualTo(logEnd + 1);
        assertThat(readAll(log).get(readAll(log).size() - 1)).isEqualTo(new KeyValue(logEnd, "k0", "new"));
    }

    @Test
    void cleanedSegmentsAreGroupedUpToTheSegmentSizeAndTheOldFilesDeletedLater() throws IOException {
        open();
        writeRounds(6, 4);
        commitAll();
        cleaner.cleanFilthiestLog();
        assertThat(filesEndingWith(f, ".log.deleted")).isNotEmpty();
        f.time.advance(log.config().fileDeleteDelayMs());
        assertThat(filesEndingWith(f, ".deleted")).isEmpty();

        // Full segments are cleaned one by one; the small ones they became are grouped the next time.
        writeRounds(2, 4);
        log.roll();
        commitAll();
        List<KeyValue> before = readAll(log);
        int segmentsBefore = log.numberOfSegments();
        assertThat(cleaner.cleanFilthiestLog()).isTrue();

        assertThat(log.numberOfSegments()).isLessThan(segmentsBefore - 2);
        assertThat(readAll(log)).isEqualTo(expectedAfterClean(before, log.activeSegment().baseOffset(), true));
        f.time.advance(log.config().fileDeleteDelayMs());
        assertThat(filesEndingWith(f, ".log")).hasSize(log.numberOfSegments());
        for (LogSegment segment : log.segments().values()) {
            assertThat(segment.size()).isLessThanOrEqualTo(1024);
        }
    }

    /** Regression: dropping the emptied head segments on load raised the log start offset past the kept records. */
    @Test
    void aLogWhoseHeadWasCleanedAwayKeepsItsLogStartOffsetAcrossARestart() throws IOException {
        open();
        writeRounds(4, 10);
        commitAll();
        cleaner.cleanFilthiestLog();
        List<KeyValue> cleaned = readAll(log);
        assertThat(log.segments().values().iterator().next().size()).as("the first segment was emptied").isZero();

        for (boolean clean : new boolean[] {true, false}) {
            log = clean ? f.closeAndReload() : f.crashAndReload(0);
            assertThat(log.logStartOffset()).isZero();
            assertThat(log.segments().firstBaseOffset()).as("the emptied first segment stays").isZero();
            assertThat(readAll(log)).isEqualTo(cleaned);
            FetchDataInfo fromZero = log.read(0, 100_000, FetchIsolation.HIGH_WATERMARK, true);
            assertThat(fromZero.records().batches().iterator().next().lastOffset()).isEqualTo(cleaned.get(0).offset());
        }
    }

    @Test
    void neverCleansAtOrAboveTheHighWatermark() throws IOException {
        open();
        writeRounds(4, 10);
        List<KeyValue> before = readAll(log);
        assertThat(cleaner.cleanFilthiestLog()).as("nothing is committed").isFalse();

        log.updateHighWatermark(22);
        long firstUncleanable = log.segments().floor(22).baseOffset();
        assertThat(cleaner.cleanFilthiestLog()).isTrue();

        assertThat(readAll(log)).isEqualTo(expectedAfterClean(before, firstUncleanable, true));
        assertThat(cleaner.checkpoints()).containsEntry(TP, firstUncleanable);
    }

    @Test
    void minCompactionLagKeepsRecentSegmentsDirty() throws IOException {
        open("min.compaction.lag.ms", Long.toString(10 * MINUTE));
        writeRounds(2, 10);
        f.time.advance(6 * MINUTE);
        long youngFrom = log.logEndOffset();
        writeRounds(2, 10);
        commitAll();
        List<KeyValue> before = readAll(log);

        assertThat(cleaner.cleanFilthiestLog()).as("every segment is younger than the lag").isFalse();

        f.time.advance(5 * MINUTE);
        assertThat(cleaner.cleanFilthiestLog()).isTrue();
        long firstYoungSegment = log.segments().floor(youngFrom).baseOffset();
        assertThat(readAll(log)).isEqualTo(expectedAfterClean(before, firstYoungSegment, true));
        assertThat(cleaner.checkpoints()).containsEntry(TP, firstYoungSegment);
    }

    @Test
    void minCleanableDirtyRatioDecidesWhenACleanedLogIsCleanedAgain() throws IOException {
        open();
        writeRounds(4, 10);
        commitAll();
        assertThat(cleaner.cleanFilthiestLog()).isTrue();
        writeRounds(1, 2);
        log.roll();
        commitAll();

        f.config = config("segment.bytes", "1024", "cleanup.policy", "compact", "min.cleanable.dirty.ratio", "0.9");
        log.updateConfig(f.config);
        LogToClean ltc = LogToClean.of(log, cleaner.checkpoints().get(TP), f.time.milliseconds());
        assertThat(ltc.cleanableRatio()).isBetween(0.01, 0.9);
        assertThat(cleaner.cleanFilthiestLog()).as("a little dirt under a 0.9 ratio").isFalse();

        f.config = config("segment.bytes", "1024", "cleanup.policy", "compact", "min.cleanable.dirty.ratio",
            Double.toString(ltc.cleanableRatio()));
        log.updateConfig(f.config);
        assertThat(cleaner.cleanFilthiestLog()).as("the ratio reached exactly").isTrue();
        assertThat(cleaner.checkpoints()).containsEntry(TP, log.activeSegment().baseOffset());
    }

    @Test
    void maxCompactionLagForcesACleaningUnderTheDirtyRatio() throws IOException {
        open("min.cleanable.dirty.ratio", "1.0", "max.compaction.lag.ms", Long.toString(10 * MINUTE));
        writeRounds(4, 10);
        commitAll();
        assertThat(cleaner.cleanFilthiestLog()).as("a never cleaned log has ratio 1.0").isTrue();
        writeRounds(1, 3);
        log.roll();
        commitAll();

        f.time.advance(9 * MINUTE);
        assertThat(cleaner.cleanFilthiestLog()).as("under the ratio and within the lag").isFalse();

        f.time.advance(2 * MINUTE);
        assertThat(cleaner.cleanFilthiestLog()).as("a dirty record waited longer than the lag").isTrue();
        assertThat(cleaner.checkpoints()).containsEntry(TP, log.activeSegment().baseOffset());
    }

    @Test
    void maxCompactionLagRollsTheActiveSegmentSoItCanBeCleaned() throws IOException {
        open("max.compaction.lag.ms", Long.toString(10 * MINUTE));
        log.appendAsLeader(keyed(f.time.milliseconds(), "a", "1"), 0);
        f.time.advance(11 * MINUTE);
        log.appendAsLeader(keyed(f.time.milliseconds(), "a", "2"), 0);
        assertThat(log.segmentBaseOffsets()).containsExactly(0L, 1L);
    }

    @Test
    void tombstonesSurviveUntilDeleteRetentionMsThenGo() throws IOException {
        open("delete.retention.ms", Long.toString(10 * MINUTE));
        writeRounds(2, 5);
        log.appendAsLeader(keyed(f.time.milliseconds(), "k1", null), 0);
        log.appendAsLeader(keyed(f.time.milliseconds(), "k3", null), 0);
        writeRounds(1, 1);
        log.roll();
        commitAll();

        assertThat(cleaner.cleanFilthiestLog()).isTrue();
        assertThat(CleanerTestSupport.latestValues(readAll(log))).containsEntry("k1", null).containsEntry("k3", null);
        assertThat(readAll(log).stream().filter(kv -> kv.key().equals("k1"))).hasSize(1);

        f.time.advance(9 * MINUTE);
        assertThat(cleaner.cleanFilthiestLog()).as("nothing dirty, horizon not reached").isFalse();
        assertThat(readAll(log).stream().filter(kv -> kv.value() == null)).hasSize(2);

        f.time.advance(MINUTE);
        assertThat(cleaner.cleanFilthiestLog()).as("horizon reached").isTrue();
        List<KeyValue> after = readAll(log);
        assertThat(after).noneMatch(kv -> kv.key().equals("k1") || kv.key().equals("k3"));
        assertThat(CleanerTestSupport.latestValues(after)).containsOnlyKeys("k0", "k2", "k4");
        assertThat(cleaner.cleanFilthiestLog()).as("nothing left to do").isFalse();
    }

    @Test
    void theLastBatchOfAProducerIsKeptEmptiedSoItsStateSurvivesAReload() throws IOException {
        open();
        long pid = 1000;
        short epoch = 3;
        log.appendAsLeader(idempotentKeyed(pid, epoch, 0, f.time.milliseconds(), "a", fat("p0"), "b", fat("p1")), 0);
        log.appendAsLeader(idempotentKeyed(pid, epoch, 2, f.time.milliseconds(), "a", fat("p2"), "b", fat("p3")), 0);
        long producersLastOffset = log.logEndOffset() - 1;
        writeRounds(3, 4);
        log.appendAsLeader(keyed(f.time.milliseconds(), "a", fat("x"), "b", fat("y")), 0);
        log.roll();
        commitAll();

        assertThat(cleaner.cleanFilthiestLog()).isTrue();

        assertThat(readAll(log)).noneMatch(kv -> kv.value().startsWith("p"));
        FileChannelRecordBatch kept = null;
        for (LogSegment segment : log.segments().values()) {
            for (FileChannelRecordBatch batch : segment.log().batches()) {
                if (batch.producerId() == pid) {
                    kept = batch;
                }
            }
        }
        assertThat(kept).as("the producer's last batch").isNotNull();
        assertThat(kept.lastOffset()).isEqualTo(producersLastOffset);
        assertThat(kept.lastSequence()).isEqualTo(3);
        assertThat(kept.iterator().hasNext()).as("emptied").isFalse();

        // Without snapshots the state comes from the log alone: the producer's next sequence is still 4.
        log.close();
        for (String snapshot : filesEndingWith(f, ".snapshot")) {
            assertThat(new File(f.dir, snapshot).delete()).isTrue();
        }
        log = f.reloadUnclean(0, 0, 0);
        org.assertj.core.api.Assertions.assertThatThrownBy(() ->
                log.appendAsLeader(idempotentKeyed(pid, epoch, 5, f.time.milliseconds(), "a", "gap"), 0))
            .isInstanceOf(OutOfOrderSequenceException.class);
        log.appendAsLeader(idempotentKeyed(pid, epoch, 4, f.time.milliseconds(), "a", "next"), 0);
    }

    @Test
    void theCheckpointAdvancesAndSurvivesAReload() throws IOException {
        open();
        writeRounds(3, 10);
        commitAll();
        cleaner.cleanFilthiestLog();
        long checkpoint = cleaner.checkpoints().get(TP);
        assertThat(checkpoint).isEqualTo(log.activeSegment().baseOffset());
        assertThat(new File(tmp, LogCleanerManager.CLEANER_CHECKPOINT)).content()
            .contains("events 0 " + checkpoint);
        List<KeyValue> cleaned = readAll(log);

        log = f.closeAndReload();
        LogCleaner restarted = cleanerFor(f, tmp, LARGE_DEDUPE_BUFFER);
        assertThat(restarted.checkpoints()).containsEntry(TP, checkpoint);
        assertThat(readAll(log)).isEqualTo(cleaned);
        assertThat(restarted.cleanFilthiestLog()).as("nothing dirty").isFalse();

        writeRounds(2, 10);
        log.roll();
        commitAll();
        assertThat(restarted.cleanFilthiestLog()).isTrue();
        assertThat(restarted.checkpoints().get(TP)).isGreaterThan(checkpoint);
    }

    @Test
    void aDedupeBufferTooSmallForTheDirtySectionCleansItInSeveralCorrectRounds() throws IOException {
        open();
        writeRounds(3, 30);
        commitAll();
        List<KeyValue> before = readAll(log);
        long firstUncleanable = log.activeSegment().baseOffset();
        // 12 slots of 24 bytes: 10 keys per round.
        LogCleaner small = cleanerFor(f, tmp, 12 * 24);

        assertThat(small.cleanFilthiestLog()).isTrue();
        long first = small.checkpoints().get(TP);
        assertThat(first).as("partial progress").isGreaterThan(0).isLessThan(firstUncleanable);
        assertThat(CleanerTestSupport.latestValues(readAll(log))).isEqualTo(CleanerTestSupport.latestValues(before));
        assertStrictlyIncreasing(readAll(log));

        int rounds = 1;
        while (small.checkpoints().get(TP) < firstUncleanable) {
            assertThat(small.cleanFilthiestLog()).isTrue();
            assertThat(CleanerTestSupport.latestValues(readAll(log))).isEqualTo(CleanerTestSupport.latestValues(before));
            assertThat(++rounds).isLessThan(20);
        }
        assertThat(rounds).isGreaterThan(2);
        assertThat(readAll(log)).isEqualTo(expectedAfterClean(before, firstUncleanable, true));
    }

    @Test
    void aTruncationDuringACleaningMakesItGiveUpWithoutLeavingFiles() throws IOException {
        open();
        writeRounds(4, 10);
        commitAll();
        List<KeyValue> before = readAll(log);
        cleaner.swapHookForTests(step -> {
            if (step == SwapHook.Step.CLEANED_WRITTEN) {
                log.truncateTo(before.get(before.size() - 3).offset());
            }
        });

        assertThat(cleaner.cleanFilthiestLog()).isFalse();

        assertThat(filesEndingWith(f, ".cleaned")).isEmpty();
        assertThat(readAll(log)).isEqualTo(before.subList(0, before.size() - 3));
        assertThat(cleaner.checkpoints()).doesNotContainKey(TP);
        cleaner.swapHookForTests(SwapHook.NONE);
        commitAll();
        assertThat(cleaner.cleanFilthiestLog()).as("cleaned on the next round").isTrue();
    }

    @Test
    void compactAndDeleteLogsGetTheirRetentionFromTheCleanerThread() throws IOException {
        open("cleanup.policy", "compact,delete", "retention.ms", Long.toString(30 * MINUTE));
        for (int i = 0; i < 10; i++) {
            log.appendAsLeader(keyed(f.time.milliseconds(), "old" + i, fat("old")), 0);
        }
        f.time.advance(31 * MINUTE);
        long newFrom = log.logEndOffset();
        writeRounds(2, 10);
        commitAll();

        assertThat(cleaner.cleanFilthiestLog()).isTrue();

        assertThat(log.logStartOffset()).as("retention ran after the cleaning").isGreaterThan(0);
        List<KeyValue> after = readAll(log);
        assertThat(after).noneMatch(kv -> kv.key().startsWith("old") && kv.offset() < log.segments().floor(newFrom).baseOffset());
        assertThat(CleanerTestSupport.latestValues(after)).containsEntry("k0", fat("r1-k0")).containsEntry("k9", fat("r1-k9"));
    }
}
