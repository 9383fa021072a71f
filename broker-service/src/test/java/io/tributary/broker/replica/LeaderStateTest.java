package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.cluster.LeaderAndIsr;
import io.tributary.broker.config.LogConfig;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.testing.MockTime;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One {@link LeaderState} of broker 0 on a real log, with a {@link MockTime} and a submitter
 * that keeps the ISR changes it decides on: the high watermark's advance (it never goes back; a
 * follower whose offset is unknown holds it), and the decisions to shrink and expand the ISR.
 * No broker, no ZooKeeper.
 */
class LeaderStateTest {

    private static final TopicPartition TP = new TopicPartition("events", 0);
    private static final long REPLICA_LAG_TIME_MAX_MS = 10_000;

    @TempDir
    Path dir;

    private final MockTime time = new MockTime();
    private final List<LeaderState.IsrChange> submitted = new ArrayList<>();
    private LogManager logManager;
    private PartitionLog log;

    @BeforeEach
    void openLog() {
        logManager = ReplicaTestLogs.logManager(dir, time);
        LogConfig config = ReplicaTestLogs.defaultConfig();
        log = logManager.getOrCreateLog(TP, Uuid.randomUuid(), config);
    }

    @AfterEach
    void closeLog() {
        logManager.shutdown();
    }

    /** Broker 0 leads {@code epoch}; ISR changes go to {@link #submitted}, never to the updater. */
    private LeaderState lead(int epoch, List<Integer> isr, List<Integer> replicas) {
        IsrUpdater unused = (tp, proposed, callback) -> {
            throw new AssertionError("a leader state submits ISR changes through its submitter");
        };
        PartitionContext context = new PartitionContext(0, unused, time, REPLICA_LAG_TIME_MAX_MS, tp -> { },
            (tp, id) -> true, new ReplicaStats());
        return LeaderState.startEpoch(TP, context, new LeaderAndIsr(0, epoch, isr, 0, 0), replicas, log,
            submitted::add);
    }

    /** {@code broker} fetches at {@code offset} now; returns whether the high watermark moved. */
    private boolean fetch(LeaderState leader, int broker, long offset) {
        return leader.updateFollowerFetchState(broker, log.convertToOffsetMetadata(offset), 0, time.milliseconds(),
            log.logEndOffset());
    }

    private static MemoryRecords batch(int count) {
        SimpleRecord[] records = new SimpleRecord[count];
        for (int i = 0; i < count; i++) {
            records[i] = new SimpleRecord(("v" + i).getBytes(StandardCharsets.UTF_8));
        }
        return MemoryRecords.withRecords(Compression.NONE, records);
    }

    @Test
    void aFollowerWhoseOffsetIsUnknownHoldsTheHighWatermark() {
        LeaderState leader = lead(0, List.of(0, 1, 2), List.of(0, 1, 2));
        leader.appendRecords(batch(10), (short) -1, 1);
        assertThat(log.highWatermark()).isZero();

        assertThat(fetch(leader, 1, 10)).isFalse();
        // Broker 2 has not fetched in this epoch: nothing is known to be on it.
        assertThat(log.highWatermark()).isZero();

        assertThat(fetch(leader, 2, 6)).isTrue();
        assertThat(log.highWatermark()).isEqualTo(6);
    }

    @Test
    void theHighWatermarkFollowsOnlyTheIsr() {
        LeaderState leader = lead(0, List.of(0), List.of(0, 1));
        leader.appendRecords(batch(4), (short) 1, 1);
        // Broker 1 is assigned but out of the ISR: it does not hold the high watermark.
        assertThat(log.highWatermark()).isEqualTo(4);
    }

