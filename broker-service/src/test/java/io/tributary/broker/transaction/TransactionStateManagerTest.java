package io.tributary.broker.transaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.coordinator.CoordinatorLog;
import io.tributary.broker.coordinator.InMemoryCoordinatorLog;
import io.tributary.broker.replica.LocalRead;
import io.tributary.broker.replica.ProduceResult;
import io.tributary.broker.testing.MockTime;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The transaction coordinator's state in {@code __transaction_state}: an id's metadata changes only
 * once its record is written, survives a reload by another coordinator, is served only by the
 * partition's loaded leader, and takes one write at a time.
 */
class TransactionStateManagerTest {

    private static final int PARTITIONS = 3;
    private static final String ID = "txn-1";
    private static final TopicPartition A0 = new TopicPartition("a", 0);

    private final MockTime time = new MockTime();
    private final InMemoryCoordinatorLog coordinatorLog = new InMemoryCoordinatorLog();
    private TransactionStateManager manager;
    private TransactionStateManager other;

    @AfterEach
    void shutdown() {
        if (manager != null) {
            manager.shutdown();
        }
        if (other != null) {
            other.shutdown();
        }
    }

    private TransactionStateManager loaded(CoordinatorLog log, int coordinatorEpoch) {
        TransactionStateManager m = new TransactionStateManager(log, PARTITIONS, 5_000, time);
        AtomicReference<List<TransactionMetadata>> loaded = new AtomicReference<>();
        m.loadPartition(m.partitionFor(ID), coordinatorEpoch, loaded::set);
        await().atMost(Duration.ofSeconds(10)).until(() -> loaded.get() != null);
        return m;
    }

    private TransactionMetadata fresh() {
        return TransactionMetadata.initial(ID, 11L, 60_000, time.milliseconds())
            .withEpoch((short) 0, RecordBatch.NO_PRODUCER_EPOCH, 60_000, time.milliseconds());
    }

    @Test
    void aWrittenChangeIsCurrentAndAnotherCoordinatorLoadsIt() {
        manager = loaded(coordinatorLog, 7);
        TransactionMetadata first = fresh();
        assertThat(manager.write(null, first).join()).isEqualTo(Errors.NONE);
        TransactionMetadata ongoing = first.withPartitionsAdded(Set.of(A0), time.milliseconds());
        assertThat(manager.write(first, ongoing).join()).isEqualTo(Errors.NONE);

        assertThat(manager.get(ID)).contains(ongoing);
        assertThat(manager.coordinatorEpoch(ID)).hasValue(7);
        other = loaded(coordinatorLog, 8);
        assertThat(other.get(ID)).as("the new leader reads the latest record").contains(ongoing);
        assertThat(other.all()).containsExactly(ongoing);
    }

    @Test
    void aDeadIdIsWrittenAsATombstoneAndForgotten() {
        manager = loaded(coordinatorLog, 1);
        TransactionMetadata first = fresh();
        manager.write(null, first).join();

        assertThat(manager.write(first, first.withDead(time.milliseconds())).join()).isEqualTo(Errors.NONE);

        assertThat(manager.get(ID)).isEmpty();
        TopicPartition tp = new TopicPartition(Topic.TRANSACTION_STATE_TOPIC_NAME, manager.partitionFor(ID));
        assertThat(coordinatorLog.records(tp)).last().satisfies(r -> assertThat(r.value()).isNull());
        other = loaded(coordinatorLog, 2);
        assertThat(other.get(ID)).isEmpty();
    }

    @Test
    void onlyTheLoadedLeaderOfTheIdsPartitionServesIt() {
        manager = new TransactionStateManager(coordinatorLog, PARTITIONS, 5_000, time);
        assertThat(manager.coordinatorError(ID)).isEqualTo(Errors.NOT_COORDINATOR);
        assertThat(manager.write(null, fresh()).join()).isEqualTo(Errors.NOT_COORDINATOR);

        coordinatorLog.holdReads();
        manager.loadPartition(manager.partitionFor(ID), 3, loaded -> { });
        assertThat(manager.coordinatorError(ID)).isEqualTo(Errors.COORDINATOR_LOAD_IN_PROGRESS);
        coordinatorLog.openReads();
        await().atMost(Duration.ofSeconds(10)).until(() -> manager.coordinatorError(ID) == Errors.NONE);

        manager.unloadPartition(manager.partitionFor(ID));
        assertThat(manager.coordinatorError(ID)).isEqualTo(Errors.NOT_COORDINATOR);
    }

    @Test
    void oneWriteOfAnIdAtATimeAndOnlyFromItsCurrentMetadata() {
        manager = loaded(coordinatorLog, 1);
        TransactionMetadata first = fresh();
        manager.write(null, first).join();
        TransactionMetadata ongoing = first.withPartitionsAdded(Set.of(A0), time.milliseconds());

        coordinatorLog.holdAppends();
        CompletableFuture<Errors> pending = manager.write(first, ongoing);
        assertThat(manager.write(first, ongoing).join()).as("a write is in flight").isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        assertThat(manager.get(ID)).as("not current before it is replicated").contains(first);
        coordinatorLog.releaseAppends();

        assertThat(pending.join()).isEqualTo(Errors.NONE);
        assertThat(manager.get(ID)).contains(ongoing);
        assertThat(manager.write(first, ongoing.withEndPrepared(true, 0)).join())
            .as("made from stale metadata").isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
    }

    @Test
    void aWriteThatLandsAfterResigningDoesNotChangeTheCache() {
        manager = loaded(coordinatorLog, 1);
        TransactionMetadata first = fresh();
        coordinatorLog.holdAppends();
        CompletableFuture<Errors> pending = manager.write(null, first);

        manager.unloadPartition(manager.partitionFor(ID));
        coordinatorLog.releaseAppends();

        assertThat(pending.join()).isEqualTo(Errors.NOT_COORDINATOR);
        assertThat(manager.get(ID)).isEmpty();
    }

    @Test
    void aFailedWriteLeavesTheMetadataAsItWasAndTellsTheClientToRetryElsewhere() {
        CoordinatorLog failing = new CoordinatorLog() {
            @Override
            public CompletableFuture<ProduceResult> append(TopicPartition tp, MemoryRecords records, long timeoutMs,
                                                           io.tributary.broker.producer.VerificationGuard guard) {
                return CompletableFuture.completedFuture(ProduceResult.error(Errors.NOT_ENOUGH_REPLICAS, "ISR too small"));
            }

            @Override
            public LocalRead read(TopicPartition tp, long startOffset, int maxBytes) {
                return coordinatorLog.read(tp, startOffset, maxBytes);
            }
        };
        manager = loaded(failing, 1);

        assertThat(manager.write(null, fresh()).join()).isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE);
        assertThat(manager.get(ID)).isEmpty();
    }
}
