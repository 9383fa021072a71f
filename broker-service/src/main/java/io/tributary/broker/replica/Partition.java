package io.tributary.broker.replica;

import io.tributary.broker.cluster.LeaderAndIsr;
import io.tributary.broker.log.EpochEntry;
import io.tributary.broker.log.FetchDataInfo;
import io.tributary.broker.log.FetchIsolation;
import io.tributary.broker.log.LogAppendInfo;
import io.tributary.broker.log.PartitionLog;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.FencedLeaderEpochException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.UnknownLeaderEpochException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * One partition as this broker replicates it: its role (leader or follower), leader epoch,
 * ISR and replicas, and its local log. As leader it appends producers' batches, keeps the
 * high watermark (the smallest log end offset in the ISR) and serves reads; leader-epoch
 * fencing follows KIP-320.
 *
 * <p>Thread-safety: role changes hold the write lock; appends and reads hold the read lock,
 * so a read never sees a half-made role change.
 */
public final class Partition {

    private final TopicPartition topicPartition;
    private final int localBrokerId;
    private final ReentrantReadWriteLock leaderIsrUpdateLock = new ReentrantReadWriteLock();
    private volatile Uuid topicId;
    private volatile PartitionLog log;
    private volatile int leaderId = LeaderAndIsr.NO_LEADER;
    private volatile int leaderEpoch = -1;
    private volatile List<Integer> isr = List.of();
    private volatile List<Integer> replicas = List.of();

    public Partition(TopicPartition topicPartition, int localBrokerId) {
        this.topicPartition = topicPartition;
        this.localBrokerId = localBrokerId;
    }

    public TopicPartition topicPartition() {
        return topicPartition;
    }

    public Uuid topicId() {
        return topicId;
    }

    public Optional<PartitionLog> log() {
        return Optional.ofNullable(log);
    }

    public boolean isLeader() {
        return leaderId == localBrokerId;
    }

    public int leaderId() {
        return leaderId;
    }

    public int leaderEpoch() {
        return leaderEpoch;
    }

    public List<Integer> isr() {
        return isr;
    }

    public List<Integer> replicas() {
        return replicas;
    }

    /**
     * Becomes leader for {@code state.leaderEpoch()}: the new epoch starts at the log end offset
     * and the high watermark is recomputed.
     *
     * @return false when the state is older than the one already applied
     */
    public boolean makeLeader(LeaderAndIsr state, List<Integer> assignedReplicas, Uuid topicId, PartitionLog partitionLog) {
        leaderIsrUpdateLock.writeLock().lock();
        try {
            if (state.leaderEpoch() < leaderEpoch) {
                return false;
            }
            this.topicId = topicId;
            this.log = partitionLog;
            this.leaderId = localBrokerId;
            this.leaderEpoch = state.leaderEpoch();
            this.isr = state.isr();
            this.replicas = assignedReplicas;
            partitionLog.leaderEpochCache().assign(state.leaderEpoch(), partitionLog.logEndOffset());
            maybeIncrementLeaderHighWatermark();
            return true;
        } finally {
            leaderIsrUpdateLock.writeLock().unlock();
        }
    }

    /**
     * Becomes a follower of {@code state.leader()}.
     *
     * @return false when the state is older than the one already applied
     */
    public boolean makeFollower(LeaderAndIsr state, List<Integer> assignedReplicas, Uuid topicId, PartitionLog partitionLog) {
        leaderIsrUpdateLock.writeLock().lock();
        try {
            if (state.leaderEpoch() < leaderEpoch) {
                return false;
            }
            this.topicId = topicId;
            this.log = partitionLog;
            this.leaderId = state.leader();
            this.leaderEpoch = state.leaderEpoch();
            this.isr = state.isr();
            this.replicas = assignedReplicas;
            return true;
        } finally {
            leaderIsrUpdateLock.writeLock().unlock();
        }
    }

    /** The high watermark follows the smallest log end offset among in-sync replicas. */
    boolean maybeIncrementLeaderHighWatermark() {
        PartitionLog l = log;
        if (l == null) {
            return false;
        }
        // Only this broker's log end offset is known until followers fetch (replication adds theirs).
        if (isr.size() <= 1) {
            return l.maybeIncrementHighWatermark(l.logEndOffsetMetadata());
        }
        return false;
    }

