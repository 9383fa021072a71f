package io.tributary.broker.replica;

import io.tributary.broker.cluster.LeaderAndIsr;
import io.tributary.broker.log.EpochEntry;
import io.tributary.broker.log.FetchDataInfo;
import io.tributary.broker.log.FetchIsolation;
import io.tributary.broker.log.LogAppendInfo;
import io.tributary.broker.log.LogOffsetMetadata;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.log.PreparedAppend;
import io.tributary.broker.producer.AppendOrigin;
import io.tributary.broker.producer.VerificationGuard;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.FencedLeaderEpochException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.OffsetOutOfRangeException;
import org.apache.kafka.common.errors.UnknownLeaderEpochException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One partition as this broker replicates it: its role (leader or follower) in the current
 * leader epoch, and its local log.
 *
 * <p>The role is an object per leader and leader epoch, as in Kafka's raft module: a
 * {@link LeaderState} while this broker leads (ISR, followers' fetch states, high watermark,
 * ISR shrink and expansion, divergence answers to followers), a {@link FollowerState} while it
 * follows (appends of what its fetcher copies, the leader's high watermark, divergence
 * truncation). This class holds the lock and the current role, fences requests by role and
 * leader epoch (KIP-320), writes the ISR changes the leader state decides on through the
 * {@link IsrUpdater}, and serves reads: as leader, and for consumers as follower (KIP-392).
 *
 * <p>Invariant: the leader, leader epoch, ISR, replicas and log are the current role's (none,
 * -1, empty, empty and none before the first role); the leader epoch never goes back. A new
 * leader or epoch (or log) makes a new role object; a partition state within the epoch updates
 * the current one.
 *
 * <p>Thread-safety: one lock for all roles, so a request never sees a half-made role change:
 * role changes and ISR changes (a new partition state, a landed ISR write) hold the write lock;
 * appends, reads, follower fetch states and the ISR expiration check hold the read lock. The
 * role objects are used only under this lock, except by the lock-free {@link #isr()},
 * {@link #checkEnoughReplicasReachOffset} and {@link #readReplicaCandidates}, which read one
 * volatile role and its volatile fields.
 */
public final class Partition {

    private static final Logger logger = LoggerFactory.getLogger(Partition.class);

    private final TopicPartition topicPartition;
    private final PartitionContext context;
    private final int localBrokerId;
    private final ReentrantReadWriteLock leaderIsrUpdateLock = new ReentrantReadWriteLock();
    private volatile Uuid topicId;
    /** The current role, or null before the first; replaced under the write lock. */
    private volatile PartitionRole role;

    public Partition(TopicPartition topicPartition, PartitionContext context) {
        this.topicPartition = topicPartition;
        this.context = context;
        this.localBrokerId = context.localBrokerId();
    }

    public TopicPartition topicPartition() {
        return topicPartition;
    }

    public Uuid topicId() {
        return topicId;
    }

    public Optional<PartitionLog> log() {
        PartitionRole r = role;
        return Optional.ofNullable(r == null ? null : r.log());
    }

    public boolean isLeader() {
        return role instanceof LeaderState;
    }

    public int leaderId() {
        PartitionRole r = role;
        return r == null ? LeaderAndIsr.NO_LEADER : r.leaderId();
    }

    public int leaderEpoch() {
        PartitionRole r = role;
        return r == null ? -1 : r.leaderEpoch();
    }

    public List<Integer> isr() {
        PartitionRole r = role;
        return r == null ? List.of() : r.isr();
    }

    public List<Integer> replicas() {
        PartitionRole r = role;
        return r == null ? List.of() : r.replicas();
    }

    /** The version of the partition state this broker last applied or wrote, or -1. */
    int stateVersion() {
        PartitionRole r = role;
        return r == null ? -1 : r.state().zkVersion();
    }

    /**
     * Becomes leader for {@code state.leaderEpoch()}: the new epoch starts at the log end offset,
     * followers' offsets are learnt again and the high watermark is recomputed. A state of the
     * current epoch only updates the ISR and replicas (the leader's own or the controller's ISR write).
     *
     * @return true when this broker became leader in a new epoch; false for an older state or an
     *         update within the current epoch
     */
    public boolean makeLeader(LeaderAndIsr newState, List<Integer> assignedReplicas, Uuid topicId,
                              PartitionLog partitionLog) {
        return locked(leaderIsrUpdateLock.writeLock(), () -> {
            if (newState.leaderEpoch() < leaderEpoch()) {
                return false;
            }
            if (role instanceof LeaderState current && newState.leaderEpoch() == current.leaderEpoch()
                    && current.log() == partitionLog) {
                current.updateWithinEpoch(newState, assignedReplicas);
                current.maybeIncrementHighWatermark();
                return false;
            }
            this.topicId = topicId;
            this.role = LeaderState.startEpoch(topicPartition, context, newState, assignedReplicas, partitionLog,
                this::submitIsrChange);
            return true;
        });
    }

    /**
     * Becomes a follower of {@code state.leader()}. A state of the current epoch with the same
     * leader only updates the ISR and replicas.
     *
     * @return true when the leader or leader epoch changed (the fetcher must start over); false
     *         for an older state or an update within the current epoch
     */
    public boolean makeFollower(LeaderAndIsr newState, List<Integer> assignedReplicas, Uuid topicId,
                                PartitionLog partitionLog) {
        return locked(leaderIsrUpdateLock.writeLock(), () -> {
            if (newState.leaderEpoch() < leaderEpoch()) {
                return false;
            }
            if (role instanceof FollowerState current && newState.leaderEpoch() == current.leaderEpoch()
                    && newState.leader() == current.leaderId() && current.log() == partitionLog) {
                current.updateWithinEpoch(newState, assignedReplicas);
                return false;
            }
            this.topicId = topicId;
            this.role = new FollowerState(topicPartition, newState, assignedReplicas, partitionLog);
            return true;
        });
    }

    /**
     * Writes an ISR change a leader state decided on (called with the lock held; the updater
     * never calls back on this thread); its result is applied under the write lock.
     */
    private void submitIsrChange(LeaderState.IsrChange change) {
        context.isrUpdater().update(topicPartition, change.proposed(),
            (newVersion, error) -> isrChangeWritten(change, newVersion, error));
    }

    /**
     * The write of an ISR change ended: no ISR change is in flight. When it landed it is counted
     * (even when this broker's ZooKeeper watch applied the stored state first) and applied if
     * this broker still leads that epoch with an older state; waiting requests are then told,
     * outside the lock.
     */
    private void isrChangeWritten(LeaderState.IsrChange change, Integer newVersion, Throwable error) {
        boolean changed = locked(leaderIsrUpdateLock.writeLock(), () -> {
            // As before the roles were split: any ended write, even one an earlier leader state
            // submitted, ends the change the current leader state has in flight.
            if (role instanceof LeaderState current) {
                current.isrChangeFinished();
            }
            if (error != null) {
                logger.info("{}: ISR change to {} not written ({}); waiting for the newer state", topicPartition,
                    change.proposed().isr(), error.getMessage());
                return false;
            }
            context.stats().recordIsrChange(change.isrSizeBefore(), change.proposed().isr().size());
            return role instanceof LeaderState current && current.applyWrittenIsr(change.proposed(), newVersion);
        });
        if (changed) {
            context.onStateChanged().accept(topicPartition);
        }
    }

    /**
     * A follower fetched at {@code fetchOffset}: records its progress, adds it to the ISR when it
     * has caught up, and moves the high watermark.
     *
     * @param leaderLogEndOffset the leader's log end offset when the fetch was read
     * @return whether the high watermark moved (waiting acks=all produces and fetches may complete)
     * @throws NotLeaderOrFollowerException when {@code replicaId} is not a replica of this partition
     */
    public boolean updateFollowerFetchState(int replicaId, LogOffsetMetadata fetchOffset, long followerStartOffset,
                                            long fetchTimeMs, long leaderLogEndOffset) {
        return locked(leaderIsrUpdateLock.readLock(), () -> {
            if (!(role instanceof LeaderState leader)) {
                throw new NotLeaderOrFollowerException("Broker " + replicaId + " is not a follower of " + topicPartition
                    + " led by " + leaderId() + " on broker " + localBrokerId);
            }
            return leader.updateFollowerFetchState(replicaId, fetchOffset, followerStartOffset, fetchTimeMs,
                leaderLogEndOffset);
        });
    }

    /**
     * Removes from the ISR every follower not caught up within {@code replica.lag.time.max.ms}.
     * Called periodically on every partition this broker leads.
     *
     * @return whether an ISR change was submitted
     */
    public boolean maybeShrinkIsr() {
        return locked(leaderIsrUpdateLock.readLock(), () -> role instanceof LeaderState leader && leader.maybeShrinkIsr());
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
        return appendRecordsToLeader(records, requiredAcks, minInSyncReplicas, AppendOrigin.CLIENT,
            VerificationGuard.NOT_REQUIRED);
    }

    /**
     * As {@link #appendRecordsToLeader(MemoryRecords, short, int)}, for a client holding
     * {@code requestGuard} (KIP-890 part 1) or a transaction coordinator's markers ({@link AppendOrigin#COORDINATOR}).
     */
    public LogAppendInfo appendRecordsToLeader(MemoryRecords records, short requiredAcks, int minInSyncReplicas,
                                               AppendOrigin origin, VerificationGuard requestGuard) {
        return locked(leaderIsrUpdateLock.readLock(), () -> {
            if (!(role instanceof LeaderState leader)) {
                throw new NotLeaderOrFollowerException("Leader not local for partition " + topicPartition
                    + " on broker " + localBrokerId);
            }
            return leader.appendRecords(records, requiredAcks, minInSyncReplicas, origin, requestGuard);
        });
    }

    /**
     * Prepares {@link #appendRecordsToLeader} for a caller that must not wait: null, holding
     * nothing, when this broker does not lead the partition, a lock is busy (a role or ISR change,
     * another append, a flush) or the append could block ({@link PartitionLog#tryLockForAppend}).
     */
    public LeaderAppend tryLockForLeaderAppend(MemoryRecords records) {
        Lock leaderLock = leaderIsrUpdateLock.readLock();
        if (!leaderLock.tryLock()) {
            return null;
        }
        boolean prepared = false;
        try {
            if (!(role instanceof LeaderState leader)) {
                return null;
            }
            PreparedAppend append = leader.log().tryLockForAppend(records, leader.leaderEpoch());
            if (append == null) {
                return null;
            }
            prepared = true;
            return new LeaderAppend(leader, append, leaderLock);
        } finally {
            if (!prepared) {
                leaderLock.unlock();
            }
        }
    }

    /**
     * Appends batches copied from the leader of {@code fetchLeaderEpoch} and takes the leader's
     * high watermark (bounded by the local log end) and log start offset.
     *
     * @return what was appended, or empty when the partition changed role or epoch meanwhile
     */
    public Optional<LogAppendInfo> appendRecordsToFollower(MemoryRecords records, int fetchLeaderEpoch,
                                                           long leaderHighWatermark, long leaderLogStartOffset) {
        return locked(leaderIsrUpdateLock.readLock(), () -> followerIn(fetchLeaderEpoch)
            .map(follower -> follower.appendRecords(records, leaderHighWatermark, leaderLogStartOffset)));
    }

    /**
     * Truncates the divergent suffix of this follower's log after the leader answered a fetch
     * with {@code DivergingEpoch} (KIP-595; the truncation rules of KIP-101 and KIP-279): to the
     * end of the largest epoch both logs share, never to the high watermark alone
     * ({@link FollowerState#truncateToDivergence} has the cases).
     *
     * @param fetchLeaderEpoch   the leader epoch the fetch was made in
     * @param leaderEpoch        the leader's epoch at or below the follower's last fetched epoch
     * @param leaderEpochEnd     where that epoch ends on the leader
     * @return the new log end offset, or empty when the partition changed role or epoch meanwhile
     */
    public Optional<Long> truncateToDivergence(int fetchLeaderEpoch, int leaderEpoch, long leaderEpochEnd) {
        return locked(leaderIsrUpdateLock.readLock(), () -> followerIn(fetchLeaderEpoch)
            .map(follower -> follower.truncateToDivergence(leaderEpoch, leaderEpochEnd)));
    }

    /**
     * This follower's fetch offset is outside the leader's log. Below the leader's log start, the
     * log restarts empty there; above the leader's log end (only possible without epochs to
     * compare), it truncates to the leader's high watermark, which the leader holds.
     *
     * @return the new log end offset, or empty when the partition changed role or epoch meanwhile
     */
    public Optional<Long> handleOffsetOutOfRange(int fetchLeaderEpoch, long fetchOffset, long leaderLogStartOffset,
                                                 long leaderHighWatermark) {
        return locked(leaderIsrUpdateLock.readLock(), () -> followerIn(fetchLeaderEpoch)
            .map(follower -> follower.handleOffsetOutOfRange(fetchOffset, leaderLogStartOffset, leaderHighWatermark)));
    }

    /** The follower state when this broker follows in {@code fetchLeaderEpoch} with a log. Caller holds a lock. */
    private Optional<FollowerState> followerIn(int fetchLeaderEpoch) {
        if (role instanceof FollowerState follower && follower.log() != null && follower.leaderEpoch() == fetchLeaderEpoch) {
            return Optional.of(follower);
        }
        return Optional.empty();
    }

    /**
     * Whether an acks=all produce up to {@code requiredOffset} (exclusive) is replicated.
     *
     * @return NONE when done, NOT_ENOUGH_REPLICAS_AFTER_APPEND when the ISR shrank below the minimum,
     *         NOT_LEADER_OR_FOLLOWER when leadership moved, or null while waiting
     */
    public Errors checkEnoughReplicasReachOffset(long requiredOffset, int minInSyncReplicas) {
        if (!(role instanceof LeaderState leader)) {
            return Errors.NOT_LEADER_OR_FOLLOWER;
        }
        return leader.checkEnoughReplicasReachOffset(requiredOffset, minInSyncReplicas);
    }

    /**
     * Reads for a follower, first checking its last fetched epoch against this leader's epochs:
     * a follower whose epoch ends here before its fetch offset (or that has an epoch this leader
     * never had) is told where to truncate instead of getting records.
     *
     * @throws FencedLeaderEpochException  when the follower's epoch is older than the leader's
     * @throws UnknownLeaderEpochException when it is newer
     * @throws NotLeaderOrFollowerException when this broker does not lead the partition
     * @throws OffsetOutOfRangeException   for an offset outside the log, or when this leader has
     *                                     no epoch at or below the follower's last fetched epoch
     */
    public FollowerRead readForFollower(long fetchOffset, int currentLeaderEpoch, int lastFetchedEpoch, int maxBytes,
                                        boolean minOneMessage) {
        return locked(leaderIsrUpdateLock.readLock(), () -> leaderFencing(currentLeaderEpoch)
            .readForFollower(fetchOffset, lastFetchedEpoch, maxBytes, minOneMessage));
    }

    /**
     * A consumer's read from this follower, up to its high watermark or, for read_committed, its
     * last stable offset (KIP-392), after checking
     * the consumer's leader epoch against the one this follower knows.
     *
     * @throws FencedLeaderEpochException  when the consumer's epoch is older
     * @throws UnknownLeaderEpochException when it is newer
     * @throws NotLeaderOrFollowerException when this broker has no log for it
     */
    public FetchDataInfo readAsFollower(long fetchOffset, int currentLeaderEpoch, int maxBytes, FetchIsolation isolation,
                                        boolean minOneMessage) {
        return locked(leaderIsrUpdateLock.readLock(), () -> {
            PartitionRole r = role;
            PartitionLog l = r == null ? null : r.log();
            if (l == null || r.leaderId() == LeaderAndIsr.NO_LEADER) {
                throw new NotLeaderOrFollowerException("No replica of " + topicPartition + " on broker " + localBrokerId);
            }
            checkClientEpoch(currentLeaderEpoch);
            return l.read(fetchOffset, maxBytes, isolation, minOneMessage);
        });
    }

    /** Fences a client's leader epoch against this replica's (KIP-320). */
    private void checkClientEpoch(int currentLeaderEpoch) {
        if (currentLeaderEpoch != RecordBatch.NO_PARTITION_LEADER_EPOCH) {
            int leaderEpoch = leaderEpoch();
            if (currentLeaderEpoch < leaderEpoch) {
                throw new FencedLeaderEpochException("The leader epoch " + currentLeaderEpoch + " of the request for "
                    + topicPartition + " is older than the current leader epoch " + leaderEpoch);
            }
            if (currentLeaderEpoch > leaderEpoch) {
                throw new UnknownLeaderEpochException("The leader epoch " + currentLeaderEpoch + " of the request for "
                    + topicPartition + " is newer than the current leader epoch " + leaderEpoch);
            }
        }
    }

    /** As leader: the in-sync followers that hold {@code fetchOffset}; none when not leader. */
    public List<ReadReplicaCandidate> readReplicaCandidates(long fetchOffset) {
        return role instanceof LeaderState leader ? leader.readReplicaCandidates(fetchOffset) : List.of();
    }

    /**
     * Reads as leader (or, for followers fetching, from the log end).
     *
     * @throws FencedLeaderEpochException  when the client's epoch is older than the leader's
     * @throws UnknownLeaderEpochException when the client's epoch is newer
     * @throws NotLeaderOrFollowerException when this broker does not lead the partition
     * @throws OffsetOutOfRangeException   for an offset outside the log
     */
    public FetchDataInfo read(long fetchOffset, int currentLeaderEpoch, int maxBytes, FetchIsolation isolation,
                              boolean minOneMessage) {
        return locked(leaderIsrUpdateLock.readLock(),
            () -> localLogAsLeader(currentLeaderEpoch).read(fetchOffset, maxBytes, isolation, minOneMessage));
    }

    /** The leader's log after checking the client's leader epoch (KIP-320). Caller holds a lock. */
    PartitionLog localLogAsLeader(int currentLeaderEpoch) {
        return leaderFencing(currentLeaderEpoch).log();
    }

    /**
     * The leader state after checking the client's leader epoch (KIP-320). Caller holds a lock.
     *
     * @throws NotLeaderOrFollowerException when this broker does not lead the partition
     */
    private LeaderState leaderFencing(int currentLeaderEpoch) {
        PartitionRole r = role;
        checkClientEpoch(currentLeaderEpoch);
        if (!(r instanceof LeaderState leader)) {
            throw new NotLeaderOrFollowerException("Leader not local for partition " + topicPartition + " on broker "
                + localBrokerId);
        }
        return leader;
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
        return locked(leaderIsrUpdateLock.readLock(),
            () -> leaderFencing(currentLeaderEpoch).fetchOffsetForTimestamp(timestamp, lastFetchableOffset));
    }

    /**
     * The end offset of the largest epoch at most {@code leaderEpoch} (OffsetForLeaderEpoch, KIP-101).
     */
    public EpochEntry lastOffsetForLeaderEpoch(int currentLeaderEpoch, int requestedEpoch) {
        return locked(leaderIsrUpdateLock.readLock(), () -> {
            PartitionLog l = localLogAsLeader(currentLeaderEpoch);
            return l.leaderEpochCache().endOffsetFor(requestedEpoch, l.logEndOffset());
        });
    }

    /**
     * Deletes records below {@code offset} (DeleteRecords); -1 means the high watermark.
     *
     * @return the new log start offset (low watermark)
     * @throws OffsetOutOfRangeException when the offset is above the high watermark
     */
    public long deleteRecordsOnLeader(long offset) {
        return locked(leaderIsrUpdateLock.readLock(),
            () -> leaderFencing(RecordBatch.NO_PARTITION_LEADER_EPOCH).deleteRecords(offset));
    }

    /** Runs {@code action} holding {@code lock} (this partition's read or write lock), as Kafka's {@code inReadLock}. */
    private static <T> T locked(Lock lock, Supplier<T> action) {
        lock.lock();
        try {
            return action.get();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        PartitionRole r = role;
        return "Partition(" + topicPartition + ", leader=" + leaderId() + ", leaderEpoch=" + leaderEpoch() + ", isr="
            + (r == null ? List.of() : r.isr()) + ")";
    }
}
