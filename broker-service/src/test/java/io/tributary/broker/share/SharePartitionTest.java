package io.tributary.broker.share;

import static io.tributary.broker.share.ShareTestRecords.batches;
import static io.tributary.broker.share.ShareTestRecords.concat;
import static io.tributary.broker.share.ShareTestRecords.marker;
import static io.tributary.broker.share.ShareTestRecords.transactional;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.testing.MockScheduler;
import io.tributary.broker.testing.MockTime;
import java.util.List;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.coordinator.group.ShareGroupAutoOffsetResetStrategy;
import org.junit.jupiter.api.Test;

class SharePartitionTest {

    private static final int LOCK_MS = 30_000;
    private static final SharePartitionKey KEY = new SharePartitionKey("g",
        new TopicIdPartition(Uuid.randomUuid(), 0, "t"));

    private final MockTime time = new MockTime();
    private final MockScheduler scheduler = new MockScheduler(time);
    private final InMemoryShareStatePersister persister = new InMemoryShareStatePersister();

    private SharePartition partition(int deliveryLimit, int maxLocks, long start) {
        ShareGroupState initial = new ShareGroupState(0, 3, start, List.of());
        persister.initializeState(KEY, initial);
        return new SharePartition(KEY, 3, initial, new SharePartitionConfig(LOCK_MS, deliveryLimit, maxLocks,
            ShareGroupAutoOffsetResetStrategy.LATEST, IsolationLevel.READ_UNCOMMITTED), persister,
            new AcquisitionLockTimer(scheduler), () -> { });
    }

    private SharePartition readCommittedPartition() {
        ShareGroupState initial = new ShareGroupState(0, 3, 0, List.of());
        persister.initializeState(KEY, initial);
        return new SharePartition(KEY, 3, initial, new SharePartitionConfig(LOCK_MS, 5, 200,
            ShareGroupAutoOffsetResetStrategy.LATEST, IsolationLevel.READ_COMMITTED), persister,
            new AcquisitionLockTimer(scheduler), () -> { });
    }

    private SharePartition partition() {
        return partition(5, 200, 0);
    }

    private static List<AcquiredRange> acquire(SharePartition sp, String member, MemoryRecords records, int max) {
        return sp.acquire(member, records.batches(), List.of(), max, false);
    }

    private static Errors ack(SharePartition sp, String member, long first, long last, byte type) {
        return sp.acknowledge(member, List.of(ShareAcknowledgement.of(first, last, type))).join();
    }

    /** The in-memory persister, whose writes fail while {@code failing} is set. */
    private static final class FlakyPersister implements ShareStatePersister {
        private final InMemoryShareStatePersister delegate = new InMemoryShareStatePersister();
        private volatile boolean failing;
        private volatile RuntimeException failure = new org.apache.kafka.common.errors.CoordinatorNotAvailableException("down");

        @Override
        public java.util.concurrent.CompletableFuture<java.util.Optional<ShareGroupState>> readState(SharePartitionKey key) {
            return delegate.readState(key);
        }

        @Override
        public java.util.concurrent.CompletableFuture<Void> initializeState(SharePartitionKey key, ShareGroupState state) {
            return delegate.initializeState(key, state);
        }

        @Override
        public java.util.concurrent.CompletableFuture<Void> writeState(SharePartitionKey key, ShareGroupState state) {
            return failing ? java.util.concurrent.CompletableFuture.failedFuture(failure)
                : delegate.writeState(key, state);
        }

        @Override
        public java.util.concurrent.CompletableFuture<Void> deleteState(SharePartitionKey key) {
            return delegate.deleteState(key);
        }
    }

    @Test
    void aFailedWriteFailsTheAcknowledgementAndChangesNothing() {
        FlakyPersister flaky = new FlakyPersister();
        ShareGroupState initial = new ShareGroupState(0, 3, 0, List.of());
        flaky.initializeState(KEY, initial);
        SharePartition sp = new SharePartition(KEY, 3, initial, new SharePartitionConfig(LOCK_MS, 5, 200,
            ShareGroupAutoOffsetResetStrategy.LATEST, IsolationLevel.READ_UNCOMMITTED), flaky,
            new AcquisitionLockTimer(scheduler), () -> { });
        assertThat(acquire(sp, "m1", batches(0, 4), 10)).containsExactly(new AcquiredRange(0, 3, 1));
        flaky.failing = true;

        assertThat(ack(sp, "m1", 0, 1, ShareAcknowledgement.ACCEPT)).isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE);

