package io.tributary.broker.log;

import static io.tributary.broker.log.CleanerTestSupport.assertEachOffsetReadable;
import static io.tributary.broker.log.CleanerTestSupport.assertStrictlyIncreasing;
import static io.tributary.broker.log.CleanerTestSupport.cleanerFor;
import static io.tributary.broker.log.CleanerTestSupport.fat;
import static io.tributary.broker.log.CleanerTestSupport.filesEndingWith;
import static io.tributary.broker.log.CleanerTestSupport.keyed;
import static io.tributary.broker.log.CleanerTestSupport.readAll;
import static io.tributary.broker.log.LogTestSupport.config;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.config.LogConfig;
import io.tributary.broker.log.CleanerTestSupport.KeyValue;
import io.tributary.broker.log.LogTestSupport.LogFixture;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker stopped at each step of the cleaner's write-and-swap restarts with a consistent log:
 * the cleaning is stopped there (the swap hook throws, as a crash stops the process), the log's
 * file handles are abandoned without flushing or snapshots, and the directory is loaded again
 * as after an unclean shutdown. The log then holds exactly the records of before the cleaning
 * or of after it, every offset is readable through valid indexes, appends go on at the same
 * log end offset, and cleaning goes on.
 *
 * <p>Four segments of ten updates each (rolled by hand) form one cleaning group, so the swap
 * replaces four old segments.
 */
class LogCleanerCrashTest {

    private static final LogConfig CONFIG = config("segment.bytes", "65536", "cleanup.policy", "compact",
        "min.cleanable.dirty.ratio", "0.01");

    /** Thrown by the swap hook: the process stops here. */
    private static final class SimulatedCrash extends RuntimeException {
        SimulatedCrash(SwapHook.Step step) {
            super("crash at " + step);
        }
    }

    @TempDir
    File tmp;

    private List<KeyValue> before;
    private List<KeyValue> after;
    private long logEnd;

    /** Writes the same log as {@link #write}, cleans it without a crash, and records both states. */
    @BeforeEach
    void expectedStates() throws IOException {
        LogFixture reference = new LogFixture(new File(tmp, "reference"), CONFIG);
        PartitionLog log = reference.open();
        write(reference);
        before = readAll(log);
        logEnd = log.logEndOffset();
        assertThat(cleanerFor(reference, reference.dir.getParentFile(), 1 << 20).cleanFilthiestLog()).isTrue();
        after = readAll(log);
        assertThat(after).isNotEqualTo(before);
        assertThat(log.numberOfSegments()).as("one cleaned segment and the active one").isEqualTo(2);
        log.close();
    }

    private static void write(LogFixture f) {
        PartitionLog log = f.log;
        for (int segment = 0; segment < 4; segment++) {
            for (int k = 0; k < 10; k++) {
                String key = k < 8 ? "k" + k : "s" + segment + "-" + k;
                log.appendAsLeader(keyed(f.time.milliseconds(), key, fat("v" + segment + "-" + key)), 0);
            }
            log.roll();
        }
        log.appendAsLeader(keyed(f.time.milliseconds(), "k0", fat("active")), 0);
        log.updateHighWatermark(log.logEndOffset());
    }

    /**
     * Cleans a fresh copy of the log and crashes at the {@code occurrence}-th time the swap
     * reaches {@code step}; returns the fixture with the crashed log's handles abandoned.
     */
    private LogFixture crashAt(SwapHook.Step step, int occurrence) throws IOException {
        LogFixture f = new LogFixture(new File(tmp, "crashed"), CONFIG);
        f.open();
        write(f);
        LogCleaner cleaner = cleanerFor(f, f.dir.getParentFile(), 1 << 20);
        int[] seen = {0};
        cleaner.swapHookForTests(s -> {
            if (s == step && ++seen[0] == occurrence) {
                throw new SimulatedCrash(s);
            }
        });
        assertThat(cleaner.cleanFilthiestLog()).as("the cleaning stopped").isFalse();
        assertThat(seen[0]).as("step %s reached", step).isEqualTo(occurrence);
        f.crash();
        return f;
    }

    private PartitionLog restart(LogFixture f) throws IOException {
        return f.reloadUnclean(0, 0, logEnd);
    }