    @Test
    void theHighWatermarkNeverGoesBack() {
        LeaderState leader = lead(0, List.of(0, 1), List.of(0, 1));
        leader.appendRecords(batch(10), (short) -1, 1);
        fetch(leader, 1, 10);
        assertThat(log.highWatermark()).isEqualTo(10);

        // The follower fetches from further back (it truncated): the high watermark stays.
        leader.appendRecords(batch(5), (short) -1, 1);
        assertThat(fetch(leader, 1, 4)).isFalse();
        assertThat(leader.maybeIncrementHighWatermark()).isFalse();
        assertThat(log.highWatermark()).isEqualTo(10);

        // Nor does a new epoch, whose followers' offsets are unknown, lower it.
        LeaderState next = lead(1, List.of(0, 1), List.of(0, 1));
        assertThat(next.leaderEpochStartOffset()).isEqualTo(15);
        assertThat(log.highWatermark()).isEqualTo(10);
        fetch(next, 1, 15);
        assertThat(log.highWatermark()).isEqualTo(15);
    }

    @Test
    void aFollowerCaughtUpWithinTheLagTimeStaysInTheIsr() {
        LeaderState leader = lead(0, List.of(0, 1), List.of(0, 1));
        // Becoming leader counts an in-sync follower as caught up now.
        time.advance(REPLICA_LAG_TIME_MAX_MS);
        assertThat(leader.maybeShrinkIsr()).isFalse();
        assertThat(submitted).isEmpty();

        time.advance(1);
        assertThat(leader.maybeShrinkIsr()).isTrue();
        assertThat(submitted).singleElement().satisfies(change -> assertThat(change.proposed().isr()).containsExactly(0));
    }

    @Test
    void aFollowerNotCaughtUpWithinTheLagTimeIsShrunkOutOfTheIsr() {
        LeaderState leader = lead(3, List.of(0, 1, 2), List.of(0, 1, 2));
        leader.appendRecords(batch(5), (short) -1, 1);
        time.advance(REPLICA_LAG_TIME_MAX_MS + 1);
        fetch(leader, 1, 5); // broker 1 is caught up now; broker 2 never fetched

        assertThat(leader.maybeShrinkIsr()).isTrue();
        assertThat(submitted).hasSize(1);
        LeaderState.IsrChange change = submitted.get(0);
        assertThat(change.proposed()).isEqualTo(new LeaderAndIsr(0, 3, List.of(0, 1), 0, 0));
        assertThat(change.isrSizeBefore()).isEqualTo(3);
        // Until the write lands the ISR is unchanged, the high watermark counts both, and no other change is decided.
        assertThat(leader.isr()).containsExactly(0, 1, 2);
        assertThat(leader.maximalIsr()).containsExactly(0, 1, 2);
        assertThat(leader.isrUpdateInFlight()).isTrue();
        assertThat(leader.maybeShrinkIsr()).isFalse();
        assertThat(submitted).hasSize(1);
    }

    @Test
    void aFollowerBehindTheHighWatermarkDoesNotRejoinTheIsr() {
        LeaderState leader = lead(0, List.of(0, 1), List.of(0, 1, 2));
        leader.appendRecords(batch(10), (short) -1, 1);
        fetch(leader, 1, 10);
        assertThat(log.highWatermark()).isEqualTo(10);

        fetch(leader, 2, 9);
        assertThat(submitted).isEmpty();

        fetch(leader, 2, 10);
        assertThat(submitted).singleElement()
            .satisfies(change -> assertThat(change.proposed().isr()).containsExactly(0, 1, 2));
        // Expanding: the follower being added counts for the high watermark at once (KIP-497).
        assertThat(leader.isr()).containsExactly(0, 1);
        assertThat(leader.maximalIsr()).containsExactly(0, 1, 2);
    }

    @Test
    void aFollowerRejoinsTheIsrOnlyOnceItHoldsTheWholeLeaderEpoch() {
        LeaderState previous = lead(0, List.of(0, 1), List.of(0, 1));
        previous.appendRecords(batch(5), (short) -1, 1);
        fetch(previous, 1, 2);
        assertThat(log.highWatermark()).isEqualTo(2);

        LeaderState leader = lead(1, List.of(0, 1), List.of(0, 1, 2));
        assertThat(leader.leaderEpochStartOffset()).isEqualTo(5);
        // At or above the high watermark, but without all of epoch 1's records (it starts at 5).
        fetch(leader, 2, 3);
        assertThat(submitted).isEmpty();

        fetch(leader, 2, 5);
        assertThat(submitted).singleElement()
            .satisfies(change -> assertThat(change.proposed().isr()).containsExactly(0, 1, 2));
    }