        assertThat(sp.startOffset()).as("not advanced").isZero();
        assertThat(sp.stateOf(0)).isEqualTo(RecordState.ACQUIRED);
        assertThat(flaky.delegate.state(KEY).orElseThrow().startOffset()).isZero();
        flaky.failing = false;
        assertThat(ack(sp, "m1", 0, 1, ShareAcknowledgement.ACCEPT)).as("still held: acknowledged again").isEqualTo(Errors.NONE);
        assertThat(sp.startOffset()).isEqualTo(2);
        assertThat(flaky.delegate.state(KEY).orElseThrow().startOffset()).isEqualTo(2);
    }

    @Test
    void aFencedWriteFencesTheSharePartition() {
        FlakyPersister flaky = new FlakyPersister();
        ShareGroupState initial = new ShareGroupState(0, 3, 0, List.of());
        flaky.initializeState(KEY, initial);
        SharePartition sp = new SharePartition(KEY, 3, initial, new SharePartitionConfig(LOCK_MS, 5, 200,
            ShareGroupAutoOffsetResetStrategy.LATEST, IsolationLevel.READ_UNCOMMITTED), flaky,
            new AcquisitionLockTimer(scheduler), () -> { });
        acquire(sp, "m1", batches(0, 4), 10);
        flaky.failing = true;
        flaky.failure = new org.apache.kafka.common.errors.FencedLeaderEpochException("a newer leader read the state");

        assertThat(ack(sp, "m1", 0, 1, ShareAcknowledgement.ACCEPT)).isEqualTo(Errors.FENCED_LEADER_EPOCH);

        assertThat(sp.isFenced()).isTrue();
        assertThat(sp.canAcquire()).isFalse();
        assertThat(ack(sp, "m1", 2, 3, ShareAcknowledgement.ACCEPT)).isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER);
    }

    @Test
    void statesAreWrittenOneAtATimeEachWithTheOnesBefore() {
        List<ShareGroupState> written = new java.util.ArrayList<>();
        List<java.util.concurrent.CompletableFuture<Void>> pending = new java.util.ArrayList<>();
        ShareStatePersister holding = new ShareStatePersister() {
            @Override
            public java.util.concurrent.CompletableFuture<java.util.Optional<ShareGroupState>> readState(SharePartitionKey key) {
                return java.util.concurrent.CompletableFuture.completedFuture(java.util.Optional.empty());
            }

            @Override
            public java.util.concurrent.CompletableFuture<Void> initializeState(SharePartitionKey key, ShareGroupState state) {
                return java.util.concurrent.CompletableFuture.completedFuture(null);
            }

            @Override
            public synchronized java.util.concurrent.CompletableFuture<Void> writeState(SharePartitionKey key,
                                                                                     ShareGroupState state) {
                written.add(state);
                java.util.concurrent.CompletableFuture<Void> write = new java.util.concurrent.CompletableFuture<>();
                pending.add(write);
                return write;
            }

            @Override
            public java.util.concurrent.CompletableFuture<Void> deleteState(SharePartitionKey key) {
                return java.util.concurrent.CompletableFuture.completedFuture(null);
            }
        };
        SharePartition sp = new SharePartition(KEY, 3, new ShareGroupState(0, 3, 0, List.of()), new SharePartitionConfig(
            LOCK_MS, 5, 200, ShareGroupAutoOffsetResetStrategy.LATEST, IsolationLevel.READ_UNCOMMITTED), holding,
            new AcquisitionLockTimer(scheduler), () -> { });
        assertThat(acquire(sp, "m1", batches(0, 2, 2), 2)).containsExactly(new AcquiredRange(0, 1, 1));
        assertThat(acquire(sp, "m2", batches(0, 2, 2), 10)).containsExactly(new AcquiredRange(2, 3, 1));

        var first = sp.acknowledge("m1", List.of(ShareAcknowledgement.of(0, 1, ShareAcknowledgement.ACCEPT)));
        var second = sp.acknowledge("m2", List.of(ShareAcknowledgement.of(2, 3, ShareAcknowledgement.ACCEPT)));
        assertThat(written).as("the second waits for the first").hasSize(1);
        assertThat(written.get(0).startOffset()).isEqualTo(2);

        pending.get(0).complete(null);
        assertThat(first.join()).isEqualTo(Errors.NONE);
        assertThat(written).hasSize(2);
        assertThat(written.get(1).startOffset()).as("taken after the first was applied").isEqualTo(4);
        assertThat(second).isNotDone();

        pending.get(1).complete(null);
        assertThat(second.join()).isEqualTo(Errors.NONE);
        assertThat(sp.startOffset()).isEqualTo(4);
    }

    @Test
    void recordsWhoseAcknowledgementFailedComeBackWhenTheirLockExpires() {
        FlakyPersister flaky = new FlakyPersister();
        ShareGroupState initial = new ShareGroupState(0, 3, 0, List.of());
        flaky.initializeState(KEY, initial);
        SharePartition sp = new SharePartition(KEY, 3, initial, new SharePartitionConfig(LOCK_MS, 5, 200,
            ShareGroupAutoOffsetResetStrategy.LATEST, IsolationLevel.READ_UNCOMMITTED), flaky,
            new AcquisitionLockTimer(scheduler), () -> { });
        acquire(sp, "m1", batches(0, 4), 10);
        flaky.failing = true;
        ack(sp, "m1", 0, 3, ShareAcknowledgement.ACCEPT);
        flaky.failing = false;

        time.sleep(LOCK_MS);
        scheduler.tick();

        assertThat(acquire(sp, "m2", batches(0, 4), 10)).containsExactly(new AcquiredRange(0, 3, 2));
    }

    @Test
    void acquiresWholeBatchesUpToMaxRecordsAndThenNothingMore() {
        SharePartition sp = partition();
        MemoryRecords log = batches(0, 3, 3, 3);

        assertThat(acquire(sp, "m1", log, 4)).containsExactly(new AcquiredRange(0, 5, 1));
        assertThat(sp.stateOf(5)).isEqualTo(RecordState.ACQUIRED);
        assertThat(sp.stateOf(6)).isNull();
        assertThat(sp.nextFetchOffset()).isEqualTo(6);
        assertThat(acquire(sp, "m2", log, 10)).containsExactly(new AcquiredRange(6, 8, 1));
        assertThat(acquire(sp, "m3", log, 10)).isEmpty();
        assertThat(sp.acquiredCount()).isEqualTo(9);
    }

    @Test
    void recordLimitModeCutsTheLastBatch() {
        SharePartition sp = partition();

        assertThat(sp.acquire("m1", batches(0, 5).batches(), List.of(), 2, true)).containsExactly(new AcquiredRange(0, 1, 1));
        assertThat(sp.nextFetchOffset()).isEqualTo(2);
        assertThat(sp.acquire("m2", batches(0, 5).batches(), List.of(), 10, true)).containsExactly(new AcquiredRange(2, 4, 1));
    }

    @Test
    void acceptedRecordsAdvanceTheStartOffsetAndAreWrittenToThePersister() {
        SharePartition sp = partition();
        acquire(sp, "m1", batches(0, 5), 10);

        assertThat(ack(sp, "m1", 0, 2, ShareAcknowledgement.ACCEPT)).isEqualTo(Errors.NONE);

        assertThat(sp.startOffset()).isEqualTo(3);
        assertThat(sp.stateOf(3)).isEqualTo(RecordState.ACQUIRED);
        ShareGroupState stored = persister.state(KEY).orElseThrow();
        assertThat(stored.startOffset()).isEqualTo(3);
        assertThat(stored.leaderEpoch()).isEqualTo(3);
        assertThat(stored.stateBatches()).containsExactly(
            new PersistedStateBatch(3, 4, RecordState.AVAILABLE.id(), (short) 1));
    }

    @Test
    void releasedRecordsAreDeliveredAgainWithAHigherDeliveryCount() {
        SharePartition sp = partition();
        MemoryRecords log = batches(0, 5);
        acquire(sp, "m1", log, 10);

        assertThat(ack(sp, "m1", 1, 2, ShareAcknowledgement.RELEASE)).isEqualTo(Errors.NONE);
        assertThat(sp.stateOf(1)).isEqualTo(RecordState.AVAILABLE);
        assertThat(sp.nextFetchOffset()).isEqualTo(1);

        assertThat(acquire(sp, "m2", log, 10)).containsExactly(new AcquiredRange(1, 2, 2));
        assertThat(sp.deliveryCountOf(1)).isEqualTo(2);
        assertThat(sp.startOffset()).isZero();
    }

    @Test
    void rejectedAndGapRecordsAreArchivedAndNeverDeliveredAgain() {
        SharePartition sp = partition();
        MemoryRecords log = batches(0, 4);
        acquire(sp, "m1", log, 10);

        Errors error = sp.acknowledge("m1", List.of(new ShareAcknowledgement(0, 3, List.of(
            ShareAcknowledgement.REJECT, ShareAcknowledgement.GAP, ShareAcknowledgement.RELEASE,
            ShareAcknowledgement.ACCEPT)))).join();

        assertThat(error).isEqualTo(Errors.NONE);
        assertThat(sp.startOffset()).isEqualTo(2);
        assertThat(sp.stateOf(2)).isEqualTo(RecordState.AVAILABLE);
        assertThat(sp.stateOf(3)).isEqualTo(RecordState.ACKNOWLEDGED);
        assertThat(acquire(sp, "m1", log, 10)).containsExactly(new AcquiredRange(2, 2, 2));
        assertThat(ack(sp, "m1", 2, 2, ShareAcknowledgement.ACCEPT)).isEqualTo(Errors.NONE);
        assertThat(sp.startOffset()).isEqualTo(4);
    }

    @Test
    void anExpiredLockMakesTheRecordsAvailableAgain() {
        SharePartition sp = partition();
        MemoryRecords log = batches(0, 3);
        acquire(sp, "m1", log, 10);

        time.advance(LOCK_MS - 1);
        assertThat(sp.stateOf(0)).isEqualTo(RecordState.ACQUIRED);
        time.advance(1);

        assertThat(sp.stateOf(0)).isEqualTo(RecordState.AVAILABLE);
        assertThat(sp.lockCount()).isZero();
        assertThat(acquire(sp, "m2", log, 10)).containsExactly(new AcquiredRange(0, 2, 2));
        assertThat(ack(sp, "m1", 0, 2, ShareAcknowledgement.ACCEPT)).isEqualTo(Errors.INVALID_RECORD_STATE);
        assertThat(ack(sp, "m2", 0, 2, ShareAcknowledgement.ACCEPT)).isEqualTo(Errors.NONE);
    }

    @Test
    void recordsAreArchivedOnceTheirDeliveryCountReachesTheLimit() {
        SharePartition sp = partition(2, 200, 0);
        MemoryRecords log = batches(0, 2);
        acquire(sp, "m1", log, 10);
        time.advance(LOCK_MS);
        assertThat(acquire(sp, "m1", log, 10)).containsExactly(new AcquiredRange(0, 1, 2));

        time.advance(LOCK_MS);

        assertThat(sp.stateOf(0)).isNull(); // archived, and the start offset moved past it
        assertThat(sp.startOffset()).isEqualTo(2);
        assertThat(acquire(sp, "m1", log, 10)).isEmpty();
    }

    @Test
    void acknowledgingStopsTheLock() {
        SharePartition sp = partition();
        acquire(sp, "m1", batches(0, 3), 10);

        ack(sp, "m1", 0, 2, ShareAcknowledgement.ACCEPT);

        assertThat(sp.lockCount()).isZero();
        assertThat(scheduler.pendingTaskNames()).isEmpty();
    }

    @Test
    void aPartlyAcknowledgedLockKeepsTheRestLocked() {
        SharePartition sp = partition();
        acquire(sp, "m1", batches(0, 4), 10);

        ack(sp, "m1", 0, 1, ShareAcknowledgement.ACCEPT);
        time.advance(LOCK_MS);

        assertThat(sp.stateOf(2)).isEqualTo(RecordState.AVAILABLE);
        assertThat(sp.deliveryCountOf(2)).isEqualTo(1);
        assertThat(sp.startOffset()).isEqualTo(2);
    }

    @Test
    void anotherMemberCannotAcknowledgeRecordsItDidNotAcquire() {
        SharePartition sp = partition();
        acquire(sp, "m1", batches(0, 3), 10);

        assertThat(ack(sp, "m2", 0, 2, ShareAcknowledgement.ACCEPT)).isEqualTo(Errors.INVALID_RECORD_STATE);
        assertThat(ack(sp, "m1", 3, 3, ShareAcknowledgement.ACCEPT)).isEqualTo(Errors.INVALID_RECORD_STATE);
        assertThat(sp.stateOf(0)).isEqualTo(RecordState.ACQUIRED);
        assertThat(ack(sp, "m1", 0, 2, ShareAcknowledgement.ACCEPT)).isEqualTo(Errors.NONE);
        assertThat(ack(sp, "m1", 0, 2, ShareAcknowledgement.ACCEPT)).isEqualTo(Errors.INVALID_RECORD_STATE);
    }

    @Test
    void malformedAcknowledgementsAreInvalidRequests() {
        SharePartition sp = partition();
        acquire(sp, "m1", batches(0, 3), 10);

        assertThat(ack(sp, "m1", 2, 1, ShareAcknowledgement.ACCEPT)).isEqualTo(Errors.INVALID_REQUEST);
        assertThat(ack(sp, "m1", 0, 2, (byte) 9)).isEqualTo(Errors.INVALID_REQUEST);
        assertThat(sp.acknowledge("m1", List.of(new ShareAcknowledgement(0, 2,
            List.of(ShareAcknowledgement.ACCEPT, ShareAcknowledgement.ACCEPT)))).join()).isEqualTo(Errors.INVALID_REQUEST);
        assertThat(sp.acquiredCount()).isEqualTo(3);
    }

    @Test
    void theInFlightWindowStopsAtMaxRecordLocks() {
        SharePartition sp = partition(5, 4, 0);
        MemoryRecords log = batches(0, 3, 3);

        assertThat(acquire(sp, "m1", log, 100)).containsExactly(new AcquiredRange(0, 3, 1));
        assertThat(sp.canAcquire()).isFalse();
        assertThat(acquire(sp, "m2", log, 100)).isEmpty();

        ack(sp, "m1", 0, 1, ShareAcknowledgement.ACCEPT);

        assertThat(sp.canAcquire()).isTrue();
        assertThat(acquire(sp, "m2", log, 100)).containsExactly(new AcquiredRange(4, 5, 1));
    }

    @Test
    void releasingAMemberMakesItsRecordsAvailable() {
        SharePartition sp = partition();
        MemoryRecords log = batches(0, 2, 2);
        acquire(sp, "m1", batches(0, 2), 10);
        acquire(sp, "m2", log, 10);

        sp.releaseMember("m1").join();

        assertThat(sp.stateOf(0)).isEqualTo(RecordState.AVAILABLE);
        assertThat(sp.stateOf(2)).isEqualTo(RecordState.ACQUIRED);
        assertThat(sp.lockCount()).isEqualTo(1);
    }

    @Test
    void recordsBeforeTheStartOffsetAreNotAcquired() {
        SharePartition sp = partition(5, 200, 4);

        assertThat(acquire(sp, "m1", batches(0, 3, 3), 100)).containsExactly(new AcquiredRange(4, 5, 1));
    }

    @Test
    void aFencedPartitionAcquiresNothingAndRefusesAcknowledgements() {
        SharePartition sp = partition();
        acquire(sp, "m1", batches(0, 2), 10);

        sp.fence();

        assertThat(scheduler.pendingTaskNames()).isEmpty();
        assertThat(acquire(sp, "m1", batches(0, 4), 10)).isEmpty();
        assertThat(ack(sp, "m1", 0, 1, ShareAcknowledgement.ACCEPT)).isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER);
    }

    @Test
    void aPersistedStateIsResumedWithAcquiredRecordsAvailableAgain() {
        ShareGroupState stored = new ShareGroupState(2, 1, 10, List.of(
            new PersistedStateBatch(10, 11, RecordState.ACKNOWLEDGED.id(), (short) 1),
            new PersistedStateBatch(12, 13, RecordState.ACQUIRED.id(), (short) 2),
            new PersistedStateBatch(16, 16, RecordState.ARCHIVED.id(), (short) 1)));

        SharePartition sp = new SharePartition(KEY, 3, stored, new SharePartitionConfig(LOCK_MS, 5, 200,
            ShareGroupAutoOffsetResetStrategy.LATEST, IsolationLevel.READ_UNCOMMITTED), persister,
            new AcquisitionLockTimer(scheduler), () -> { });

        assertThat(sp.startOffset()).isEqualTo(12);
        assertThat(sp.endOffset()).isEqualTo(17);
        assertThat(acquire(sp, "m1", batches(10, 8), 100)).containsExactly(
            new AcquiredRange(12, 13, 3), new AcquiredRange(14, 15, 1), new AcquiredRange(17, 17, 1));
    }

    @Test
    void renewRestartsTheLock() {
        SharePartition sp = partition();
        acquire(sp, "m1", batches(0, 2), 10);
        time.advance(LOCK_MS - 10);

        assertThat(ack(sp, "m1", 0, 1, ShareAcknowledgement.RENEW)).isEqualTo(Errors.NONE);
        time.advance(20);

        assertThat(sp.stateOf(0)).isEqualTo(RecordState.ACQUIRED);
        time.advance(LOCK_MS);
        assertThat(sp.stateOf(0)).isEqualTo(RecordState.AVAILABLE);
    }

    @Test
    void controlBatchesAreArchivedNotDelivered() {
        SharePartition sp = partition();
        MemoryRecords log = concat(transactional(0, 5, 2), marker(2, 5, true), batches(3, 2));

        assertThat(acquire(sp, "m1", log, 100)).containsExactly(new AcquiredRange(0, 1, 1), new AcquiredRange(3, 4, 1));
        assertThat(sp.stateOf(2)).isEqualTo(RecordState.ARCHIVED);

        ack(sp, "m1", 0, 1, ShareAcknowledgement.ACCEPT);
        assertThat(sp.startOffset()).as("past the marker").isEqualTo(3);
    }

    @Test
    void readCommittedArchivesTheRecordsOfAbortedTransactions() {
        SharePartition sp = readCommittedPartition();
        MemoryRecords log = concat(transactional(0, 5, 2), marker(2, 5, false), transactional(3, 6, 2),
            marker(5, 6, true), transactional(6, 5, 1), marker(7, 5, true));
        List<FetchResponseData.AbortedTransaction> aborted = List.of(
            new FetchResponseData.AbortedTransaction().setProducerId(5).setFirstOffset(0));

        List<AcquiredRange> acquired = sp.acquire("m1", log.batches(), aborted, 100, false);

        assertThat(acquired).as("producer 5's later, committed transaction is delivered")
            .containsExactly(new AcquiredRange(3, 4, 1), new AcquiredRange(6, 6, 1));
        assertThat(sp.startOffset()).isEqualTo(3);
        assertThat(sp.stateOf(5)).isEqualTo(RecordState.ARCHIVED);
    }

    @Test
    void readUncommittedDeliversAbortedRecordsToo() {
        SharePartition sp = partition();
        MemoryRecords log = concat(transactional(0, 5, 2), marker(2, 5, false));

        assertThat(sp.acquire("m1", log.batches(), List.of(new FetchResponseData.AbortedTransaction()
            .setProducerId(5).setFirstOffset(0)), 100, false)).containsExactly(new AcquiredRange(0, 1, 1));
    }
}
