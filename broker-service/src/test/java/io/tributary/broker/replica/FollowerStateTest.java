package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.cluster.LeaderAndIsr;
import io.tributary.broker.config.LogConfig;
import io.tributary.broker.log.EpochEntry;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.testing.MockTime;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One {@link FollowerState} of broker 1 (following broker 0 in leader epoch 5) on a real log
 * filled with the leader's batches of several epochs: truncation to the divergence the leader
 * reports (KIP-595, with the rules of KIP-101 and KIP-279) and to the leader's log when the
 * fetch offset falls outside it. No broker, no ZooKeeper.
 */
class FollowerStateTest {

    private static final TopicPartition TP = new TopicPartition("events", 0);
    private static final int LEADER_EPOCH = 5;

    @TempDir
    Path dir;

    private final MockTime time = new MockTime();
    private LogManager logManager;
    private PartitionLog log;
    private FollowerState follower;

    @BeforeEach
    void openLog() {
        logManager = ReplicaTestLogs.logManager(dir, time);
        LogConfig config = ReplicaTestLogs.defaultConfig();
        log = logManager.getOrCreateLog(TP, Uuid.randomUuid(), config);
        follower = new FollowerState(TP, new LeaderAndIsr(0, LEADER_EPOCH, List.of(0, 1), 0, 0), List.of(0, 1), log);
    }

    @AfterEach
    void closeLog() {
        logManager.shutdown();
    }

    /** Appends the leader's batch of {@code count} records from {@code baseOffset}, written in {@code epoch}. */
    private void copy(long baseOffset, int epoch, int count, long leaderHighWatermark) {
        SimpleRecord[] records = new SimpleRecord[count];
        for (int i = 0; i < count; i++) {
            records[i] = new SimpleRecord(("e" + epoch + "-" + i).getBytes(StandardCharsets.UTF_8));
        }
        follower.appendRecords(MemoryRecords.withRecords(baseOffset, Compression.NONE, epoch, records),
            leaderHighWatermark, -1);
    }

    @Test
    void truncatesToWhereTheSharedEpochEndsOnTheLeader() {
        copy(0, 0, 5, 0);
        copy(5, 1, 5, 0);
        // The leader's epoch 1 ends at 7: offsets 7..9 here were never acknowledged there.
        assertThat(follower.truncateToDivergence(1, 7)).isEqualTo(7);
        assertThat(log.logEndOffset()).isEqualTo(7);
        assertThat(log.leaderEpochCache().entries()).containsExactly(new EpochEntry(0, 0), new EpochEntry(1, 5));
    }

    @Test
    void neverTruncatesPastItsOwnEndOfTheSharedEpoch() {
        copy(0, 0, 5, 0);
        // The leader has more of epoch 0 than this follower: nothing here diverges.
        assertThat(follower.truncateToDivergence(0, 8)).isEqualTo(5);
        assertThat(log.logEndOffset()).isEqualTo(5);
    }

    @Test
    void truncatesToTheEndOfItsOwnOlderEpochWhenTheLeaderHasOneItNeverHad() {
        copy(0, 0, 5, 0);
        copy(5, 2, 5, 0);
        // The leader had epoch 1 (ending at 8), this follower epoch 2 from 5: its largest epoch
        // at or below 1 is 0, which ends at 5 here. Fetching on resolves the rest.
        assertThat(follower.truncateToDivergence(1, 8)).isEqualTo(5);
        assertThat(log.leaderEpochCache().entries()).containsExactly(new EpochEntry(0, 0));
    }

    @Test
    void dropsTheEntryOfAnEpochItLedWithoutWriting() {
        copy(0, 0, 5, 0);
        log.leaderEpochCache().assign(3, 5); // this broker led epoch 3 and wrote nothing in it
        assertThat(follower.truncateToDivergence(0, 5)).isEqualTo(5);
        assertThat(log.leaderEpochCache().entries()).containsExactly(new EpochEntry(0, 0));
    }

    @Test
    void truncatesToTheHighWatermarkWhenTheLeaderKnowsNoEndOfItsEpoch() {
        copy(0, 0, 10, 3);
        assertThat(log.highWatermark()).isEqualTo(3);
        assertThat(follower.truncateToDivergence(0, -1)).isEqualTo(3);
        assertThat(log.logEndOffset()).isEqualTo(3);
    }

    @Test
    void withoutLocalEpochsTruncatesToTheLeadersEpochEnd() {
        copy(0, 0, 10, 0);
        log.leaderEpochCache().clear();
        assertThat(follower.truncateToDivergence(0, 4)).isEqualTo(4);
        assertThat(log.logEndOffset()).isEqualTo(4);
    }

    @Test
    void aDivergenceAnsweringAFetchOfAnotherEpochLeavesTheLogAlone() {
        Partition partition = new Partition(TP, new PartitionContext(1, (tp, proposed, callback) -> { }, time, 10_000,
            tp -> { }, (tp, id) -> true, new ReplicaStats()));
        partition.makeFollower(new LeaderAndIsr(0, LEADER_EPOCH, List.of(0, 1), 0, 0), List.of(0, 1), Uuid.randomUuid(),
            log);
        copy(0, 0, 10, 0);
        assertThat(partition.truncateToDivergence(LEADER_EPOCH - 1, 0, 4)).isEmpty();
        assertThat(log.logEndOffset()).isEqualTo(10);
        assertThat(partition.truncateToDivergence(LEADER_EPOCH, 0, 4)).contains(4L);
    }

    @Test
    void aFetchOffsetBelowTheLeadersLogStartRestartsTheLogThere() {
        copy(0, 0, 5, 0);
        assertThat(follower.handleOffsetOutOfRange(5, 20, 25)).isEqualTo(20);
        assertThat(log.logStartOffset()).isEqualTo(20);
        assertThat(log.logEndOffset()).isEqualTo(20);
    }

    @Test
    void aFetchOffsetBeyondTheLeadersLogTruncatesToItsHighWatermark() {
        copy(0, 0, 10, 0);
        assertThat(follower.handleOffsetOutOfRange(10, 0, 6)).isEqualTo(6);
        assertThat(log.logEndOffset()).isEqualTo(6);
    }
}
