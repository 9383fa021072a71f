package io.tributary.broker.log;

import static io.tributary.broker.log.LogTestSupport.config;
import static io.tributary.broker.log.LogTestSupport.records;
import static io.tributary.broker.log.LogTestSupport.simpleRecords;
import static io.tributary.broker.log.LogTestSupport.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.log.LogTestSupport.LogFixture;
import io.tributary.broker.producer.AppendOrigin;
import io.tributary.broker.producer.VerificationGuard;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.TransactionCoordinatorFencedException;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transactions in the partition log (KIP-98): transactional batches open a producer's transaction,
 * a coordinator's COMMIT or ABORT marker closes it; the last stable offset (LSO) stops at the oldest
 * open transaction and read_committed reads stop there; aborts go to the segment's transaction
 * index ({@code .txnindex}), from which a read collects what the consumer must skip; a restart, a
 * crash and a truncation all keep this state right.
 */
class PartitionLogTransactionsTest {

    private static final long PID_A = 1000L;
    private static final long PID_B = 2000L;
    private static final short EPOCH = 0;
    private static final int COORDINATOR_EPOCH = 5;

    @TempDir
    File tmp;

    private LogFixture f;
    private PartitionLog log;

    @AfterEach
    void close() {
        if (log != null) {
            log.close();
        }
    }

    private PartitionLog open() throws IOException {
        f = new LogFixture(tmp, config());
        log = f.open();
        return log;
    }

    private LogAppendInfo transactional(long producerId, int baseSequence, String... values) {
        return log.appendAsLeader(MemoryRecords.withTransactionalRecords(Compression.NONE, producerId, EPOCH,
            baseSequence, simpleRecords(f.time.milliseconds(), values)), 0);
    }

    private LogAppendInfo marker(long producerId, ControlRecordType type, int coordinatorEpoch) {
        return log.appendAsLeader(MemoryRecords.withEndTransactionMarker(f.time.milliseconds(), producerId, EPOCH,
            new EndTransactionMarker(type, coordinatorEpoch)), 0, AppendOrigin.COORDINATOR);
    }

    private void replicatedToTheEnd() {
        log.maybeIncrementHighWatermark(log.logEndOffsetMetadata());
    }

    /** The data records a read_committed read from {@code from} returns, as the consumer sees them before skipping aborts. */
    private List<Record> readCommitted(long from) {
        List<Record> out = new ArrayList<>();
        FetchDataInfo info = log.read(from, Integer.MAX_VALUE, FetchIsolation.TXN_COMMITTED, true);
        for (RecordBatch batch : info.records().batches()) {
            if (!batch.isControlBatch()) {
                batch.forEach(out::add);
            }
        }
        return out;
    }

    @Test
    void theLastStableOffsetStopsAtTheOldestOpenTransactionAndMovesOnWhenItsMarkerIsReplicated() throws IOException {
        open();
        log.appendAsLeader(records(f.time.milliseconds(), "plain"), 0);  // offset 0
        transactional(PID_A, 0, "a1");                                    // 1: A opens
        transactional(PID_B, 0, "b1");                                    // 2: B opens
        replicatedToTheEnd();
        assertThat(log.highWatermark()).isEqualTo(3);
        assertThat(log.lastStableOffset()).isEqualTo(1);
        assertThat(values(readCommitted(0))).as("read_committed stops at the LSO").containsExactly("plain");

        marker(PID_A, ControlRecordType.COMMIT, COORDINATOR_EPOCH);      // 3: A commits
        assertThat(log.lastStableOffset()).as("the marker is not yet below the high watermark").isEqualTo(1);
        replicatedToTheEnd();
        assertThat(log.lastStableOffset()).as("B's open transaction holds it now").isEqualTo(2);

        marker(PID_B, ControlRecordType.ABORT, COORDINATOR_EPOCH);       // 4: B aborts
        replicatedToTheEnd();
        assertThat(log.lastStableOffset()).isEqualTo(log.highWatermark()).isEqualTo(5);
        assertThat(values(readCommitted(0))).containsExactly("plain", "a1", "b1");
        assertThat(log.collectAbortedTransactions(0, log.lastStableOffset()))
            .as("the consumer is told to skip B's records from offset 2")
            .containsExactly(new AbortedTransaction(PID_B, 2));
        assertThat(log.collectAbortedTransactions(5, log.lastStableOffset()))
            .as("a read after the abort overlaps nothing").isEmpty();
    }