    /** The checks every restarted log must pass, given the state it must be in. */
    private void assertConsistent(LogFixture f, PartitionLog log, List<KeyValue> expected) throws IOException {
        assertThat(filesEndingWith(f, ".cleaned")).isEmpty();
        assertThat(filesEndingWith(f, ".swap")).isEmpty();
        assertThat(filesEndingWith(f, ".deleted")).isEmpty();
        List<KeyValue> records = readAll(log);
        assertThat(records).isEqualTo(expected);
        assertStrictlyIncreasing(records);
        assertEachOffsetReadable(log, records);
        long previousEnd = 0;
        for (LogSegment segment : log.segments().values()) {
            segment.offsetIndex().sanityCheck(segment.size());
            segment.timeIndex().sanityCheck(segment.size());
            assertThat(segment.baseOffset()).as("segments do not overlap").isGreaterThanOrEqualTo(previousEnd);
            previousEnd = segment.readNextOffset();
        }
        assertThat(filesEndingWith(f, ".log")).hasSize(log.numberOfSegments());
        assertThat(log.logEndOffset()).isEqualTo(logEnd);

        log.appendAsLeader(keyed(f.time.milliseconds(), "k1", "after restart"), 0);
        List<KeyValue> withAppend = new ArrayList<>(expected);
        withAppend.add(new KeyValue(logEnd, "k1", "after restart"));
        assertThat(readAll(log)).isEqualTo(withAppend);
        log = f.closeAndReload();
        assertThat(readAll(log)).isEqualTo(withAppend);

        // Cleaning goes on from whatever state the crash left.
        log.roll();
        log.updateHighWatermark(log.logEndOffset());
        cleanerFor(f, f.dir.getParentFile(), 1 << 20).cleanFilthiestLog();
        assertThat(CleanerTestSupport.latestValues(readAll(log)))
            .isEqualTo(CleanerTestSupport.latestValues(withAppend));
    }

    @Test
    void aCrashBeforeTheSwapLeavesCleanedFilesThatAreDeleted() throws IOException {
        LogFixture f = crashAt(SwapHook.Step.CLEANED_WRITTEN, 1);
        assertThat(filesEndingWith(f, ".log.cleaned")).containsExactly("00000000000000000000.log.cleaned");

        assertConsistent(f, restart(f), before);
    }

    @Test
    void aCrashRightAfterTheSwapFileIsCommittedCompletesTheSwap() throws IOException {
        LogFixture f = crashAt(SwapHook.Step.SWAP_RENAMED, 1);
        assertThat(filesEndingWith(f, ".log.swap")).containsExactly("00000000000000000000.log.swap");
        assertThat(filesEndingWith(f, ".log")).as("old segments and the active one").hasSize(5);

        assertConsistent(f, restart(f), after);
    }

    @Test
    void aCrashAfterSomeOldSegmentsWereRemovedCompletesTheSwap() throws IOException {
        LogFixture f = crashAt(SwapHook.Step.OLD_SEGMENT_REMOVED, 2);
        assertThat(filesEndingWith(f, ".log.deleted")).hasSize(2);
        assertThat(filesEndingWith(f, ".log")).hasSize(3);

        assertConsistent(f, restart(f), after);
    }

    @Test
    void aCrashAfterSomeOldSegmentsWereDeletedFromDiskCompletesTheSwap() throws IOException {
        LogFixture f = crashAt(SwapHook.Step.OLD_SEGMENT_REMOVED, 3);
        for (String deleted : filesEndingWith(f, ".deleted")) {
            Files.delete(new File(f.dir, deleted).toPath());
        }

        assertConsistent(f, restart(f), after);
    }

    @Test
    void aCrashDuringTheFinalRenameCompletesTheSwap() throws IOException {
        LogFixture f = crashAt(SwapHook.Step.OLD_SEGMENT_REMOVED, 4);
        // The .log file was renamed into place, its indexes not yet.
        File swap = f.segmentFile(0, ".log.swap");
        Files.move(swap.toPath(), f.segmentFile(0, ".log").toPath());
        assertThat(filesEndingWith(f, ".index.swap")).hasSize(1);

        assertConsistent(f, restart(f), after);
    }

    @Test
    void aCrashAfterTheSwapKeepsTheCleanedLog() throws IOException {
        LogFixture f = crashAt(SwapHook.Step.SWAP_COMPLETED, 1);

        assertConsistent(f, restart(f), after);
    }
}
