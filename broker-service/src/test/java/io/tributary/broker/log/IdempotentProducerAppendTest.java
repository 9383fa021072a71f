package io.tributary.broker.log;

import static io.tributary.broker.log.LogTestSupport.PRODUCER_ID_EXPIRATION_MS;
import static io.tributary.broker.log.LogTestSupport.config;
import static io.tributary.broker.log.LogTestSupport.idempotent;
import static io.tributary.broker.log.LogTestSupport.readAll;
import static io.tributary.broker.log.LogTestSupport.records;
import static io.tributary.broker.log.LogTestSupport.value;
import static io.tributary.broker.log.LogTestSupport.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.log.LogTestSupport.LogFixture;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Idempotent producers through the log: duplicates, sequence and epoch checks, restarts and expiry. */
class IdempotentProducerAppendTest {

    private static final long PID = 1000L;

    @TempDir
    File tmp;

    private LogFixture f;
    private PartitionLog log;

    @BeforeEach
    void open() throws IOException {
        f = new LogFixture(tmp, config("segment.bytes", "1024"));
        log = f.open();
    }

    private LogAppendInfo append(short epoch, int sequence, String... values) {
        return log.appendAsLeader(idempotent(PID, epoch, sequence, f.time.milliseconds(), values), 0);
    }

    private LogAppendInfo append(int sequence, String... values) {
        return append((short) 0, sequence, values);
    }

    private static void assertOffsets(LogAppendInfo info, long first, long last, boolean duplicate) {
        assertThat(List.of(info.firstOffset(), info.lastOffset(), info.duplicate() ? 1L : 0L))
            .containsExactly(first, last, duplicate ? 1L : 0L);
    }

    @Test
    void aRetriedBatchIsAcknowledgedWithItsOriginalOffsetsAndNotWrittenAgain() {
        log.appendAsLeader(records(f.time.milliseconds(), "plain"), 0);
        assertOffsets(append(0, "a", "b"), 1, 2, false);
        assertOffsets(append(2, "c"), 3, 3, false);
        long size = log.size();

        LogAppendInfo retry = append(0, "a", "b");

        assertOffsets(retry, 1, 2, true);
        assertThat(retry.recordCount()).isZero();
        assertThat(log.logEndOffset()).isEqualTo(4);
        assertThat(log.size()).isEqualTo(size);
        assertThat(values(readAll(log, 0))).containsExactly("plain", "a", "b", "c");
    }

    @Test
    void anyOfTheLastFiveBatchesIsRecognisedButNotAnOlderOne() {
        for (int seq = 0; seq < 7; seq++) {
            append(seq, "v" + seq);
        }

        for (int seq = 2; seq < 7; seq++) {
            assertOffsets(append(seq, "v" + seq), seq, seq, true);
        }
        assertThatThrownBy(() -> append(1, "v1")).isInstanceOf(OutOfOrderSequenceException.class);
        assertThat(log.logEndOffset()).isEqualTo(7);
    }

    @Test
    void aSequenceThatDoesNotFollowTheLastOneIsOutOfOrder() {
        append(0, "a", "b");

        assertThatThrownBy(() -> append(3, "d")).isInstanceOf(OutOfOrderSequenceException.class);
        assertThatThrownBy(() -> append(1, "b", "c")).as("overlapping, not a retry").isInstanceOf(OutOfOrderSequenceException.class);
        assertThat(log.logEndOffset()).isEqualTo(2);
        assertOffsets(append(2, "c"), 2, 2, false);
    }

    @Test
    void anOlderEpochIsFenced() {
        append((short) 0, 0, "a");
        append((short) 1, 0, "b");

        assertThatThrownBy(() -> append((short) 0, 1, "c")).isInstanceOf(InvalidProducerEpochException.class);
        assertThatThrownBy(() -> append((short) 0, 0, "a")).as("a retry from the fenced epoch")
            .isInstanceOf(InvalidProducerEpochException.class);
        assertThat(log.logEndOffset()).isEqualTo(2);
    }

