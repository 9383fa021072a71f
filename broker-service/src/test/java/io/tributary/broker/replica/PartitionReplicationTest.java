package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.cluster.LeaderAndIsr;
import io.tributary.broker.config.LogConfig;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.testing.MockTime;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.errors.OffsetOutOfRangeException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One {@link Partition} with a real log and an ISR updater that holds its writes until the test
 * lets them land: the high watermark while an ISR expansion is in flight (KIP-497's maximal
 * ISR), a follower whose empty log starts inside the leader's batch (KAFKA-5211), and a leader
 * without the follower's epoch (no DivergingEpoch(-1, -1)).
 */
class PartitionReplicationTest {

    private static final TopicPartition TP = new TopicPartition("events", 0);

    @TempDir
    Path dir;

    private final MockTime time = new MockTime();
    private final List<Runnable> pendingIsrWrites = new ArrayList<>();
    private final ReplicaStats stats = new ReplicaStats();
    private LogManager logManager;

    /** Keeps each ISR write until {@link #landIsrWrites()}; the stored version then becomes 1, 2, ... */
    private final IsrUpdater heldUpdater = (tp, proposed, callback) -> pendingIsrWrites.add(
        () -> callback.accept(proposed.zkVersion() + 1, null));

    @BeforeEach
    void openLogs() {
        logManager = ReplicaTestLogs.logManager(dir, time);
    }

    @AfterEach
    void closeLogs() {
        logManager.shutdown();
    }

    private Partition partition(int brokerId, IsrUpdater updater, String logName) {
        return new Partition(TP, new PartitionContext(brokerId, updater, time, 10_000, tp -> { }, (tp, id) -> true, stats));
    }

    private PartitionLog log(String name) {
        LogConfig config = ReplicaTestLogs.defaultConfig();
        return logManager.getOrCreateLog(new TopicPartition(name, 0), Uuid.randomUuid(), config);
    }

    private void landIsrWrites() {
        List<Runnable> writes = new ArrayList<>(pendingIsrWrites);
        pendingIsrWrites.clear();
        writes.forEach(Runnable::run);
    }

    private static MemoryRecords batch(int count) {
        SimpleRecord[] records = new SimpleRecord[count];
        for (int i = 0; i < count; i++) {
            records[i] = new SimpleRecord(("v" + i).getBytes(StandardCharsets.UTF_8));
        }
        return MemoryRecords.withRecords(Compression.NONE, records);
    }

    @Test
    void theHighWatermarkWaitsForAFollowerWhoseAdditionToTheIsrIsBeingWritten() {
        PartitionLog leaderLog = log("events");
        Partition leader = partition(0, heldUpdater, "events");
        leader.makeLeader(new LeaderAndIsr(0, 0, List.of(0, 1), 0, 0), List.of(0, 1, 2), Uuid.randomUuid(), leaderLog);

        leader.appendRecordsToLeader(batch(5), (short) -1, 1);
        leader.updateFollowerFetchState(1, leaderLog.convertToOffsetMetadata(5), -1, time.milliseconds(), 5);
        // Broker 2 catches up: the leader proposes ISR [0, 1, 2]; the write has not landed yet.
        leader.updateFollowerFetchState(2, leaderLog.convertToOffsetMetadata(5), -1, time.milliseconds(), 5);
        assertThat(pendingIsrWrites).hasSize(1);
        assertThat(leaderLog.highWatermark()).isEqualTo(5);

        leader.appendRecordsToLeader(batch(5), (short) -1, 1);
        leader.updateFollowerFetchState(1, leaderLog.convertToOffsetMetadata(10), -1, time.milliseconds(), 10);
        // Broker 2 is still at 5: the records 5..9 are not acknowledged, as broker 2 is about to be in sync.
        assertThat(leaderLog.highWatermark()).isEqualTo(5);
        assertThat(leader.checkEnoughReplicasReachOffset(10, 2)).isNull();

        landIsrWrites();
        assertThat(leader.isr()).containsExactly(0, 1, 2);
        assertThat(stats.isrExpands()).isEqualTo(1);
        assertThat(stats.isrShrinks()).isZero();
        assertThat(leaderLog.highWatermark()).isEqualTo(5);
        leader.updateFollowerFetchState(2, leaderLog.convertToOffsetMetadata(10), -1, time.milliseconds(), 10);
        assertThat(leaderLog.highWatermark()).isEqualTo(10);
        assertThat(leader.checkEnoughReplicasReachOffset(10, 2)).isEqualTo(Errors.NONE);
    }

