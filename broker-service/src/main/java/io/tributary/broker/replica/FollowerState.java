package io.tributary.broker.replica;

import io.tributary.broker.cluster.LeaderAndIsr;
import io.tributary.broker.log.EpochEntry;
import io.tributary.broker.log.LogAppendInfo;
import io.tributary.broker.log.LogOffsetMetadata;
import io.tributary.broker.log.PartitionLog;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This broker as follower of one partition, of one leader in one leader epoch, as Kafka's raft
 * {@code FollowerState}: it appends what its fetcher copies from the leader, takes the leader's
 * high watermark and log start offset, and truncates its log where it diverges from the
 * leader's (KIP-101, KIP-279, KIP-595) or falls outside it. {@link Partition#makeFollower}
 * makes a new one for each leader and epoch it follows.
 *
 * <p>Invariants: the leader, the leader epoch and the log are fixed for the object's life;
 * {@link #state()} is the partition state last applied (its ISR is the leader's, as the
 * controller or the leader wrote it). The high watermark this follower takes never passes its
 * own log end offset, and its log start offset moves only up to its high watermark.
 *
 * <p>Thread-safety: not thread-safe on its own; the caller holds {@link Partition}'s lock: the
 * write lock for {@link #updateWithinEpoch}, at least the read lock for appends and truncations
 * (the fetcher of this partition is their only caller, so they do not run at once). The log
 * methods must be called only with a log. The fields read without a lock are volatile.
 *
 * <p>Units: offsets are offsets of the partition's log (the leader's and this follower's share
 * them).
 */
final class FollowerState implements PartitionRole {

    private static final Logger logger = LoggerFactory.getLogger(FollowerState.class);

    private final TopicPartition topicPartition;
    private final int leaderId;
    private final int leaderEpoch;
    private final PartitionLog log;
    private volatile LeaderAndIsr state;
    private volatile List<Integer> replicas;

    /**
     * @param state the partition state that makes this broker a follower of {@code state.leader()}
     * @param log   the local log, or null when there is none (the log methods are then not called)
     */
    FollowerState(TopicPartition topicPartition, LeaderAndIsr state, List<Integer> assignedReplicas, PartitionLog log) {
        this.topicPartition = topicPartition;
        this.leaderId = state.leader();
        this.leaderEpoch = state.leaderEpoch();
        this.log = log;
        this.state = state;
        this.replicas = assignedReplicas;
    }

    @Override
    public int leaderId() {
        return leaderId;
    }

    @Override
    public int leaderEpoch() {
        return leaderEpoch;
    }

    @Override
    public PartitionLog log() {
        return log;
    }

    @Override
    public LeaderAndIsr state() {
        return state;
    }

    @Override
    public List<Integer> replicas() {
        return replicas;
    }

    /**
     * A partition state of this epoch and leader: takes its ISR (unless older than the one
     * applied) and the assigned replicas. Caller holds the write lock.
     */
    void updateWithinEpoch(LeaderAndIsr newState, List<Integer> assignedReplicas) {
        if (PartitionRole.supersedes(newState, state)) {
            state = newState;
        }
        replicas = assignedReplicas;
    }

    /**
     * Appends batches copied from the leader and takes the leader's high watermark (bounded by
     * the local log end) and log start offset (when at most the high watermark).
     */
    LogAppendInfo appendRecords(MemoryRecords records, long leaderHighWatermark, long leaderLogStartOffset) {
        maybeRestartEmptyLogAtBatch(records);
        LogAppendInfo info = log.appendAsFollower(records);
        log.maybeIncrementHighWatermark(LogOffsetMetadata.unknownPosition(Math.min(leaderHighWatermark, log.logEndOffset())));
        if (leaderLogStartOffset > log.logStartOffset() && leaderLogStartOffset <= log.highWatermark()) {
            log.maybeIncrementLogStartOffset(leaderLogStartOffset, "leader's log start offset moved");
        }
        return info;
    }

