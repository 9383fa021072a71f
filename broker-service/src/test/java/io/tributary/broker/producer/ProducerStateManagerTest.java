package io.tributary.broker.producer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProducerStateManagerTest {

    private static final TopicPartition TP = new TopicPartition("events", 0);
    private static final long T = 1_700_000_000_000L;
    private static final int EXPIRATION_MS = 60_000;
    private static final long PID = 7L;

    @TempDir
    File dir;

    private ProducerStateManager newManager() throws IOException {
        return new ProducerStateManager(TP, dir, EXPIRATION_MS);
    }

    /** An idempotent batch as stored in the log, at {@code offset}. */
    private static RecordBatch batch(long offset, long producerId, short epoch, int sequence, int records, long timestamp) {
        SimpleRecord[] rs = new SimpleRecord[records];
        for (int i = 0; i < records; i++) {
            rs[i] = new SimpleRecord(timestamp, ("v" + i).getBytes());
        }
        return MemoryRecords.withIdempotentRecords(offset, Compression.NONE, producerId, epoch, sequence, 0, rs)
            .batches().iterator().next();
    }

    private static void append(ProducerStateManager manager, RecordBatch batch, AppendOrigin origin) {
        ProducerAppendInfo info = manager.prepareUpdate(batch.producerId(), origin);
        info.append(batch, batch.maxTimestamp());
        manager.update(info);
        manager.updateMapEndOffset(batch.lastOffset() + 1);
    }

    private static void append(ProducerStateManager manager, RecordBatch batch) {
        append(manager, batch, AppendOrigin.CLIENT);
    }

    @Test
    void aDuplicateMatchesTheEpochAndTheWholeSequenceRange() throws IOException {
        ProducerStateManager manager = newManager();
        append(manager, batch(10, PID, (short) 0, 0, 2, T));

        BatchMetadata found = manager.findDuplicate(batch(0, PID, (short) 0, 0, 2, T)).orElseThrow();
        assertThat(found.firstOffset()).isEqualTo(10);
        assertThat(found.lastOffset()).isEqualTo(11);
        assertThat(found.firstSeq()).isZero();
        assertThat(manager.findDuplicate(batch(0, PID, (short) 1, 0, 2, T))).as("other epoch").isEmpty();
        assertThat(manager.findDuplicate(batch(0, PID, (short) 0, 0, 1, T))).as("other range").isEmpty();
        assertThat(manager.findDuplicate(batch(0, PID + 1, (short) 0, 0, 2, T))).as("other producer").isEmpty();
    }

    @Test
    void theFirstRetriedBatchOfAnAppendIsItsDuplicate() throws IOException {
        ProducerStateManager manager = newManager();
        append(manager, batch(10, PID, (short) 0, 0, 2, T));
        RecordBatch fresh = batch(0, PID + 1, (short) 0, 0, 1, T);
        RecordBatch retried = batch(0, PID, (short) 0, 0, 2, T);

        assertThat(manager.findDuplicate(List.of(fresh, retried))).map(BatchMetadata::firstOffset).hasValue(10L);
        assertThat(manager.findDuplicate(List.of(fresh))).isEmpty();
    }

    @Test
    void preparingAnAppendValidatesEachProducerWithoutChangingTheState() throws IOException {
        ProducerStateManager manager = newManager();
        append(manager, batch(0, PID, (short) 0, 0, 1, T));
        List<RecordBatch> batches = List.of(batch(1, PID, (short) 0, 1, 1, T), batch(2, PID, (short) 0, 2, 1, T),
            batch(3, PID + 1, (short) 0, 0, 1, T));

        var appends = manager.prepareAppend(batches, AppendOrigin.CLIENT, T);

        assertThat(appends).containsOnlyKeys(PID, PID + 1);
        assertThat(manager.lastEntry(PID).orElseThrow().lastSeq()).as("not committed yet").isZero();
        appends.values().forEach(manager::update);
        assertThat(manager.lastEntry(PID).orElseThrow().lastSeq()).isEqualTo(2);
        assertThatThrownBy(() -> manager.prepareAppend(List.of(batch(4, PID, (short) 0, 9, 1, T)), AppendOrigin.CLIENT, T))
            .isInstanceOf(OutOfOrderSequenceException.class);
    }

    @Test
    void onlyTheLastFiveBatchesAreRetained() throws IOException {
        ProducerStateManager manager = newManager();
        for (int seq = 0; seq < 6; seq++) {
            append(manager, batch(seq, PID, (short) 0, seq, 1, T));
        }

        List<BatchMetadata> batches = manager.lastEntry(PID).orElseThrow().batches();
        assertThat(batches).extracting(BatchMetadata::lastSeq).containsExactly(1, 2, 3, 4, 5);
        assertThat(manager.findDuplicate(batch(0, PID, (short) 0, 0, 1, T))).isEmpty();
        assertThat(manager.findDuplicate(batch(0, PID, (short) 0, 1, 1, T))).isPresent();
    }

    @Test
    void aValidatedAppendChangesNothingUntilItIsCommitted() throws IOException {
        ProducerStateManager manager = newManager();
        append(manager, batch(0, PID, (short) 0, 0, 1, T));

        ProducerAppendInfo pending = manager.prepareUpdate(PID, AppendOrigin.CLIENT);
        pending.append(batch(1, PID, (short) 0, 1, 1, T), T);

        assertThat(manager.lastEntry(PID).orElseThrow().lastSeq()).isZero();
        manager.update(pending);
        assertThat(manager.lastEntry(PID).orElseThrow().lastSeq()).isEqualTo(1);
    }

    @Test
    void batchesOfOneAppendAreCheckedAgainstEachOther() throws IOException {
        ProducerStateManager manager = newManager();
        ProducerAppendInfo info = manager.prepareUpdate(PID, AppendOrigin.CLIENT);
        info.append(batch(0, PID, (short) 0, 0, 2, T), T);
        info.append(batch(2, PID, (short) 0, 2, 1, T), T);

        assertThatThrownBy(() -> info.append(batch(3, PID, (short) 0, 5, 1, T), T)).isInstanceOf(OutOfOrderSequenceException.class);
    }

    @Test
    void clientAppendsAreCheckedForEpochAndSequence() throws IOException {
        ProducerStateManager manager = newManager();
        append(manager, batch(0, PID, (short) 2, 0, 1, T));

        assertThatThrownBy(() -> manager.prepareUpdate(PID, AppendOrigin.CLIENT).append(batch(1, PID, (short) 2, 2, 1, T), T))
            .isInstanceOf(OutOfOrderSequenceException.class);
        assertThatThrownBy(() -> manager.prepareUpdate(PID, AppendOrigin.CLIENT).append(batch(1, PID, (short) 1, 1, 1, T), T))
            .isInstanceOf(InvalidProducerEpochException.class);
        assertThatThrownBy(() -> manager.prepareUpdate(PID, AppendOrigin.CLIENT).append(batch(1, PID, (short) 3, 1, 1, T), T))
            .isInstanceOf(OutOfOrderSequenceException.class);
    }

    @Test
    void replicatedAndReplayedBatchesAreTakenAsWritten() throws IOException {
        ProducerStateManager manager = newManager();
        append(manager, batch(0, PID, (short) 2, 0, 1, T));

        append(manager, batch(1, PID, (short) 2, 5, 1, T), AppendOrigin.REPLICATION);
        manager.replay(batch(2, PID, (short) 2, 9, 1, T), T);

        assertThat(manager.lastEntry(PID).orElseThrow().lastSeq()).isEqualTo(9);
        assertThat(manager.lastEntry(PID).orElseThrow().lastDataOffset()).isEqualTo(2);
    }

    @Test
    void sequencesWrapFromIntegerMaxValueToZero() throws IOException {
        ProducerStateManager manager = newManager();
        append(manager, batch(0, PID, (short) 0, Integer.MAX_VALUE - 1, 3, T));
        ProducerStateEntry entry = manager.lastEntry(PID).orElseThrow();
        assertThat(entry.lastSeq()).isZero();
        assertThat(entry.batches().get(0).firstSeq()).isEqualTo(Integer.MAX_VALUE - 1);

        append(manager, batch(3, PID, (short) 0, 1, 1, T));
        assertThat(manager.findDuplicate(batch(0, PID, (short) 0, Integer.MAX_VALUE - 1, 3, T))).isPresent();
        assertThatThrownBy(() -> manager.prepareUpdate(PID, AppendOrigin.CLIENT).append(batch(4, PID, (short) 0, 0, 1, T), T))
            .isInstanceOf(OutOfOrderSequenceException.class);
    }

    @Test
    void aSnapshotRestoresEveryProducerWithAllRetainedBatches() throws IOException {
        ProducerStateManager manager = newManager();
        for (int seq = 0; seq < 5; seq++) {
            append(manager, batch(seq * 2L, PID, (short) 4, seq * 2, 2, T + seq));
        }
        append(manager, batch(10, PID + 1, (short) 0, 100, 1, T + 9));
        manager.takeSnapshot();
        assertThat(manager.snapshotOffsets()).containsExactly(11L);

        ProducerStateManager reloaded = newManager();
        reloaded.truncateAndReload(0, 11, T + 10);

        assertThat(reloaded.mapEndOffset()).isEqualTo(11);
        ProducerStateEntry entry = reloaded.lastEntry(PID).orElseThrow();
        assertThat(entry.producerEpoch()).isEqualTo((short) 4);
        assertThat(entry.lastTimestamp()).isEqualTo(T + 4);
        assertThat(entry.batches()).isEqualTo(manager.lastEntry(PID).orElseThrow().batches());
        for (int seq = 0; seq < 5; seq++) {
            assertThat(reloaded.findDuplicate(batch(0, PID, (short) 4, seq * 2, 2, T)).orElseThrow().firstOffset())
                .isEqualTo(seq * 2L);
        }
        assertThat(reloaded.lastEntry(PID + 1).orElseThrow().lastSeq()).isEqualTo(100);
    }

    @Test
    void aCorruptSnapshotIsDeletedAndTheNextOlderOneUsed() throws IOException {
        ProducerStateManager manager = newManager();
        append(manager, batch(0, PID, (short) 0, 0, 5, T));
        manager.takeSnapshot();
        append(manager, batch(5, PID, (short) 0, 5, 5, T));
        manager.takeSnapshot();
        File newest = ProducerSnapshotFile.fileFor(dir, 10);
        try (RandomAccessFile raf = new RandomAccessFile(newest, "rw")) {
            raf.seek(12);
            raf.write(raf.read() ^ 0x01);
        }

        ProducerStateManager reloaded = newManager();
        reloaded.truncateAndReload(0, 10, T);

        assertThat(reloaded.mapEndOffset()).as("the log is replayed from here").isEqualTo(5);
        assertThat(reloaded.lastEntry(PID).orElseThrow().lastSeq()).isEqualTo(4);
        assertThat(newest).doesNotExist();
        assertThat(reloaded.snapshotOffsets()).containsExactly(5L);
    }

    @Test
    void reloadingDropsSnapshotsOutsideTheLog() throws IOException {
        ProducerStateManager manager = newManager();
        for (long offset : new long[] {5, 10, 15}) {
            append(manager, batch(offset - 1, PID, (short) 0, (int) offset - 1, 1, T), AppendOrigin.REPLICATION);
            manager.takeSnapshot();
        }

        ProducerStateManager reloaded = newManager();
        reloaded.truncateAndReload(7, 12, T);

        assertThat(reloaded.snapshotOffsets()).containsExactly(10L);
        assertThat(ProducerSnapshotFile.fileFor(dir, 5)).doesNotExist();
        assertThat(ProducerSnapshotFile.fileFor(dir, 15)).doesNotExist();
        assertThat(reloaded.mapEndOffset()).isEqualTo(10);
        assertThat(reloaded.lastEntry(PID).orElseThrow().lastSeq()).isEqualTo(9);
    }

    @Test
    void producersIdleForTheExpirationTimeAreRemoved() throws IOException {
        ProducerStateManager manager = newManager();
        append(manager, batch(0, PID, (short) 0, 0, 1, T));
        append(manager, batch(1, PID + 1, (short) 0, 0, 1, T + 30_000));

        manager.removeExpiredProducers(T + EXPIRATION_MS - 1);
        assertThat(manager.activeProducers()).containsOnlyKeys(PID, PID + 1);

        manager.removeExpiredProducers(T + EXPIRATION_MS);
        assertThat(manager.activeProducers()).containsOnlyKeys(PID + 1);
    }

    @Test
    void raisingTheLogStartOffsetDropsProducersAndSnapshotsBelowIt() throws IOException {
        ProducerStateManager manager = newManager();
        for (int i = 0; i < 3; i++) {
            append(manager, batch(i, PID + i, (short) 0, 0, 1, T));
            manager.takeSnapshot();
        }
        assertThat(manager.snapshotOffsets()).containsExactly(1L, 2L, 3L);

        manager.onLogStartOffsetIncremented(2);

        assertThat(manager.activeProducers()).containsOnlyKeys(PID + 2);
        assertThat(manager.snapshotOffsets()).as("a snapshot at the log start still describes the log").containsExactly(2L, 3L);
        assertThat(ProducerSnapshotFile.fileFor(dir, 1)).doesNotExist();
    }

    @Test
    void truncatingFullyForgetsProducersAndSnapshots() throws IOException {
        ProducerStateManager manager = newManager();
        append(manager, batch(0, PID, (short) 0, 0, 1, T));
        manager.takeSnapshot();

        manager.truncateFullyAndStartAt(50);

        assertThat(manager.activeProducers()).isEmpty();
        assertThat(manager.snapshotOffsets()).isEmpty();
        assertThat(dir.listFiles((d, n) -> n.endsWith(".snapshot"))).isEmpty();
        assertThat(manager.mapEndOffset()).isEqualTo(50);
    }

    @Test
    void snapshotFilesRejectDamage() throws IOException {
        ProducerStateManager manager = newManager();
        append(manager, batch(0, PID, (short) 0, 0, 1, T));
        manager.takeSnapshot();
        File file = ProducerSnapshotFile.fileFor(dir, 1);
        byte[] good = Files.readAllBytes(file.toPath());
        assertThat(ProducerSnapshotFile.read(file)).hasSize(1);

        byte[] badVersion = good.clone();
        badVersion[1] = 9;
        assertCorrupt(file, badVersion);
        byte[] badCrc = good.clone();
        badCrc[3] ^= 0x10;
        assertCorrupt(file, badCrc);
        assertCorrupt(file, Arrays.copyOf(good, good.length - 1));
        assertCorrupt(file, new byte[0]);
        byte[] trailing = ByteBuffer.allocate(good.length + 4).put(good).array();
        assertCorrupt(file, trailing);
    }

    private static void assertCorrupt(File file, byte[] content) throws IOException {
        Files.write(file.toPath(), content);
        assertThatThrownBy(() -> ProducerSnapshotFile.read(file)).isInstanceOf(CorruptSnapshotException.class);
    }

    @Test
    void aSnapshotWrittenBeforeTransactionsStillLoads() throws IOException {
        // Version 1: no coordinator epoch or transaction fields. One producer with one batch.
        java.nio.ByteBuffer body = java.nio.ByteBuffer.allocate(4 + 8 + 2 + 8 + 1 + 24);
        body.putInt(1).putLong(PID).putShort((short) 3).putLong(T).put((byte) 1)
            .putInt(9).putLong(41L).putInt(4).putLong(T);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(body.array());
        java.nio.ByteBuffer file = java.nio.ByteBuffer.allocate(2 + 4 + body.capacity());
        file.putShort((short) 1).putInt((int) crc.getValue()).put(body.array());
        java.nio.file.Files.write(new File(dir, String.format("%020d", 42L) + ".snapshot").toPath(), file.array());

        ProducerStateManager manager = newManager();
        manager.truncateAndReload(0, 42, T);

        ProducerStateEntry entry = manager.lastEntry(PID).orElseThrow();
        assertThat(entry.producerEpoch()).isEqualTo((short) 3);
        assertThat(entry.lastSeq()).isEqualTo(9);
        assertThat(entry.lastDataOffset()).isEqualTo(41L);
        assertThat(entry.currentTxnFirstOffset()).isEqualTo(ProducerStateEntry.NO_TRANSACTION);
        assertThat(manager.firstUnstableOffset()).isEqualTo(ProducerStateManager.NO_UNSTABLE_OFFSET);
    }

    @Test
    void aSnapshotKeepsAnOpenTransactionAndTheCoordinatorEpoch() throws IOException {
        ProducerStateManager manager = newManager();
        RecordBatch first = MemoryRecords.withTransactionalRecords(10L, Compression.NONE, PID, (short) 0, 0, 0,
            new SimpleRecord(T, "a".getBytes())).batches().iterator().next();
        append(manager, first, AppendOrigin.CLIENT);
        manager.updateMapEndOffset(11);
        manager.takeSnapshot();

        ProducerStateManager reloaded = newManager();
        reloaded.truncateAndReload(0, 11, T);

        assertThat(reloaded.lastEntry(PID).orElseThrow().currentTxnFirstOffset()).isEqualTo(10L);
        assertThat(reloaded.firstUnstableOffset()).isEqualTo(10L);
    }
}