    @Test
    void anIsrChangeTheLeaderWroteIsCountedEvenWhenItsZooKeeperWatchAppliedItFirst() {
        PartitionLog leaderLog = log("events");
        Partition leader = partition(0, heldUpdater, "events");
        Uuid topicId = Uuid.randomUuid();
        leader.makeLeader(new LeaderAndIsr(0, 0, List.of(0, 1), 0, 0), List.of(0, 1, 2), topicId, leaderLog);
        leader.appendRecordsToLeader(batch(5), (short) 1, 1);
        leader.updateFollowerFetchState(2, leaderLog.convertToOffsetMetadata(5), -1, time.milliseconds(), 5);
        assertThat(pendingIsrWrites).hasSize(1);

        // The write lands in ZooKeeper, and the broker's watch delivers the stored state (version 1)
        // before the write's own callback runs: the ISR is applied by the watch.
        leader.makeLeader(new LeaderAndIsr(0, 0, List.of(0, 1, 2), 0, 1), List.of(0, 1, 2), topicId, leaderLog);
        assertThat(leader.isr()).containsExactly(0, 1, 2);
        landIsrWrites();

        // Still this leader's expansion, counted once (Kafka's IsrExpandsPerSec).
        assertThat(stats.isrExpands()).isEqualTo(1);
        assertThat(stats.isrShrinks()).isZero();
    }

    @Test
    void anEmptyFollowerLogStartingInsideTheLeadersBatchRestartsAtTheBatch() {
        PartitionLog followerLog = log("events");
        followerLog.truncateFullyAndStartAt(5); // the leader's log start moved to 5, inside its batch 0..9
        Partition follower = partition(1, heldUpdater, "events");
        follower.makeFollower(new LeaderAndIsr(0, 3, List.of(0, 1), 0, 0), List.of(0, 1), Uuid.randomUuid(), followerLog);

        assertThat(follower.appendRecordsToFollower(batch(10), 3, 10, 5)).isPresent();
        assertThat(followerLog.logEndOffset()).isEqualTo(10);
        assertThat(followerLog.logStartOffset()).isEqualTo(5);
    }

    @Test
    void aLeaderWithoutTheFollowersEpochAnswersOffsetOutOfRangeRatherThanNoDivergence() {
        PartitionLog leaderLog = log("events");
        Partition leader = partition(0, heldUpdater, "events");
        leader.makeLeader(new LeaderAndIsr(0, 0, List.of(0, 1), 0, 0), List.of(0, 1), Uuid.randomUuid(), leaderLog);
        leader.appendRecordsToLeader(batch(3), (short) 1, 1);
        // The leader's only epoch is 0; a follower says it last fetched in epoch 7.
        leaderLog.leaderEpochCache().clear();
        assertThatThrownBy(() -> leader.readForFollower(3, 0, 7, 1024, true))
            .isInstanceOf(OffsetOutOfRangeException.class);
    }

    @Test
    void aFollowerThatMayNotJoinTheIsrIsNotAddedHoweverCaughtUp() {
        PartitionLog leaderLog = log("events");
        // Broker 2 is being removed by a reassignment (or shuts down, or lost its log directory).
        Partition leader = new Partition(TP, new PartitionContext(0, heldUpdater, time, 10_000, tp -> { },
            (tp, id) -> id != 2, stats));
        leader.makeLeader(new LeaderAndIsr(0, 0, List.of(0, 1), 0, 0), List.of(0, 1, 2), Uuid.randomUuid(), leaderLog);
        leader.appendRecordsToLeader(batch(5), (short) -1, 1);
        leader.updateFollowerFetchState(2, leaderLog.convertToOffsetMetadata(5), -1, time.milliseconds(), 5);
        assertThat(pendingIsrWrites).isEmpty();
        leader.updateFollowerFetchState(1, leaderLog.convertToOffsetMetadata(5), -1, time.milliseconds(), 5);
        assertThat(pendingIsrWrites).isEmpty();
        assertThat(leader.isr()).containsExactly(0, 1);
        assertThat(leaderLog.highWatermark()).isEqualTo(5);
    }
}