    /**
     * An empty follower log that starts inside the leader's first batch (the leader's log start
     * offset moved into a batch, e.g. by DeleteRecords) cannot append that batch: it restarts at
     * the batch's base offset instead, as Kafka's followers do (KAFKA-5211).
     */
    private void maybeRestartEmptyLogAtBatch(MemoryRecords records) {
        var batches = records.batches().iterator();
        if (!batches.hasNext()) {
            return;
        }
        RecordBatch first = batches.next();
        long end = log.logEndOffset();
        if (end == log.logStartOffset() && first.baseOffset() < end && first.lastOffset() >= end && log.size() == 0) {
            logger.info("{}: the leader's batch {}..{} straddles this empty log's start {}; restarting the log at {}",
                topicPartition, first.baseOffset(), first.lastOffset(), end, first.baseOffset());
            log.truncateFullyAndStartAt(first.baseOffset());
        }
    }

    /**
     * Truncates the divergent suffix of this follower's log after the leader answered a fetch
     * with {@code DivergingEpoch} (KIP-595; the truncation rules of KIP-101 and KIP-279): to the
     * end of the largest epoch both logs share, never to the high watermark alone. When the
     * leader knows no end of the epoch, to the high watermark; when this log has no epoch at or
     * below the leader's, to the leader's epoch end; when this log's largest such epoch is older
     * than the leader's, to the end of that local epoch (the next fetch resolves the rest).
     * Epoch entries from the target on go with the suffix.
     *
     * @param divergingEpoch    the leader's epoch at or below this follower's last fetched epoch
     * @param divergingEpochEnd where that epoch ends on the leader, or negative when unknown
     * @return the new log end offset
     */
    long truncateToDivergence(int divergingEpoch, long divergingEpochEnd) {
        long end = log.logEndOffset();
        long target;
        String why;
        if (divergingEpochEnd < 0) {
            target = log.highWatermark();
            why = "the leader knows no end of its epoch " + divergingEpoch + ": to the high watermark";
        } else {
            EpochEntry local = log.leaderEpochCache().endOffsetFor(divergingEpoch, end);
            if (local.epoch() < 0) {
                target = Math.min(divergingEpochEnd, end);
                why = "no local epoch at or below the leader's epoch " + divergingEpoch;
            } else if (local.epoch() != divergingEpoch) {
                target = Math.min(local.startOffset(), end);
                why = "local epoch " + local.epoch() + " ends at " + local.startOffset() + ", the leader has epoch "
                    + divergingEpoch + " ending at " + divergingEpochEnd + "; fetching on resolves the rest";
            } else {
                target = Math.min(divergingEpochEnd, local.startOffset());
                why = "epoch " + divergingEpoch + " ends at " + divergingEpochEnd + " on the leader and at "
                    + local.startOffset() + " here";
            }
        }
        log.truncateTo(target);
        // An epoch this broker started as leader without writing to it has an entry but no batch.
        log.leaderEpochCache().truncateFromEnd(target);
        logger.info("{}: truncated the divergent log suffix to offset {} (log end offset was {}; {})", topicPartition,
            log.logEndOffset(), end, why);
        return log.logEndOffset();
    }

    /**
     * This follower's fetch offset is outside the leader's log. Below the leader's log start, the
     * log restarts empty there; above the leader's log end (only possible without epochs to
     * compare), it truncates to the leader's high watermark, which the leader holds.
     *
     * @param leaderLogStartOffset the leader's log start offset, or negative when unknown
     * @param leaderHighWatermark  the leader's high watermark, or negative when unknown
     * @return the new log end offset
     */
    long handleOffsetOutOfRange(long fetchOffset, long leaderLogStartOffset, long leaderHighWatermark) {
        if (leaderLogStartOffset >= 0 && fetchOffset < leaderLogStartOffset) {
            logger.warn("{}: fetch offset {} is below the leader's log start offset {}; restarting the log there",
                topicPartition, fetchOffset, leaderLogStartOffset);
            log.truncateFullyAndStartAt(leaderLogStartOffset);
        } else if (leaderHighWatermark >= 0 && leaderHighWatermark < log.logEndOffset()) {
            logger.warn("{}: fetch offset {} is beyond the leader's log; truncating to its high watermark {}",
                topicPartition, fetchOffset, leaderHighWatermark);
            log.truncateTo(leaderHighWatermark);
            log.leaderEpochCache().truncateFromEnd(leaderHighWatermark);
        }
        return log.logEndOffset();
    }

    @Override
    public String toString() {
        return "FollowerState(" + topicPartition + ", leader=" + leaderId + ", leaderEpoch=" + leaderEpoch + ", isr="
            + isr() + ")";
    }
}