    /**
     * Appends a producer's records as leader.
     *
     * @param requiredAcks -1 (all), 0 or 1
     * @param minInSyncReplicas {@code min.insync.replicas} of the topic
     * @throws NotLeaderOrFollowerException when this broker is not the leader
     * @throws NotEnoughReplicasException  with acks=all when the ISR is below {@code min.insync.replicas}
     */
    public LogAppendInfo appendRecordsToLeader(MemoryRecords records, short requiredAcks, int minInSyncReplicas) {
        leaderIsrUpdateLock.readLock().lock();
        try {
            PartitionLog l = log;
            if (!isLeader() || l == null) {
                throw new NotLeaderOrFollowerException("Leader not local for partition " + topicPartition
                    + " on broker " + localBrokerId);
            }
            if (requiredAcks == -1 && isr.size() < minInSyncReplicas) {
                throw new NotEnoughReplicasException("The size of the current ISR " + isr + " is insufficient to satisfy "
                    + "the min.isr requirement of " + minInSyncReplicas + " for partition " + topicPartition);
            }
            LogAppendInfo info = l.appendAsLeader(records, leaderEpoch);
            maybeIncrementLeaderHighWatermark();
            return info;
        } finally {
            leaderIsrUpdateLock.readLock().unlock();
        }
    }

    /**
     * Whether an acks=all produce up to {@code requiredOffset} (exclusive) is replicated.
     *
     * @return NONE when done, NOT_ENOUGH_REPLICAS_AFTER_APPEND when the ISR shrank below the minimum,
     *         NOT_LEADER_OR_FOLLOWER when leadership moved, or null while waiting
     */
    public Errors checkEnoughReplicasReachOffset(long requiredOffset, int minInSyncReplicas) {
        PartitionLog l = log;
        if (!isLeader() || l == null) {
            return Errors.NOT_LEADER_OR_FOLLOWER;
        }
        if (l.highWatermark() >= requiredOffset) {
            return isr.size() < minInSyncReplicas ? Errors.NOT_ENOUGH_REPLICAS_AFTER_APPEND : Errors.NONE;
        }
        return null;
    }

    /**
     * Reads as leader (or, for followers fetching, from the log end).
     *
     * @throws FencedLeaderEpochException  when the client's epoch is older than the leader's
     * @throws UnknownLeaderEpochException when the client's epoch is newer
     * @throws NotLeaderOrFollowerException when this broker does not lead the partition
     * @throws org.apache.kafka.common.errors.OffsetOutOfRangeException for an offset outside the log
     */
    public FetchDataInfo read(long fetchOffset, int currentLeaderEpoch, int maxBytes, FetchIsolation isolation,
                              boolean minOneMessage) {
        leaderIsrUpdateLock.readLock().lock();
        try {
            PartitionLog l = localLogAsLeader(currentLeaderEpoch);
            return l.read(fetchOffset, maxBytes, isolation, minOneMessage);
        } finally {
            leaderIsrUpdateLock.readLock().unlock();
        }
    }

    /** The leader's log after checking the client's leader epoch (KIP-320). */
    PartitionLog localLogAsLeader(int currentLeaderEpoch) {
        PartitionLog l = log;
        if (currentLeaderEpoch != RecordBatch.NO_PARTITION_LEADER_EPOCH) {
            if (currentLeaderEpoch < leaderEpoch) {
                throw new FencedLeaderEpochException("The leader epoch " + currentLeaderEpoch + " of the request for "
                    + topicPartition + " is older than the current leader epoch " + leaderEpoch);
            }
            if (currentLeaderEpoch > leaderEpoch) {
                throw new UnknownLeaderEpochException("The leader epoch " + currentLeaderEpoch + " of the request for "
                    + topicPartition + " is newer than the current leader epoch " + leaderEpoch);
            }
        }
        if (!isLeader() || l == null) {
            throw new NotLeaderOrFollowerException("Leader not local for partition " + topicPartition + " on broker "
                + localBrokerId);
        }
        return l;
    }

