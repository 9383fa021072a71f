package io.tributary.broker.share.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.coordinator.CoordinatorLog;
import io.tributary.broker.coordinator.InMemoryCoordinatorLog;
import io.tributary.broker.producer.VerificationGuard;
import io.tributary.broker.replica.LocalRead;
import io.tributary.broker.replica.ProduceResult;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import io.tributary.broker.testing.MockTime;
import org.apache.kafka.server.share.persister.PersisterStateBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ShareCoordinatorTest {

    private static final int PARTITIONS = 3;
    private static final ShareStateKey KEY = new ShareStateKey("g", Uuid.randomUuid(), 0);
    private static final byte ACKNOWLEDGED = 2;

    private final InMemoryCoordinatorLog log = new InMemoryCoordinatorLog();
    private final MockTime time = new MockTime();
    private ShareCoordinator coordinator = newCoordinator(log);

    private ShareCoordinator newCoordinator(CoordinatorLog coordinatorLog) {
        return new ShareCoordinator(new ShareCoordinator.Settings(PARTITIONS, 2, 1000), coordinatorLog, time, "test");
    }

    private TopicPartition statePartition() {
        return new TopicPartition(Topic.SHARE_GROUP_STATE_TOPIC_NAME, coordinator.partitionFor(KEY));
    }

    private void electAndAwaitLoad(ShareCoordinator c, int epoch) {
        c.onBecomeLeader(statePartition(), epoch);
        await().atMost(Duration.ofSeconds(10)).until(() -> c.read(KEY, -1).get().error() == Errors.NONE);
    }

    @AfterEach
    void close() {
        coordinator.close();
    }

    @Test
    void notCoordinatorUntilLeaderOfTheStatePartition() throws Exception {
        assertThat(coordinator.read(KEY, 0).get(5, TimeUnit.SECONDS).error()).isEqualTo(Errors.NOT_COORDINATOR);
        assertThat(coordinator.write(KEY, 0, 0, 0, -1, List.of()).get(5, TimeUnit.SECONDS))
            .isEqualTo(Errors.NOT_COORDINATOR);
        coordinator.onBecomeLeader(new TopicPartition("other", coordinator.partitionFor(KEY)), 0);
        assertThat(coordinator.read(KEY, 0).get(5, TimeUnit.SECONDS).error()).isEqualTo(Errors.NOT_COORDINATOR);
    }

    @Test
    void loadInProgressWhileThePartitionIsReplayed() throws Exception {
        log.holdReads();
        coordinator.onBecomeLeader(statePartition(), 0);
        assertThat(coordinator.read(KEY, 0).get(5, TimeUnit.SECONDS).error()).isEqualTo(Errors.COORDINATOR_LOAD_IN_PROGRESS);
        assertThat(coordinator.initialize(KEY, 0, 0).get(5, TimeUnit.SECONDS))
            .isEqualTo(Errors.COORDINATOR_LOAD_IN_PROGRESS);
        log.openReads();
        await().atMost(Duration.ofSeconds(10)).until(() -> coordinator.read(KEY, -1).get().error() == Errors.NONE);
    }

    @Test
    void stateSurvivesANewCoordinatorReplayingTheLog() throws Exception {
        electAndAwaitLoad(coordinator, 0);
        assertThat(coordinator.read(KEY, 0).get(5, TimeUnit.SECONDS).state()).isEmpty();
        assertThat(coordinator.initialize(KEY, 0, 5).get(5, TimeUnit.SECONDS)).isEqualTo(Errors.NONE);
        for (int i = 0; i < 5; i++) {
            assertThat(coordinator.write(KEY, 0, 0, 5 + i, -1,
                List.of(new PersisterStateBatch(5 + i, 20, ACKNOWLEDGED, (short) 1))).get(5, TimeUnit.SECONDS))
                .isEqualTo(Errors.NONE);
        }
        var before = coordinator.read(KEY, -1).get(5, TimeUnit.SECONDS).state().orElseThrow();
        assertThat(before.startOffset()).isEqualTo(9);
        coordinator.close();

        coordinator = newCoordinator(log);
        electAndAwaitLoad(coordinator, 1);
        assertThat(coordinator.read(KEY, -1).get(5, TimeUnit.SECONDS).state()).contains(before);
    }

    @Test
    void writesOfOneSharePartitionApplyInOrder() throws Exception {
        electAndAwaitLoad(coordinator, 0);
        coordinator.initialize(KEY, 0, 0).get(5, TimeUnit.SECONDS);
        log.holdAppends();
        List<CompletableFuture<Errors>> writes = new java.util.ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            writes.add(coordinator.write(KEY, 0, 0, i, -1, List.of()));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> log.records(statePartition()).size() >= 2);
        log.releaseAppends();
        await().atMost(Duration.ofSeconds(10)).until(() -> writes.stream().allMatch(CompletableFuture::isDone));
        for (CompletableFuture<Errors> write : writes) {
            assertThat(write.get()).isEqualTo(Errors.NONE);
        }
        assertThat(coordinator.read(KEY, -1).get(5, TimeUnit.SECONDS).state().orElseThrow().startOffset()).isEqualTo(4);
    }

    @Test
    void aResignedCoordinatorAnswersNotCoordinator() throws Exception {
        electAndAwaitLoad(coordinator, 0);
        coordinator.onResign(statePartition());
        assertThat(coordinator.read(KEY, 0).get(5, TimeUnit.SECONDS).error()).isEqualTo(Errors.NOT_COORDINATOR);
    }

    @Test
    void aFailedAppendLeavesTheStateAsItWas() throws Exception {
        FailingLog failing = new FailingLog(log);
        coordinator.close();
        coordinator = newCoordinator(failing);
        electAndAwaitLoad(coordinator, 0);
        coordinator.initialize(KEY, 0, 0).get(5, TimeUnit.SECONDS);
        failing.error = Errors.NOT_ENOUGH_REPLICAS;

        assertThat(coordinator.write(KEY, 0, 0, 7, -1, List.of()).get(5, TimeUnit.SECONDS))
            .isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE);

        assertThat(coordinator.read(KEY, -1).get(5, TimeUnit.SECONDS).state().orElseThrow().startOffset()).isZero();
    }

    @Test
    void epochsAreFenced() throws Exception {
        electAndAwaitLoad(coordinator, 0);
        coordinator.initialize(KEY, 1, 0).get(5, TimeUnit.SECONDS);
        assertThat(coordinator.read(KEY, 3).get(5, TimeUnit.SECONDS).error()).isEqualTo(Errors.NONE);
        assertThat(coordinator.write(KEY, 1, 2, 0, -1, List.of()).get(5, TimeUnit.SECONDS))
            .isEqualTo(Errors.FENCED_LEADER_EPOCH);
        assertThat(coordinator.write(KEY, 0, 3, 0, -1, List.of()).get(5, TimeUnit.SECONDS))
            .isEqualTo(Errors.FENCED_STATE_EPOCH);
        assertThat(coordinator.initialize(KEY, 0, 0).get(5, TimeUnit.SECONDS)).isEqualTo(Errors.FENCED_STATE_EPOCH);
    }

    @Test
    void deleteRemovesTheState() throws Exception {
        electAndAwaitLoad(coordinator, 0);
        coordinator.initialize(KEY, 0, 3).get(5, TimeUnit.SECONDS);
        assertThat(coordinator.delete(KEY).get(5, TimeUnit.SECONDS)).isEqualTo(Errors.NONE);
        assertThat(coordinator.read(KEY, -1).get(5, TimeUnit.SECONDS).state()).isEmpty();
        coordinator.close();
        coordinator = newCoordinator(log);
        electAndAwaitLoad(coordinator, 1);
        assertThat(coordinator.read(KEY, -1).get(5, TimeUnit.SECONDS).state()).isEmpty();
    }

    /** A log whose appends fail with {@link #error} once it is set. */
    private static final class FailingLog implements CoordinatorLog {
        private final CoordinatorLog delegate;
        private volatile Errors error = Errors.NONE;

        private FailingLog(CoordinatorLog delegate) {
            this.delegate = delegate;
        }

        @Override
        public CompletableFuture<ProduceResult> append(TopicPartition tp, MemoryRecords records, long timeoutMs,
                                                       VerificationGuard verificationGuard) {
            if (error != Errors.NONE) {
                return CompletableFuture.completedFuture(new ProduceResult(error, null, -1, RecordBatch.NO_TIMESTAMP, 0,
                    List.of(), -1));
            }
            return delegate.append(tp, records, timeoutMs, verificationGuard);
        }

        @Override
        public LocalRead read(TopicPartition tp, long startOffset, int maxBytes) {
            return delegate.read(tp, startOffset, maxBytes);
        }
    }
}