    @Test
    void theTransactionIndexHoldsEachAbortWithTheLastStableOffsetAtItsEnd() throws IOException {
        open();
        transactional(PID_A, 0, "a1");                               // 0
        transactional(PID_B, 0, "b1");                               // 1
        marker(PID_B, ControlRecordType.ABORT, COORDINATOR_EPOCH);  // 2: A still open, so the LSO was 0
        marker(PID_A, ControlRecordType.ABORT, COORDINATOR_EPOCH);  // 3: none open, so 4

        List<TransactionIndex.AbortedTxnEntry> entries = log.activeSegment().txnIndex().all();

        assertThat(entries).containsExactly(
            new TransactionIndex.AbortedTxnEntry(PID_B, 1, 2, 0),
            new TransactionIndex.AbortedTxnEntry(PID_A, 0, 3, 4));
        assertThat(new File(f.dir, "00000000000000000000.txnindex")).as("Kafka's file name").exists()
            .hasSize(2 * 34);
    }

    @Test
    void aCommittedTransactionLeavesNothingToSkipAndNoIndexFile() throws IOException {
        open();
        transactional(PID_A, 0, "a1", "a2");
        marker(PID_A, ControlRecordType.COMMIT, COORDINATOR_EPOCH);
        replicatedToTheEnd();

        assertThat(log.collectAbortedTransactions(0, log.lastStableOffset())).isEmpty();
        assertThat(values(readCommitted(0))).containsExactly("a1", "a2");
        assertThat(new File(f.dir, "00000000000000000000.txnindex")).doesNotExist();
    }

    @Test
    void abortsInEarlierSegmentsAreFoundForAReadThatStartsThere() throws IOException {
        open();
        transactional(PID_A, 0, "a1");                               // 0
        log.roll();
        transactional(PID_B, 0, "b1");                               // 1
        marker(PID_A, ControlRecordType.ABORT, COORDINATOR_EPOCH);  // 2, in the second segment
        log.roll();
        marker(PID_B, ControlRecordType.ABORT, COORDINATOR_EPOCH);  // 3, in the third
        replicatedToTheEnd();

        assertThat(log.collectAbortedTransactions(0, log.lastStableOffset())).containsExactly(
            new AbortedTransaction(PID_A, 0), new AbortedTransaction(PID_B, 1));
        assertThat(log.collectAbortedTransactions(3, log.lastStableOffset())).as("the marker itself is in range")
            .containsExactly(new AbortedTransaction(PID_B, 1));
    }

    @Test
    void aCleanRestartMidTransactionKeepsItOpenAndItsAbortsIndexed() throws IOException {
        open();
        transactional(PID_A, 0, "a1");                               // 0
        marker(PID_A, ControlRecordType.ABORT, COORDINATOR_EPOCH);  // 1
        transactional(PID_B, 0, "b1");                               // 2: B open across the restart
        replicatedToTheEnd();

        log = f.closeAndReload();

        assertThat(log.lastStableOffset()).isEqualTo(2);
        assertThat(log.producerStateManager().lastEntry(PID_B).orElseThrow().currentTxnFirstOffset()).isEqualTo(2);
        assertThat(log.collectAbortedTransactions(0, 2)).containsExactly(new AbortedTransaction(PID_A, 0));
        marker(PID_B, ControlRecordType.COMMIT, COORDINATOR_EPOCH);
        replicatedToTheEnd();
        assertThat(log.lastStableOffset()).isEqualTo(log.logEndOffset());
    }

    @Test
    void aCrashRebuildsOpenTransactionsAndLostIndexEntriesFromTheLog() throws IOException {
        open();
        transactional(PID_A, 0, "a1");                               // 0
        marker(PID_A, ControlRecordType.ABORT, COORDINATOR_EPOCH);  // 1
        transactional(PID_B, 0, "b1");                               // 2
        replicatedToTheEnd();
        long highWatermark = log.highWatermark();
        f.crash();
        // The page cache lost the index entry; no producer snapshot was taken.
        Files.delete(new File(f.dir, "00000000000000000000.txnindex").toPath());

        log = f.reloadUnclean(0, 0, highWatermark);

        assertThat(log.lastStableOffset()).as("B's transaction, found again in the log").isEqualTo(2);
        assertThat(log.collectAbortedTransactions(0, 2)).containsExactly(new AbortedTransaction(PID_A, 0));
    }