    /**
     * The offset for a ListOffsets timestamp: EARLIEST (-2), LATEST (-1), MAX_TIMESTAMP (-3),
     * EARLIEST_LOCAL (-4), LATEST_TIERED (-5, always offset -1: no tiered storage) or a time;
     * bounded by what the reader may see.
     *
     * @return the timestamp, offset and leader epoch, or empty when no record is that recent
     */
    public Optional<FileRecords.TimestampAndOffset> fetchOffsetForTimestamp(long timestamp, int currentLeaderEpoch,
                                                                          long lastFetchableOffset) {
        leaderIsrUpdateLock.readLock().lock();
        try {
            PartitionLog l = localLogAsLeader(currentLeaderEpoch);
            Optional<Integer> epoch = Optional.of(leaderEpoch);
            if (timestamp == org.apache.kafka.common.requests.ListOffsetsRequest.EARLIEST_TIMESTAMP
                    || timestamp == org.apache.kafka.common.requests.ListOffsetsRequest.EARLIEST_LOCAL_TIMESTAMP) {
                long start = l.logStartOffset();
                EpochEntry startEpoch = epochHolding(l, start);
                return Optional.of(new FileRecords.TimestampAndOffset(RecordBatch.NO_TIMESTAMP, start,
                    startEpoch == null ? Optional.empty() : Optional.of(startEpoch.epoch())));
            }
            if (timestamp == org.apache.kafka.common.requests.ListOffsetsRequest.LATEST_TIMESTAMP) {
                return Optional.of(new FileRecords.TimestampAndOffset(RecordBatch.NO_TIMESTAMP, lastFetchableOffset, epoch));
            }
            if (timestamp == org.apache.kafka.common.requests.ListOffsetsRequest.LATEST_TIERED_TIMESTAMP
                    || timestamp == org.apache.kafka.common.requests.ListOffsetsRequest.EARLIEST_PENDING_UPLOAD_TIMESTAMP) {
                // No tiered storage: nothing is tiered or waiting for upload.
                return Optional.of(new FileRecords.TimestampAndOffset(RecordBatch.NO_TIMESTAMP, -1, Optional.empty()));
            }
            Optional<FileRecords.TimestampAndOffset> found =
                timestamp == org.apache.kafka.common.requests.ListOffsetsRequest.MAX_TIMESTAMP
                    ? l.fetchOffsetOfMaxTimestamp() : l.fetchOffsetByTimestamp(timestamp);
            return found.filter(t -> t.offset < lastFetchableOffset);
        } finally {
            leaderIsrUpdateLock.readLock().unlock();
        }
    }

    private static EpochEntry epochHolding(PartitionLog l, long offset) {
        EpochEntry holding = null;
        for (EpochEntry e : l.leaderEpochCache().entries()) {
            if (e.startOffset() <= offset) {
                holding = e;
            }
        }
        return holding;
    }

    /**
     * The end offset of the largest epoch at most {@code leaderEpoch} (OffsetForLeaderEpoch, KIP-101).
     */
    public EpochEntry lastOffsetForLeaderEpoch(int currentLeaderEpoch, int requestedEpoch) {
        leaderIsrUpdateLock.readLock().lock();
        try {
            PartitionLog l = localLogAsLeader(currentLeaderEpoch);
            return l.leaderEpochCache().endOffsetFor(requestedEpoch, l.logEndOffset());
        } finally {
            leaderIsrUpdateLock.readLock().unlock();
        }
    }

    /**
     * Deletes records below {@code offset} (DeleteRecords); -1 means the high watermark.
     *
     * @return the new log start offset (low watermark)
     * @throws org.apache.kafka.common.errors.OffsetOutOfRangeException when the offset is above the high watermark
     */
    public long deleteRecordsOnLeader(long offset) {
        leaderIsrUpdateLock.readLock().lock();
        try {
            PartitionLog l = localLogAsLeader(RecordBatch.NO_PARTITION_LEADER_EPOCH);
            long target = offset == -1 ? l.highWatermark() : offset;
            if (target < 0) {
                throw new org.apache.kafka.common.errors.OffsetOutOfRangeException("Cannot delete records of "
                    + topicPartition + " below offset " + offset);
            }
            l.maybeIncrementLogStartOffset(target, "DeleteRecords request");
            return l.logStartOffset();
        } finally {
            leaderIsrUpdateLock.readLock().unlock();
        }
    }

    @Override
    public String toString() {
        return "Partition(" + topicPartition + ", leader=" + leaderId + ", leaderEpoch=" + leaderEpoch + ", isr=" + isr + ")";
    }
}
