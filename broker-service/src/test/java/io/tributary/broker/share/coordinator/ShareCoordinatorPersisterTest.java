package io.tributary.broker.share.coordinator;

import io.tributary.broker.replica.InterBrokerSender;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.coordinator.InMemoryCoordinatorLog;
import io.tributary.broker.share.PersistedStateBatch;
import io.tributary.broker.share.ShareGroupState;
import io.tributary.broker.share.SharePartitionKey;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.CoordinatorNotAvailableException;
import org.apache.kafka.common.errors.FencedLeaderEpochException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ShareCoordinatorPersisterTest {

    private static final SharePartitionKey KEY = new SharePartitionKey("g", new TopicIdPartition(Uuid.randomUuid(), 0, "t"));
    private static final byte ACKNOWLEDGED = 2;

    private final InMemoryCoordinatorLog log = new InMemoryCoordinatorLog();
    private final ShareCoordinator coordinator = new ShareCoordinator(new ShareCoordinator.Settings(3, 2, 1000), log,
        Time.SYSTEM, "test");
    private final AtomicReference<OptionalInt> leader = new AtomicReference<>(OptionalInt.of(0));
    private final AtomicInteger topicCreations = new AtomicInteger();
    private Runnable createTopic = topicCreations::incrementAndGet;
    private final InterBrokerSender unreachable = new InterBrokerSender("share-state-sender-", id -> Optional.empty(), id -> {
        throw new AssertionError("no connection to broker " + id);
    });
    private final ShareCoordinatorPersister persister = new ShareCoordinatorPersister(
        new ShareCoordinatorPersister.Settings(0, 10, 2000), coordinator, partition -> leader.get(),
        () -> createTopic.run(), unreachable, Time.SYSTEM);

    private TopicPartition statePartition() {
        return new TopicPartition(Topic.SHARE_GROUP_STATE_TOPIC_NAME, coordinator.partitionFor(
            new ShareStateKey(KEY.groupId(), KEY.partition().topicId(), KEY.partition().partition())));
    }

    @AfterEach
    void close() {
        persister.close();
        coordinator.close();
    }

    @Test
    void stateIsInitializedWrittenAndReadThroughTheLocalCoordinator() throws Exception {
        coordinator.onBecomeLeader(statePartition(), 0);
        assertThat(persister.readState(KEY, 2).get(10, TimeUnit.SECONDS)).as("retried until loaded").isEmpty();

        persister.initializeState(KEY, new ShareGroupState(0, 2, 5, List.of())).get(10, TimeUnit.SECONDS);
        persister.writeState(KEY, new ShareGroupState(0, 2, 7, List.of(
            new PersistedStateBatch(7, 9, ACKNOWLEDGED, (short) 1)))).get(10, TimeUnit.SECONDS);

        ShareGroupState state = persister.readState(KEY, 2).get(10, TimeUnit.SECONDS).orElseThrow();
        assertThat(state.startOffset()).isEqualTo(7);
        assertThat(state.stateBatches()).containsExactly(new PersistedStateBatch(7, 9, ACKNOWLEDGED, (short) 1));
    }

    @Test
    void aCallWaitsWhileThePartitionLoads() throws Exception {
        log.holdReads();
        coordinator.onBecomeLeader(statePartition(), 0);
        CompletableFuture<Void> init = persister.initializeState(KEY, new ShareGroupState(0, 0, 3, List.of()));
        assertThat(init).isNotDone();
        log.openReads();
        init.get(10, TimeUnit.SECONDS);
        assertThat(persister.readState(KEY).get(10, TimeUnit.SECONDS).orElseThrow().startOffset()).isEqualTo(3);
    }

    @Test
    void withoutALeaderTheTopicIsCreatedAndTheCallRetried() throws Exception {
        leader.set(OptionalInt.empty());
        createTopic = () -> {
            topicCreations.incrementAndGet();
            coordinator.onBecomeLeader(statePartition(), 0);
            leader.set(OptionalInt.of(0));
        };

        persister.initializeState(KEY, new ShareGroupState(0, 0, 4, List.of())).get(10, TimeUnit.SECONDS);

        assertThat(topicCreations.get()).isPositive();
        assertThat(persister.readState(KEY).get(10, TimeUnit.SECONDS).orElseThrow().startOffset()).isEqualTo(4);
    }

    @Test
    void anInitializeKeepsAStateOfAHigherStateEpoch() throws Exception {
        coordinator.onBecomeLeader(statePartition(), 0);
        persister.initializeState(KEY, new ShareGroupState(1, 0, 4, List.of())).get(10, TimeUnit.SECONDS);
        persister.initializeState(KEY, new ShareGroupState(0, 0, 9, List.of())).get(10, TimeUnit.SECONDS);
        assertThat(persister.readState(KEY).get(10, TimeUnit.SECONDS).orElseThrow().startOffset()).isEqualTo(4);
    }

    @Test
    void fencingFailsAtOnce() throws Exception {
        coordinator.onBecomeLeader(statePartition(), 0);
        persister.initializeState(KEY, new ShareGroupState(0, 0, 0, List.of())).get(10, TimeUnit.SECONDS);
        persister.readState(KEY, 5).get(10, TimeUnit.SECONDS);

        assertThatThrownBy(() -> persister.writeState(KEY, new ShareGroupState(0, 4, 1, List.of())).get(10, TimeUnit.SECONDS))
            .hasCauseInstanceOf(FencedLeaderEpochException.class);
    }

    @Test
    void anUnreachableCoordinatorFailsTheCallOnceRetriesRunOut() {
        leader.set(OptionalInt.of(1));
        assertThatThrownBy(() -> persister.readState(KEY).get(10, TimeUnit.SECONDS))
            .hasCauseInstanceOf(CoordinatorNotAvailableException.class);
    }
}
