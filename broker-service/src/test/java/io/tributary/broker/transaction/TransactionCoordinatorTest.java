package io.tributary.broker.transaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.coordinator.InMemoryCoordinatorLog;
import io.tributary.broker.testing.MockTime;
import io.tributary.broker.transaction.TransactionCoordinator.InitProducerIdResult;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.coordinator.transaction.TransactionState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The transaction coordinator's answers (KIP-98, KIP-360), over an in-memory
 * {@code __transaction_state} and a marker writer that records what it is asked to write: a
 * transaction from InitProducerId to its markers, retries, zombie fencing, timeouts, and a new
 * coordinator finishing what the old one left.
 */
class TransactionCoordinatorTest {

    private static final String ID = "orders-app";
    private static final int MAX_TIMEOUT_MS = 900_000;
    private static final int COORDINATOR_EPOCH = 4;
    private static final TopicPartition A0 = new TopicPartition("a", 0);
    private static final TopicPartition B1 = new TopicPartition("b", 1);

    /** One call to write markers, and the future the test completes. */
    record MarkerCall(long producerId, short producerEpoch, int coordinatorEpoch, boolean commit,
                      Set<TopicPartition> partitions, CompletableFuture<Void> written) {
    }

    private final MockTime time = new MockTime();
    private final InMemoryCoordinatorLog coordinatorLog = new InMemoryCoordinatorLog();
    private final List<MarkerCall> markerCalls = new CopyOnWriteArrayList<>();
    private final AtomicLong nextProducerId = new AtomicLong(1000);
    private boolean markersWrittenAtOnce = true;
    private final List<TransactionStateManager> managers = new CopyOnWriteArrayList<>();

    private final TransactionMarkerWriter markers = (producerId, epoch, coordinatorEpoch, commit, partitions, current) -> {
        CompletableFuture<Void> written = new CompletableFuture<>();
        markerCalls.add(new MarkerCall(producerId, epoch, coordinatorEpoch, commit, partitions, written));
        if (markersWrittenAtOnce) {
            written.complete(null);
        }
        return written;
    };

    @AfterEach
    void shutdown() {
        managers.forEach(TransactionStateManager::shutdown);
    }

    private TransactionStateManager manager;

    /** A coordinator that leads the id's partition in {@code coordinatorEpoch}, loaded. */
    private TransactionCoordinator coordinator(int coordinatorEpoch) {
        manager = new TransactionStateManager(coordinatorLog, 3, 5_000, time);
        managers.add(manager);
        TransactionCoordinator coordinator = new TransactionCoordinator(manager, markers,
            nextProducerId::getAndIncrement, MAX_TIMEOUT_MS, time);
        coordinator.onElection(manager.partitionFor(ID), coordinatorEpoch);
        TransactionStateManager loading = manager;
        await().atMost(Duration.ofSeconds(10)).until(() -> loading.coordinatorError(ID) == Errors.NONE);
        return coordinator;
    }

    private TransactionState state() {
        return manager.get(ID).orElseThrow().state();
    }

    private static InitProducerIdResult init(TransactionCoordinator c, int timeoutMs) {
        return c.initProducerId(ID, timeoutMs, RecordBatch.NO_PRODUCER_ID, RecordBatch.NO_PRODUCER_EPOCH).join();
    }