    @Test
    void aSegmentRebuiltWithoutItsIndexesGetsBackAbortsOlderThanTheLatestProducerSnapshot() throws IOException {
        open();
        transactional(PID_A, 0, "a1");                               // 0
        marker(PID_A, ControlRecordType.ABORT, COORDINATOR_EPOCH);  // 1
        log.roll();                                                  // producer snapshot at 2
        transactional(PID_B, 0, "b1");                               // 2
        marker(PID_B, ControlRecordType.COMMIT, COORDINATOR_EPOCH); // 3
        log.roll();                                                  // producer snapshot at 4
        replicatedToTheEnd();
        long highWatermark = log.highWatermark();
        log.flush(log.logEndOffset());
        f.crash();
        // Every index file of the first segment is gone: it is rebuilt from its records.
        for (String suffix : List.of(".index", ".timeindex", ".txnindex")) {
            Files.deleteIfExists(new File(f.dir, "00000000000000000000" + suffix).toPath());
        }

        log = f.reloadUnclean(4, 0, highWatermark);

        assertThat(log.collectAbortedTransactions(0, log.lastStableOffset()))
            .as("the abort at offset 1, behind the snapshots at 2 and 4").containsExactly(new AbortedTransaction(PID_A, 0));
        assertThat(readCommitted(0)).extracting(r -> new String(org.apache.kafka.common.utils.Utils.toArray(r.value())))
            .as("the read_committed read still returns a1, for the consumer to skip").containsExactly("a1");
    }

    @Test
    void aTornEntryAtTheEndOfTheIndexIsCutOffOnOpen() throws IOException {
        File file = new File(tmp, "00000000000000000000.txnindex");
        TransactionIndex index = new TransactionIndex(file);
        index.append(new TransactionIndex.AbortedTxnEntry(PID_A, 0, 4, 5));
        index.close();
        Files.write(file.toPath(), new byte[] {0, 0, 1, 2, 3}, java.nio.file.StandardOpenOption.APPEND);

        TransactionIndex reopened = new TransactionIndex(file);

        assertThat(reopened.all()).containsExactly(new TransactionIndex.AbortedTxnEntry(PID_A, 0, 4, 5));
        assertThat(file).hasSize(34);
        reopened.append(new TransactionIndex.AbortedTxnEntry(PID_B, 5, 6, 7));
        reopened.append(new TransactionIndex.AbortedTxnEntry(PID_B, 5, 6, 7)); // a replay: ignored
        assertThat(reopened.all()).hasSize(2);
        reopened.close();
    }

    @Test
    void truncationDropsTheAbortsAndReopensTheTransactionsAboveTheTarget() throws IOException {
        open();
        transactional(PID_A, 0, "a1");                               // 0
        transactional(PID_B, 0, "b1");                               // 1
        marker(PID_A, ControlRecordType.ABORT, COORDINATOR_EPOCH);  // 2
        marker(PID_B, ControlRecordType.COMMIT, COORDINATOR_EPOCH); // 3

        log.truncateTo(2); // a follower diverged: both markers are gone

        assertThat(log.activeSegment().txnIndex().all()).isEmpty();
        assertThat(log.producerStateManager().ongoingTransactions()).extracting(t -> t.producerId())
            .containsExactly(PID_A, PID_B);
        replicatedToTheEnd();
        assertThat(log.lastStableOffset()).isZero();
    }

    @Test
    void aLeaderRefusesADataBatchInsideAnOpenTransactionAndAMarkerOfAnOlderCoordinator() throws IOException {
        open();
        transactional(PID_A, 0, "a1");
        marker(PID_A, ControlRecordType.COMMIT, COORDINATOR_EPOCH);
        transactional(PID_A, 1, "a2");

        assertThatThrownBy(() -> log.appendAsLeader(LogTestSupport.idempotent(PID_A, EPOCH, 2,
            f.time.milliseconds(), "not transactional"), 0)).isInstanceOf(InvalidTxnStateException.class);
        assertThatThrownBy(() -> marker(PID_A, ControlRecordType.ABORT, COORDINATOR_EPOCH - 1))
            .isInstanceOf(TransactionCoordinatorFencedException.class);
        assertThat(log.logEndOffset()).as("nothing refused was written").isEqualTo(3);
    }