    @Test
    void aWrittenIsrChangeIsAppliedUnlessANewerStateWasApplied() {
        LeaderState leader = lead(0, List.of(0, 1), List.of(0, 1, 2));
        leader.appendRecords(batch(5), (short) -1, 1);
        fetch(leader, 1, 5);
        fetch(leader, 2, 5);
        LeaderAndIsr proposed = submitted.get(0).proposed();

        leader.isrChangeFinished();
        assertThat(leader.isrUpdateInFlight()).isFalse();
        assertThat(leader.maximalIsr()).containsExactly(0, 1);
        assertThat(leader.applyWrittenIsr(proposed, 1)).isTrue();
        assertThat(leader.state()).isEqualTo(new LeaderAndIsr(0, 0, List.of(0, 1, 2), 0, 1));
        assertThat(leader.maximalIsr()).containsExactly(0, 1, 2);

        // The same write reported again, or one of another epoch, changes nothing.
        assertThat(leader.applyWrittenIsr(proposed, 1)).isFalse();
        assertThat(leader.applyWrittenIsr(new LeaderAndIsr(0, 1, List.of(0), 0, 0), 2)).isFalse();
        assertThat(leader.isr()).containsExactly(0, 1, 2);
    }

    @Test
    void anAcksAllProduceIsDoneOnceTheHighWatermarkPassesIt() {
        LeaderState leader = lead(0, List.of(0, 1), List.of(0, 1));
        leader.appendRecords(batch(5), (short) -1, 1);
        assertThat(leader.checkEnoughReplicasReachOffset(5, 2)).isNull();

        fetch(leader, 1, 5);
        assertThat(leader.checkEnoughReplicasReachOffset(5, 2)).isEqualTo(Errors.NONE);
        assertThat(leader.checkEnoughReplicasReachOffset(5, 3)).as("min.insync.replicas capped at the 2 replicas")
            .isEqualTo(Errors.NONE);
    }

    @Test
    void anAcksAllProduceAfterTheIsrShrankBelowTheEffectiveMinIsrFails() {
        LeaderState leader = lead(0, List.of(0, 1), List.of(0, 1, 2));
        leader.appendRecords(batch(5), (short) -1, 1);
        fetch(leader, 1, 5);
        assertThat(leader.checkEnoughReplicasReachOffset(5, 3)).isEqualTo(Errors.NOT_ENOUGH_REPLICAS_AFTER_APPEND);
        assertThatThrownBy(() -> leader.appendRecords(batch(1), (short) -1, 3))
            .isInstanceOf(org.apache.kafka.common.errors.NotEnoughReplicasException.class);
    }

    /** KIP-966 / KAFKA-15583: nothing is committed while fewer than min.insync.replicas are in sync. */
    @Test
    void theHighWatermarkWaitsWhileTheIsrIsBelowMinInsyncReplicasAlsoForAcksOneRecords() {
        log.updateConfig(LogConfig.create(Map.of(), Map.of("min.insync.replicas", "2")));
        LeaderState leader = lead(0, List.of(0), List.of(0, 1, 2));
        leader.appendRecords(batch(4), (short) 1, 2);
        assertThat(log.highWatermark()).as("the ISR is only the leader").isZero();

        // Broker 1 catches up: the leader asks to add it; the high watermark waits for that write to land.
        fetch(leader, 1, 4);
        assertThat(submitted).singleElement().satisfies(change -> assertThat(change.proposed().isr()).containsExactly(0, 1));
        assertThat(log.highWatermark()).isZero();
        leader.updateWithinEpoch(new LeaderAndIsr(0, 0, List.of(0, 1), 0, 1), List.of(0, 1, 2));
        leader.maybeIncrementHighWatermark();
        assertThat(log.highWatermark()).isEqualTo(4);
    }
}