    @Test
    void aNewEpochMustStartAtSequenceZero() {
        append((short) 0, 0, "a");
        append((short) 0, 1, "b");

        assertThatThrownBy(() -> append((short) 1, 2, "c")).isInstanceOf(OutOfOrderSequenceException.class);
        assertOffsets(append((short) 1, 0, "c"), 2, 2, false);
        assertOffsets(append((short) 1, 1, "d"), 3, 3, false);
    }

    @Test
    void anUnknownProducerMayStartAtAnySequence() {
        assertOffsets(append(42, "a"), 0, 0, false);

        assertThatThrownBy(() -> append(44, "c")).isInstanceOf(OutOfOrderSequenceException.class);
        assertOffsets(append(43, "b"), 1, 1, false);
        LogAppendInfo other = log.appendAsLeader(idempotent(PID + 1, (short) 3, 7, f.time.milliseconds(), "x"), 0);
        assertOffsets(other, 2, 2, false);
    }

    @Test
    void laterBatchesOfANewProducersFirstAppendMustFollowTheFirstBatch() {
        long now = f.time.milliseconds();
        java.nio.ByteBuffer first = idempotent(PID, (short) 0, 10, now, "a", "b").buffer();
        java.nio.ByteBuffer gap = idempotent(PID, (short) 0, 15, now, "c").buffer();
        java.nio.ByteBuffer twoBatches = java.nio.ByteBuffer.allocate(first.remaining() + gap.remaining()).put(first).put(gap).flip();

        assertThatThrownBy(() -> log.appendAsLeader(org.apache.kafka.common.record.internal.MemoryRecords.readableRecords(twoBatches), 0))
            .isInstanceOf(OutOfOrderSequenceException.class);
        assertThat(log.logEndOffset()).isZero();
        assertThat(log.producerStateManager().lastEntry(PID)).isEmpty();
    }

    @Test
    void sequencesWrapAroundAfterIntegerMaxValue() {
        assertOffsets(append(Integer.MAX_VALUE - 1, "a", "b"), 0, 1, false);
        assertOffsets(append(0, "c"), 2, 2, false);

        LogAppendInfo spanning = log.appendAsLeader(
            idempotent(PID + 1, (short) 0, Integer.MAX_VALUE, f.time.milliseconds(), "x", "y", "z"), 0);
        assertOffsets(spanning, 3, 5, false);
        LogAppendInfo retry = log.appendAsLeader(
            idempotent(PID + 1, (short) 0, Integer.MAX_VALUE, f.time.milliseconds(), "x", "y", "z"), 0);
        assertOffsets(retry, 3, 5, true);
        assertOffsets(log.appendAsLeader(idempotent(PID + 1, (short) 0, 2, f.time.milliseconds(), "w"), 0), 6, 6, false);
        assertThat(log.producerStateManager().lastEntry(PID + 1).orElseThrow().lastSeq()).isEqualTo(2);
    }

    @Test
    void batchesWithoutAProducerIdAreNeverDeduplicated() {
        log.appendAsLeader(records(f.time.milliseconds(), "same"), 0);
        log.appendAsLeader(records(f.time.milliseconds(), "same"), 0);

        assertThat(values(readAll(log, 0))).containsExactly("same", "same");
    }

    @Test
    void aRetryAfterACleanRestartIsStillADuplicate() throws IOException {
        append(0, "a", "b");
        append(2, "c");

        log = f.closeAndReload();

        assertThat(log.producerStateManager().latestSnapshotOffset()).hasValue(3);
        assertOffsets(append(0, "a", "b"), 0, 1, true);
        assertOffsets(append(2, "c"), 2, 2, true);
        assertThatThrownBy(() -> append(5, "e")).isInstanceOf(OutOfOrderSequenceException.class);
        assertOffsets(append(3, "d"), 3, 3, false);
    }