    @Test
    void onlyACoordinatorMayWriteMarkers() throws IOException {
        open();
        transactional(PID_A, 0, "a1");
        MemoryRecords forged = MemoryRecords.withEndTransactionMarker(f.time.milliseconds(), PID_A, EPOCH,
            new EndTransactionMarker(ControlRecordType.COMMIT, COORDINATOR_EPOCH));

        assertThatThrownBy(() -> log.appendAsLeader(forged, 0)).isInstanceOf(RecordValidationException.class);
        assertThat(log.producerStateManager().ongoingTransactions()).hasSize(1);
    }

    @Test
    void aProducerWithAnOpenTransactionDoesNotExpire() throws IOException {
        open();
        transactional(PID_A, 0, "a1");
        f.time.sleep(LogTestSupport.PRODUCER_ID_EXPIRATION_MS + 1);

        log.producers().removeExpired();

        assertThat(log.producerStateManager().lastEntry(PID_A)).isPresent();
    }

    @Test
    void activeProducersReportEachOpenTransactionsFirstOffsetAndTheLastMarkersCoordinatorEpoch() throws IOException {
        open();
        log.appendAsLeader(records(f.time.milliseconds(), "plain"), 0);  // 0
        transactional(PID_A, 0, "a1", "a2");                              // 1-2: A opens
        transactional(PID_B, 0, "b1");                                    // 3: B opens
        long appendTimeMs = f.time.milliseconds();
        marker(PID_B, ControlRecordType.COMMIT, COORDINATOR_EPOCH);      // 4: B commits

        assertThat(log.producers().active()).containsExactly(
            new io.tributary.broker.producer.ActiveProducer(PID_A, EPOCH, 1, appendTimeMs, -1, 1),
            new io.tributary.broker.producer.ActiveProducer(PID_B, EPOCH, 0, appendTimeMs, COORDINATOR_EPOCH, -1));
    }

    private LogAppendInfo verifiedTransactional(long producerId, int baseSequence, VerificationGuard guard,
                                                String... values) {
        return log.appendAsLeader(MemoryRecords.withTransactionalRecords(Compression.NONE, producerId, EPOCH,
            baseSequence, simpleRecords(f.time.milliseconds(), values)), 0, AppendOrigin.CLIENT, guard);
    }

    @Test
    void aTransactionOpensOnlyWithTheGuardOfItsVerificationAndContinuesWithoutOne() throws IOException {
        open();
        assertThatThrownBy(() -> verifiedTransactional(PID_A, 0, VerificationGuard.SENTINEL, "unverified"))
            .isInstanceOf(InvalidTxnStateException.class).hasMessageContaining("not part of an ongoing transaction");

        VerificationGuard guard = log.producers().maybeStartTransactionVerification(PID_A, 0, EPOCH);
        assertThat(log.producers().maybeStartTransactionVerification(PID_A, 0, EPOCH))
            .as("a second request of the same transaction joins the verification").isSameAs(guard);
        verifiedTransactional(PID_A, 0, guard, "a1");
        assertThat(log.producers().maybeStartTransactionVerification(PID_A, 1, EPOCH))
            .as("the transaction is open here: nothing to verify").isSameAs(VerificationGuard.SENTINEL);
        verifiedTransactional(PID_A, 1, VerificationGuard.SENTINEL, "a2");

        assertThat(log.logEndOffset()).isEqualTo(2);
        assertThat(log.producerStateManager().ongoingTransactions()).hasSize(1);
    }