    @Test
    void aTransactionRunsFromInitProducerIdToItsCommitMarkers() {
        TransactionCoordinator c = coordinator(COORDINATOR_EPOCH);

        InitProducerIdResult producer = init(c, 60_000);
        assertThat(producer).isEqualTo(new InitProducerIdResult(Errors.NONE, 1000, (short) 0));
        assertThat(c.addPartitions(ID, 1000, (short) 0, Set.of(A0)).join()).isEqualTo(Errors.NONE);
        assertThat(c.addPartitions(ID, 1000, (short) 0, Set.of(A0, B1)).join()).isEqualTo(Errors.NONE);
        assertThat(state()).isEqualTo(TransactionState.ONGOING);

        assertThat(c.endTransaction(ID, 1000, (short) 0, true).join()).isEqualTo(Errors.NONE);

        assertThat(markerCalls).singleElement().satisfies(call -> {
            assertThat(call.producerId()).isEqualTo(1000);
            assertThat(call.producerEpoch()).isZero();
            assertThat(call.coordinatorEpoch()).isEqualTo(COORDINATOR_EPOCH);
            assertThat(call.commit()).isTrue();
            assertThat(call.partitions()).containsExactlyInAnyOrder(A0, B1);
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> state() == TransactionState.COMPLETE_COMMIT);
        assertThat(c.endTransaction(ID, 1000, (short) 0, true).join()).as("a retried commit").isEqualTo(Errors.NONE);
        assertThat(c.endTransaction(ID, 1000, (short) 0, false).join()).isEqualTo(Errors.INVALID_TXN_STATE);
        assertThat(c.addPartitions(ID, 1000, (short) 0, Set.of(A0)).join()).as("the next transaction")
            .isEqualTo(Errors.NONE);
    }

    @Test
    void whileTheMarkersAreWrittenTheTransactionTakesNoOtherStep() {
        TransactionCoordinator c = coordinator(COORDINATOR_EPOCH);
        init(c, 60_000);
        c.addPartitions(ID, 1000, (short) 0, Set.of(A0)).join();
        markersWrittenAtOnce = false;

        assertThat(c.endTransaction(ID, 1000, (short) 0, true).join()).as("decided once PrepareCommit is written")
            .isEqualTo(Errors.NONE);
        assertThat(state()).isEqualTo(TransactionState.PREPARE_COMMIT);
        assertThat(c.endTransaction(ID, 1000, (short) 0, true).join()).isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        assertThat(c.endTransaction(ID, 1000, (short) 0, false).join()).isEqualTo(Errors.INVALID_TXN_STATE);
        assertThat(c.addPartitions(ID, 1000, (short) 0, Set.of(B1)).join()).isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        assertThat(init(c, 60_000).error()).isEqualTo(Errors.CONCURRENT_TRANSACTIONS);

        markerCalls.get(0).written().complete(null);
        await().atMost(Duration.ofSeconds(10)).until(() -> state() == TransactionState.COMPLETE_COMMIT);
    }

    @Test
    void aNewInstanceFencesTheZombieAndAbortsItsTransaction() {
        TransactionCoordinator c = coordinator(COORDINATOR_EPOCH);
        init(c, 60_000);
        c.addPartitions(ID, 1000, (short) 0, Set.of(A0, B1)).join();

        assertThat(init(c, 60_000).error()).as("the open transaction is aborted first")
            .isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        assertThat(markerCalls).singleElement().satisfies(call -> {
            assertThat(call.commit()).isFalse();
            assertThat(call.producerEpoch()).as("the abort carries the fencing epoch").isEqualTo((short) 1);
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> state() == TransactionState.COMPLETE_ABORT);

        assertThat(init(c, 60_000)).as("the retry gets the epoch bumped a second time")
            .isEqualTo(new InitProducerIdResult(Errors.NONE, 1000, (short) 2));
        assertThat(c.endTransaction(ID, 1000, (short) 0, true).join()).isEqualTo(Errors.PRODUCER_FENCED);
        assertThat(c.addPartitions(ID, 1000, (short) 0, Set.of(A0)).join()).isEqualTo(Errors.PRODUCER_FENCED);
        assertThat(c.addPartitions(ID, 999, (short) 2, Set.of(A0)).join()).isEqualTo(Errors.INVALID_PRODUCER_ID_MAPPING);
    }

    @Test
    void aTransactionPastItsTimeoutIsAbortedAndItsProducerFenced() {
        TransactionCoordinator c = coordinator(COORDINATOR_EPOCH);
        init(c, 10_000);
        c.addPartitions(ID, 1000, (short) 0, Set.of(A0)).join();
        time.sleep(5_000);
        assertThat(c.abortTimedOutTransactions()).isEmpty();

        time.sleep(5_001);
        assertThat(c.abortTimedOutTransactions()).containsExactly(ID);

        await().atMost(Duration.ofSeconds(10)).until(() -> state() == TransactionState.COMPLETE_ABORT);
        assertThat(markerCalls).singleElement().satisfies(call -> assertThat(call.commit()).isFalse());
        assertThat(c.endTransaction(ID, 1000, (short) 0, true).join()).isEqualTo(Errors.PRODUCER_FENCED);
    }

    @Test
    void aNewCoordinatorFinishesATransactionItsPredecessorLeftEnding() {
        TransactionCoordinator old = coordinator(COORDINATOR_EPOCH);
        init(old, 60_000);
        old.addPartitions(ID, 1000, (short) 0, Set.of(A0)).join();
        markersWrittenAtOnce = false;
        old.endTransaction(ID, 1000, (short) 0, true).join();
        old.onResignation(manager.partitionFor(ID)); // the old coordinator stops before its markers are written
        markersWrittenAtOnce = true;

        coordinator(COORDINATOR_EPOCH + 1);

        await().atMost(Duration.ofSeconds(10)).until(() -> manager.get(ID).map(TransactionMetadata::state)
            .orElse(null) == TransactionState.COMPLETE_COMMIT);
        assertThat(markerCalls).hasSize(2);
        assertThat(markerCalls.get(1).coordinatorEpoch()).as("the new coordinator's epoch")
            .isEqualTo(COORDINATOR_EPOCH + 1);
        assertThat(markerCalls.get(1).commit()).isTrue();
    }

    @Test
    void requestsAreCheckedAsKafkaChecksThem() {
        TransactionCoordinator c = coordinator(COORDINATOR_EPOCH);

        assertThat(init(c, MAX_TIMEOUT_MS + 1).error()).isEqualTo(Errors.INVALID_TRANSACTION_TIMEOUT);
        assertThat(c.initProducerId("", 60_000, -1, (short) -1).join().error()).isEqualTo(Errors.INVALID_REQUEST);
        assertThat(c.endTransaction(ID, 1000, (short) 0, true).join()).as("an id never initialized")
            .isEqualTo(Errors.INVALID_PRODUCER_ID_MAPPING);
        init(c, 60_000);
        assertThat(c.endTransaction(ID, 1000, (short) 0, true).join()).as("no transaction is open")
            .isEqualTo(Errors.INVALID_TXN_STATE);
        c.onResignation(manager.partitionFor(ID));
        assertThat(init(c, 60_000).error()).isEqualTo(Errors.NOT_COORDINATOR);
    }

    @Test
    void aProducerRecoveringItsEpochIsBumpedOnceAndARetryGetsTheSameAnswer() {
        TransactionCoordinator c = coordinator(COORDINATOR_EPOCH);
        init(c, 60_000);

        InitProducerIdResult bumped = c.initProducerId(ID, 60_000, 1000, (short) 0).join();
        InitProducerIdResult retried = c.initProducerId(ID, 60_000, 1000, (short) 0).join();

        assertThat(bumped).isEqualTo(new InitProducerIdResult(Errors.NONE, 1000, (short) 1));
        assertThat(retried).as("its answer was lost: the same epoch again (KIP-360)").isEqualTo(bumped);
        assertThat(c.initProducerId(ID, 60_000, 1000, (short) 7).join().error()).isEqualTo(Errors.PRODUCER_FENCED);
        assertThat(c.initProducerId(ID, 60_000, 555, (short) 1).join().error()).isEqualTo(Errors.PRODUCER_FENCED);
    }

    @Test
    void anExhaustedEpochMovesTheIdToANewProducerId() {
        TransactionCoordinator c = coordinator(COORDINATOR_EPOCH);
        init(c, 60_000);
        TransactionMetadata current = manager.get(ID).orElseThrow();
        manager.write(current, current.withEpoch((short) (Short.MAX_VALUE - 1), (short) 0, 60_000, 0)).join();

        InitProducerIdResult next = init(c, 60_000);

        assertThat(next).isEqualTo(new InitProducerIdResult(Errors.NONE, 1001, (short) 0));
        assertThat(manager.get(ID).orElseThrow().previousProducerId()).isEqualTo(1000);
    }

    @Test
    void anIdUnusedPastTheExpirationIsRemovedAndComesBackWithANewProducerId() {
        long expirationMs = 604_800_000L;
        TransactionCoordinator c = coordinator(COORDINATOR_EPOCH);
        init(c, 60_000);
        c.addPartitions(ID, 1000, (short) 0, Set.of(A0)).join();
        c.endTransaction(ID, 1000, (short) 0, true).join();
        await().atMost(Duration.ofSeconds(10)).until(() -> state() == TransactionState.COMPLETE_COMMIT);
        String open = java.util.stream.IntStream.range(0, 100).mapToObj(i -> "still-open-" + i)
            .filter(id -> manager.partitionFor(id) == manager.partitionFor(ID)).findFirst().orElseThrow();
        assertThat(c.initProducerId(open, 60_000, -1, (short) -1).join().error()).isEqualTo(Errors.NONE);
        long openProducerId = manager.get(open).orElseThrow().producerId();
        c.addPartitions(open, openProducerId, (short) 0, Set.of(B1)).join();

        time.sleep(expirationMs - 1);
        assertThat(c.expireTransactionalIds(expirationMs)).as("one ms before its expiration").isEmpty();
        time.sleep(1);
        assertThat(c.expireTransactionalIds(expirationMs)).as("an open transaction keeps its id").containsExactly(ID);

        await().atMost(Duration.ofSeconds(10)).until(() -> manager.get(ID).isEmpty());
        assertThat(manager.get(open)).isPresent();
        assertThat(c.describe(ID).error()).isEqualTo(Errors.TRANSACTIONAL_ID_NOT_FOUND);
        c.onResignation(manager.partitionFor(ID));
        TransactionCoordinator next = coordinator(COORDINATOR_EPOCH + 1);
        assertThat(manager.get(ID)).as("the tombstone in __transaction_state removes it for the next coordinator too")
            .isEmpty();
        assertThat(init(next, 60_000)).isEqualTo(new InitProducerIdResult(Errors.NONE, 1002, (short) 0));
    }

    @Test
    void verificationAnswersWhetherEachPartitionIsInTheOngoingTransaction() {
        TransactionCoordinator c = coordinator(COORDINATOR_EPOCH);
        assertThat(c.verifyPartitions(ID, 1000, (short) 0, List.of(A0))).as("an id never initialized")
            .containsExactly(java.util.Map.entry(A0, Errors.INVALID_PRODUCER_ID_MAPPING));
        init(c, 60_000);
        c.addPartitions(ID, 1000, (short) 0, Set.of(A0)).join();

        assertThat(c.verifyPartitions(ID, 1000, (short) 0, List.of(A0, B1))).containsExactly(
            java.util.Map.entry(A0, Errors.NONE), java.util.Map.entry(B1, Errors.TRANSACTION_ABORTABLE));
        assertThat(c.verifyPartitions(ID, 1000, (short) 1, List.of(A0))).containsEntry(A0, Errors.PRODUCER_FENCED);
        assertThat(c.verifyPartitions(ID, 999, (short) 0, List.of(A0))).containsEntry(A0, Errors.INVALID_PRODUCER_ID_MAPPING);
        assertThat(c.verifyPartitions("", 1000, (short) 0, List.of(A0))).containsEntry(A0, Errors.INVALID_REQUEST);

        coordinatorLog.holdAppends();
        CompletableFuture<Errors> adding = c.addPartitions(ID, 1000, (short) 0, Set.of(B1));
        assertThat(c.verifyPartitions(ID, 1000, (short) 0, List.of(A0))).as("while a change of the id is written")
            .containsEntry(A0, Errors.CONCURRENT_TRANSACTIONS);
        coordinatorLog.releaseAppends();
        assertThat(adding.join()).isEqualTo(Errors.NONE);
        assertThat(c.verifyPartitions(ID, 1000, (short) 0, List.of(B1))).containsEntry(B1, Errors.NONE);

        markersWrittenAtOnce = false;
        c.endTransaction(ID, 1000, (short) 0, true).join();
        assertThat(c.verifyPartitions(ID, 1000, (short) 0, List.of(A0))).as("while its markers are written")
            .containsEntry(A0, Errors.CONCURRENT_TRANSACTIONS);
        markerCalls.get(0).written().complete(null);
        await().atMost(Duration.ofSeconds(10)).until(() -> state() == TransactionState.COMPLETE_COMMIT);
        assertThat(c.verifyPartitions(ID, 1000, (short) 0, List.of(A0))).as("the transaction ended")
            .containsEntry(A0, Errors.TRANSACTION_ABORTABLE);
        c.onResignation(manager.partitionFor(ID));
        assertThat(c.verifyPartitions(ID, 1000, (short) 0, List.of(A0))).containsEntry(A0, Errors.NOT_COORDINATOR);
    }
}