    @Test
    void aRetryAfterACrashIsStillADuplicateAsTheStateIsRebuiltFromTheLog() throws IOException {
        for (int seq = 0; seq < 5; seq++) {
            append(seq, value("v" + seq, 300));
        }
        assertThat(log.segmentBaseOffsets()).containsExactly(0L, 2L, 4L);
        long end = log.logEndOffset();
        assertThat(log.producerStateManager().latestSnapshotOffset()).as("snapshots come from rolls only").hasValue(4);

        log = f.crashAndReload(0);

        assertThat(log.logEndOffset()).isEqualTo(end);
        for (int seq = 0; seq < 5; seq++) {
            assertOffsets(append(seq, value("v" + seq, 300)), seq, seq, true);
        }
        assertThatThrownBy(() -> append(6, "gap")).isInstanceOf(OutOfOrderSequenceException.class);
        assertOffsets(append(5, "next"), 5, 5, false);
    }

    @Test
    void withoutAnySnapshotTheStateIsRebuiltFromTheStartOfTheLog() throws IOException {
        for (int seq = 0; seq < 4; seq++) {
            append(seq, value("v" + seq, 300));
        }
        f.crash();
        for (File snapshot : f.dir.listFiles((d, name) -> name.endsWith(".snapshot"))) {
            Files.delete(snapshot.toPath());
        }

        log = f.reloadUnclean(0, 0, 0);

        assertOffsets(append(3, value("v3", 300)), 3, 3, true);
        assertOffsets(append(4, "next"), 4, 4, false);
    }

    @Test
    void aCorruptSnapshotIsIgnoredAndTheStateRebuiltFromTheLog() throws IOException {
        append(0, "a", "b");
        append(2, "c");
        log.close();
        File snapshot = f.segmentFile(3, ".snapshot");
        assertThat(snapshot).exists();
        byte[] original = Files.readAllBytes(snapshot.toPath());
        try (RandomAccessFile raf = new RandomAccessFile(snapshot, "rw")) {
            raf.seek(raf.length() - 5);
            raf.write(0x5A);
        }

        log = f.reloadClean();

        assertOffsets(append(0, "a", "b"), 0, 1, true);
        assertOffsets(append(2, "c"), 2, 2, true);
        assertOffsets(append(3, "d"), 3, 3, false);
        assertThat(Files.readAllBytes(snapshot.toPath())).as("the corrupt snapshot was replaced by one rebuilt from the log")
            .isEqualTo(original);
    }

    @Test
    void anEmptyOrTruncatedSnapshotIsIgnored() throws IOException {
        append(0, "a");
        append(1, "b");
        log.close();
        File snapshot = f.segmentFile(2, ".snapshot");
        byte[] content = Files.readAllBytes(snapshot.toPath());
        Files.write(snapshot.toPath(), Arrays.copyOf(content, content.length / 2));

        log = f.reloadClean();

        assertOffsets(append(1, "b"), 1, 1, true);
        assertOffsets(append(2, "c"), 2, 2, false);
    }

    @Test
    void producersExpireAfterProducerIdExpirationMs() {
        append(0, "a");
        append(1, "b");

        f.time.advance(PRODUCER_ID_EXPIRATION_MS - 1);
        log.producers().removeExpired();
        assertThat(log.producerStateManager().lastEntry(PID)).isPresent();
        assertOffsets(append(1, "b"), 1, 1, true);

        f.time.advance(1);
        log.producers().removeExpired();
        assertThat(log.producerStateManager().lastEntry(PID)).isEmpty();
        // Unknown again, the producer may continue from any sequence.
        assertOffsets(append(17, "c"), 2, 2, false);
    }

    @Test
    void expiredProducersAreNotLoadedFromASnapshot() throws IOException {
        append(0, "a");
        log.close();
        f.time.advance(PRODUCER_ID_EXPIRATION_MS);

        log = f.reloadClean();

        assertThat(log.producerStateManager().lastEntry(PID)).isEmpty();
    }

    @Test
    void truncationRewindsTheProducerState() {
        append(0, "a");
        append(1, "b");
        append(2, "c");

        log.truncateTo(2);

        assertThat(log.producerStateManager().lastEntry(PID).orElseThrow().lastSeq()).isEqualTo(1);
        assertOffsets(append(2, "c2"), 2, 2, false);
        assertThat(values(readAll(log, 0))).containsExactly("a", "b", "c2");
    }
}