    @Test
    void aTransactionalOffsetCommitOpensATransactionOnlyWithTheGuardOfItsVerification() throws IOException {
        open();
        // The group coordinator's batches reuse sequence 0 and carry none to verify (RecordBatch.NO_SEQUENCE).
        java.util.function.BiFunction<VerificationGuard, String, LogAppendInfo> offsetCommit = (guard, value) ->
            log.appendAsLeader(MemoryRecords.withTransactionalRecords(Compression.NONE, PID_A, EPOCH, 0,
                simpleRecords(f.time.milliseconds(), value)), 0, AppendOrigin.COORDINATOR, guard);
        VerificationGuard raced = log.producers().maybeStartTransactionVerification(PID_A,
            org.apache.kafka.common.record.internal.RecordBatch.NO_SEQUENCE, EPOCH);
        marker(PID_A, ControlRecordType.ABORT, COORDINATOR_EPOCH); // the transaction ended meanwhile
        assertThatThrownBy(() -> offsetCommit.apply(raced, "late offsets"))
            .isInstanceOf(InvalidTxnStateException.class);

        VerificationGuard guard = log.producers().maybeStartTransactionVerification(PID_A,
            org.apache.kafka.common.record.internal.RecordBatch.NO_SEQUENCE, EPOCH);
        offsetCommit.apply(guard, "offsets");
        assertThat(log.producers().maybeStartTransactionVerification(PID_A,
            org.apache.kafka.common.record.internal.RecordBatch.NO_SEQUENCE, EPOCH)).isSameAs(VerificationGuard.SENTINEL);
        offsetCommit.apply(VerificationGuard.SENTINEL, "more offsets, same transaction");
        assertThat(log.producerStateManager().ongoingTransactions()).hasSize(1);
        assertThat(log.logEndOffset()).as("the abort marker and the two commits").isEqualTo(3);
    }

    @Test
    void aVerificationThatRacedWithTheEndOfTheTransactionCannotOpenAHangingOne() throws IOException {
        open();
        VerificationGuard first = log.producers().maybeStartTransactionVerification(PID_A, 0, EPOCH);
        verifiedTransactional(PID_A, 0, first, "a1");
        // A retried batch of the same transaction is verified while the transaction is open...
        VerificationGuard stale = log.producers().maybeStartTransactionVerification(PID_A, 1, EPOCH);
        assertThat(stale).isSameAs(VerificationGuard.SENTINEL);
        // ...and its append comes after the abort marker: it may not open a new transaction.
        marker(PID_A, ControlRecordType.ABORT, COORDINATOR_EPOCH);
        assertThatThrownBy(() -> verifiedTransactional(PID_A, 1, stale, "late"))
            .isInstanceOf(InvalidTxnStateException.class);

        // The ABA case: verification started, a marker ends the transaction, the guard is void.
        VerificationGuard raced = log.producers().maybeStartTransactionVerification(PID_A, 1, EPOCH);
        marker(PID_A, ControlRecordType.ABORT, COORDINATOR_EPOCH);
        assertThatThrownBy(() -> verifiedTransactional(PID_A, 1, raced, "late"))
            .isInstanceOf(InvalidTxnStateException.class);

        replicatedToTheEnd();
        assertThat(log.producerStateManager().ongoingTransactions()).isEmpty();
        assertThat(log.lastStableOffset()).as("no hanging transaction holds the LSO").isEqualTo(log.logEndOffset());
    }

    @Test
    void aHigherSequenceWaitingForTheSameVerificationCannotOvertakeTheLowest() throws IOException {
        open();
        VerificationGuard guard = log.producers().maybeStartTransactionVerification(PID_A, 0, EPOCH);
        assertThat(log.producers().maybeStartTransactionVerification(PID_A, 3, EPOCH)).isSameAs(guard);

        assertThatThrownBy(() -> verifiedTransactional(PID_A, 3, guard, "d"))
            .isInstanceOf(org.apache.kafka.common.errors.OutOfOrderSequenceException.class);
        verifiedTransactional(PID_A, 0, guard, "a", "b", "c");
        verifiedTransactional(PID_A, 3, VerificationGuard.SENTINEL, "d");
        assertThat(log.logEndOffset()).isEqualTo(4);
    }

    @Test
    void withoutVerificationATransactionalBatchOpensItsTransactionAsBeforeKip890() throws IOException {
        open();
        verifiedTransactional(PID_A, 0, VerificationGuard.NOT_REQUIRED, "a1");
        assertThat(log.producerStateManager().ongoingTransactions()).hasSize(1);
    }

    @Test
    void anUnfinishedVerificationExpiresWithTheProducerIdExpiration() throws IOException {
        open();
        VerificationGuard abandoned = log.producers().maybeStartTransactionVerification(PID_A, 0, EPOCH);
        f.time.sleep(LogTestSupport.PRODUCER_ID_EXPIRATION_MS);
        log.producers().removeExpired();

        assertThat(log.producers().maybeStartTransactionVerification(PID_A, 0, EPOCH)).isNotSameAs(abandoned);
        assertThatThrownBy(() -> verifiedTransactional(PID_A, 0, abandoned, "a1"))
            .isInstanceOf(InvalidTxnStateException.class);
    }
}
