package io.tributary.broker.replica;

import io.tributary.broker.cluster.LeaderAndIsr;
import io.tributary.broker.log.EpochEntry;
import io.tributary.broker.log.FetchDataInfo;
import io.tributary.broker.log.FetchIsolation;
import io.tributary.broker.log.LogAppendInfo;
import io.tributary.broker.log.LogOffsetMetadata;
import io.tributary.broker.log.PartitionLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
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
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One partition as this broker replicates it: its role (leader or follower), leader epoch,
 * ISR and replicas, and its local log.
 *
 * <p>As leader it appends producers' batches, tracks each follower's log end offset from its
 * fetches, keeps the high watermark at the smallest log end offset in the ISR, shrinks the ISR
 * when a follower falls behind for {@code replica.lag.time.max.ms} and expands it when one
 * catches up (both written conditionally through the {@link IsrUpdater}), and tells a follower
 * where its log diverges (Fetch {@code DivergingEpoch}, KIP-595). As follower it appends what
 * its fetcher copies and takes the leader's high watermark. Leader-epoch fencing follows KIP-320.
 *
 * <p>Thread-safety: role and ISR changes hold the write lock; appends and reads hold the read
 * lock, so a read never sees a half-made role change.
 *
 * <p>About 780 lines, over the house limit: it is Kafka's Partition, where the leader's, the
 * follower's and the consumer-on-follower paths must check role and epoch under one lock;
 * splitting them would split that lock. Offsets by time and record deletion could move out.
 */
public final class Partition {

    private static final Logger logger = LoggerFactory.getLogger(Partition.class);

    /**
     * What every partition of a broker shares.
     *
     * @param localBrokerId       this broker
     * @param isrUpdater          where ISR changes are written
     * @param time                clock for lag checks
     * @param replicaLagTimeMaxMs {@code replica.lag.time.max.ms}
     * @param onStateChanged      called (outside locks) when the high watermark or ISR changed
     *                            asynchronously, so waiting requests can complete
     * @param isrEligible         whether a broker may join a partition's ISR: registered, not in
     *                            controlled shutdown (KIP-841), its replica online and not being
     *                            removed by a reassignment
     * @param stats               where written ISR shrinks and expansions are counted
     */
    public record Context(int localBrokerId, IsrUpdater isrUpdater, Time time, long replicaLagTimeMaxMs,
                          Consumer<TopicPartition> onStateChanged,
                          java.util.function.BiPredicate<TopicPartition, Integer> isrEligible, ReplicaStats stats) {
    }

    private final TopicPartition topicPartition;
    private final Context context;
    private final int localBrokerId;
    private final ReentrantReadWriteLock leaderIsrUpdateLock = new ReentrantReadWriteLock();
    private final Map<Integer, FollowerReplica> followers = new ConcurrentHashMap<>();
    private volatile Uuid topicId;
    private volatile PartitionLog log;
    private volatile int leaderId = LeaderAndIsr.NO_LEADER;
    private volatile int leaderEpoch = -1;
    private volatile long leaderEpochStartOffset = -1;
    private volatile LeaderAndIsr state;
    private volatile List<Integer> isr = List.of();
    private volatile List<Integer> replicas = List.of();
    private volatile boolean isrUpdateInFlight;
    /** The ISR plus a follower being added while the expansion is written, else the ISR (KIP-497's maximal ISR). */
    private volatile List<Integer> maximalIsr = List.of();

    public Partition(TopicPartition topicPartition, Context context) {
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

    /** The version of the partition state this broker last applied or wrote, or -1. */
    int stateVersion() {
        LeaderAndIsr s = state;
        return s == null ? -1 : s.zkVersion();
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
        leaderIsrUpdateLock.writeLock().lock();
        try {
            if (newState.leaderEpoch() < leaderEpoch) {
                return false;
            }
            if (newState.leaderEpoch() == leaderEpoch && isLeader() && log == partitionLog) {
                updateWithinEpoch(newState, assignedReplicas);
                maybeIncrementLeaderHighWatermark();
                return false;
            }
            this.topicId = topicId;
            this.log = partitionLog;
            this.leaderId = localBrokerId;
            this.leaderEpoch = newState.leaderEpoch();
            this.state = newState;
            this.isr = newState.isr();
            this.maximalIsr = newState.isr();
            this.replicas = assignedReplicas;
            this.isrUpdateInFlight = false;
            long now = context.time().milliseconds();
            followers.clear();
            for (int replica : assignedReplicas) {
                if (replica != localBrokerId) {
                    FollowerReplica follower = new FollowerReplica(replica);
                    follower.reset(now, newState.isr().contains(replica));
                    followers.put(replica, follower);
                }
            }
            leaderEpochStartOffset = partitionLog.logEndOffset();
            partitionLog.leaderEpochCache().assign(newState.leaderEpoch(), leaderEpochStartOffset);
            maybeIncrementLeaderHighWatermark();
            return true;
        } finally {
            leaderIsrUpdateLock.writeLock().unlock();
        }
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
        leaderIsrUpdateLock.writeLock().lock();
        try {
            if (newState.leaderEpoch() < leaderEpoch) {
                return false;
            }
            if (newState.leaderEpoch() == leaderEpoch && newState.leader() == leaderId && !isLeader()
                    && log == partitionLog) {
                updateWithinEpoch(newState, assignedReplicas);
                return false;
            }
            this.topicId = topicId;
            this.log = partitionLog;
            this.leaderId = newState.leader();
            this.leaderEpoch = newState.leaderEpoch();
            this.state = newState;
            this.isr = newState.isr();
            this.maximalIsr = newState.isr();
            this.replicas = assignedReplicas;
            this.isrUpdateInFlight = false;
            this.leaderEpochStartOffset = -1;
            followers.clear();
            return true;
        } finally {
            leaderIsrUpdateLock.writeLock().unlock();
        }
    }

    /** Caller holds the write lock. */
    private void updateWithinEpoch(LeaderAndIsr newState, List<Integer> assignedReplicas) {
        if (state == null || newState.zkVersion() >= state.zkVersion() || newState.zkVersion() < 0) {
            state = newState;
            isr = newState.isr();
            if (!isrUpdateInFlight) {
                maximalIsr = newState.isr();
            }
        }
        replicas = assignedReplicas;
        if (isLeader()) {
            long now = context.time().milliseconds();
            for (int replica : assignedReplicas) {
                if (replica != localBrokerId) {
                    followers.computeIfAbsent(replica, id -> {
                        FollowerReplica follower = new FollowerReplica(id);
                        follower.reset(now, false);
                        return follower;
                    });
                }
            }
            followers.keySet().retainAll(assignedReplicas);
        }
    }

    /**
     * The high watermark follows the smallest log end offset in the maximal ISR (the ISR plus a
     * follower whose addition is being written, as KIP-497 has it: once the write lands that
     * follower is in sync, so it must already hold everything below the high watermark); a
     * follower whose offset is unknown (no fetch yet in this epoch) holds it. Caller holds a lock.
     *
     * @return whether it moved
     */
    boolean maybeIncrementLeaderHighWatermark() {
        PartitionLog l = log;
        if (l == null || !isLeader()) {
            return false;
        }
        LogOffsetMetadata newHighWatermark = l.logEndOffsetMetadata();
        for (int replica : maximalIsr) {
            if (replica == localBrokerId) {
                continue;
            }
            FollowerReplica follower = followers.get(replica);
            if (follower == null) {
                continue;
            }
            LogOffsetMetadata end = follower.logEndOffset();
            if (end.messageOffset() < newHighWatermark.messageOffset()) {
                newHighWatermark = end;
            }
        }
        if (newHighWatermark.messageOffset() < 0) {
            return false;
        }
        return l.maybeIncrementHighWatermark(newHighWatermark);
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
        leaderIsrUpdateLock.readLock().lock();
        try {
            FollowerReplica follower = followers.get(replicaId);
            if (follower == null || !isLeader()) {
                throw new NotLeaderOrFollowerException("Broker " + replicaId + " is not a follower of " + topicPartition
                    + " led by " + leaderId + " on broker " + localBrokerId);
            }
            long before = follower.logEndOffset().messageOffset();
            follower.updateFetchState(fetchOffset, followerStartOffset, fetchTimeMs, leaderLogEndOffset);
            maybeExpandIsr(follower);
            return before != fetchOffset.messageOffset() && maybeIncrementLeaderHighWatermark();
        } finally {
            leaderIsrUpdateLock.readLock().unlock();
        }
    }

    /**
     * A follower out of the ISR rejoins once it holds everything up to the high watermark and
     * everything of the current leader epoch (so it cannot miss a write acknowledged in it).
     * Caller holds a lock.
     */
    private void maybeExpandIsr(FollowerReplica follower) {
        PartitionLog l = log;
        if (l == null || isrUpdateInFlight || isr.contains(follower.brokerId()) || !replicas.contains(follower.brokerId())
                || !context.isrEligible().test(topicPartition, follower.brokerId())) {
            return;
        }
        long end = follower.logEndOffset().messageOffset();
        if (end >= l.highWatermark() && end >= leaderEpochStartOffset) {
            List<Integer> newIsr = new ArrayList<>(isr);
            newIsr.add(follower.brokerId());
            submitIsrUpdate(newIsr, "expand: broker " + follower.brokerId() + " caught up at offset " + end);
        }
    }

    /**
     * Removes from the ISR every follower not caught up within {@code replica.lag.time.max.ms}.
     * Called periodically on every partition this broker leads.
     *
     * @return whether an ISR change was submitted
     */
    public boolean maybeShrinkIsr() {
        leaderIsrUpdateLock.readLock().lock();
        try {
            if (!isLeader() || isrUpdateInFlight || log == null) {
                return false;
            }
            long now = context.time().milliseconds();
            List<Integer> outOfSync = new ArrayList<>();
            for (int replica : isr) {
                FollowerReplica follower = followers.get(replica);
                if (replica != localBrokerId && (follower == null
                        || now - follower.lastCaughtUpTimeMs() > context.replicaLagTimeMaxMs())) {
                    outOfSync.add(replica);
                }
            }
            if (outOfSync.isEmpty()) {
                return false;
            }
            List<Integer> newIsr = new ArrayList<>(isr);
            newIsr.removeAll(outOfSync);
            submitIsrUpdate(newIsr, "shrink: " + outOfSync + " not caught up within "
                + context.replicaLagTimeMaxMs() + " ms (log end offset " + log.logEndOffset() + ", high watermark "
                + log.highWatermark() + ", followers " + followers.values() + ")");
            return true;
        } finally {
            leaderIsrUpdateLock.readLock().unlock();
        }
    }

    /** Writes a new ISR; applied locally once stored. Caller holds a lock. */
    private void submitIsrUpdate(List<Integer> newIsr, String why) {
        LeaderAndIsr current = state;
        if (current == null) {
            return;
        }
        isrUpdateInFlight = true;
        // Until the write lands, the high watermark counts both the old ISR and the new one.
        List<Integer> union = new ArrayList<>(isr);
        newIsr.stream().filter(r -> !union.contains(r)).forEach(union::add);
        maximalIsr = List.copyOf(union);
        LeaderAndIsr proposed = current.withIsr(newIsr);
        int sizeBefore = isr.size();
        logger.info("{}: ISR {} -> {} in leader epoch {} ({})", topicPartition, isr, newIsr, leaderEpoch, why);
        context.isrUpdater().update(topicPartition, proposed, (newVersion, error) -> {
            boolean changed = false;
            leaderIsrUpdateLock.writeLock().lock();
            try {
                isrUpdateInFlight = false;
                maximalIsr = isr;
                if (error != null) {
                    logger.info("{}: ISR change to {} not written ({}); waiting for the newer state", topicPartition, newIsr,
                        error.getMessage());
                    return;
                }
                // The conditional write landed: this leader changed the ISR, even when its ZooKeeper
                // watch has already applied the stored state.
                context.stats().recordIsrChange(sizeBefore, newIsr.size());
                if (isLeader() && leaderEpoch == proposed.leaderEpoch()
                        && (state == null || state.zkVersion() < newVersion)) {
                    state = new LeaderAndIsr(proposed.leader(), proposed.leaderEpoch(), newIsr, proposed.controllerEpoch(),
                        newVersion);
                    isr = state.isr();
                    maximalIsr = isr;
                    maybeIncrementLeaderHighWatermark();
                    changed = true;
                }
            } finally {
                leaderIsrUpdateLock.writeLock().unlock();
            }
            if (changed) {
                context.onStateChanged().accept(topicPartition);
            }
        });
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
     * Appends batches copied from the leader of {@code fetchLeaderEpoch} and takes the leader's
     * high watermark (bounded by the local log end) and log start offset.
     *
     * @return what was appended, or empty when the partition changed role or epoch meanwhile
     */
    public Optional<LogAppendInfo> appendRecordsToFollower(MemoryRecords records, int fetchLeaderEpoch,
                                                           long leaderHighWatermark, long leaderLogStartOffset) {
        leaderIsrUpdateLock.readLock().lock();
        try {
            PartitionLog l = log;
            if (isLeader() || l == null || leaderEpoch != fetchLeaderEpoch) {
                return Optional.empty();
            }
            maybeRestartEmptyLogAtBatch(l, records);
            LogAppendInfo info = l.appendAsFollower(records);
            l.maybeIncrementHighWatermark(LogOffsetMetadata.unknownPosition(Math.min(leaderHighWatermark, l.logEndOffset())));
            if (leaderLogStartOffset > l.logStartOffset() && leaderLogStartOffset <= l.highWatermark()) {
                l.maybeIncrementLogStartOffset(leaderLogStartOffset, "leader's log start offset moved");
            }
            return Optional.of(info);
        } finally {
            leaderIsrUpdateLock.readLock().unlock();
        }
    }

    /**
     * Truncates the divergent suffix of this follower's log after the leader answered a fetch
     * with {@code DivergingEpoch} (KIP-595; the truncation rules of KIP-101 and KIP-279): to the
     * end of the largest epoch both logs share, never to the high watermark alone.
     *
     * @param fetchLeaderEpoch   the leader epoch the fetch was made in
     * @param leaderEpoch        the leader's epoch at or below the follower's last fetched epoch
     * @param leaderEpochEnd     where that epoch ends on the leader
     * @return the new log end offset, or empty when the partition changed role or epoch meanwhile
     */
    public Optional<Long> truncateToDivergence(int fetchLeaderEpoch, int leaderEpoch, long leaderEpochEnd) {
        leaderIsrUpdateLock.readLock().lock();
        try {
            PartitionLog l = log;
            if (isLeader() || l == null || this.leaderEpoch != fetchLeaderEpoch) {
                return Optional.empty();
            }
            long end = l.logEndOffset();
            long target;
            String why;
            if (leaderEpochEnd < 0) {
                target = l.highWatermark();
                why = "the leader knows no end of its epoch " + leaderEpoch + ": to the high watermark";
            } else {
                EpochEntry local = l.leaderEpochCache().endOffsetFor(leaderEpoch, end);
                if (local.epoch() < 0) {
                    target = Math.min(leaderEpochEnd, end);
                    why = "no local epoch at or below the leader's epoch " + leaderEpoch;
                } else if (local.epoch() != leaderEpoch) {
                    target = Math.min(local.startOffset(), end);
                    why = "local epoch " + local.epoch() + " ends at " + local.startOffset() + ", the leader has epoch "
                        + leaderEpoch + " ending at " + leaderEpochEnd + "; fetching on resolves the rest";
                } else {
                    target = Math.min(leaderEpochEnd, local.startOffset());
                    why = "epoch " + leaderEpoch + " ends at " + leaderEpochEnd + " on the leader and at "
                        + local.startOffset() + " here";
                }
            }
            l.truncateTo(target);
            // An epoch this broker started as leader without writing to it has an entry but no batch.
            l.leaderEpochCache().truncateFromEnd(target);
            logger.info("{}: truncated the divergent log suffix to offset {} (log end offset was {}; {})", topicPartition,
                l.logEndOffset(), end, why);
            return Optional.of(l.logEndOffset());
        } finally {
            leaderIsrUpdateLock.readLock().unlock();
        }
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
        leaderIsrUpdateLock.readLock().lock();
        try {
            PartitionLog l = log;
            if (isLeader() || l == null || this.leaderEpoch != fetchLeaderEpoch) {
                return Optional.empty();
            }
            if (leaderLogStartOffset >= 0 && fetchOffset < leaderLogStartOffset) {
                logger.warn("{}: fetch offset {} is below the leader's log start offset {}; restarting the log there",
                    topicPartition, fetchOffset, leaderLogStartOffset);
                l.truncateFullyAndStartAt(leaderLogStartOffset);
            } else if (leaderHighWatermark >= 0 && leaderHighWatermark < l.logEndOffset()) {
                logger.warn("{}: fetch offset {} is beyond the leader's log; truncating to its high watermark {}",
                    topicPartition, fetchOffset, leaderHighWatermark);
                l.truncateTo(leaderHighWatermark);
                l.leaderEpochCache().truncateFromEnd(leaderHighWatermark);
            }
            return Optional.of(l.logEndOffset());
        } finally {
            leaderIsrUpdateLock.readLock().unlock();
        }
    }

    /**
     * An empty follower log that starts inside the leader's first batch (the leader's log start
     * offset moved into a batch, e.g. by DeleteRecords) cannot append that batch: it restarts at
     * the batch's base offset instead, as Kafka's followers do (KAFKA-5211).
     */
    private void maybeRestartEmptyLogAtBatch(PartitionLog l, MemoryRecords records) {
        var batches = records.batches().iterator();
        if (!batches.hasNext()) {
            return;
        }
        RecordBatch first = batches.next();
        long end = l.logEndOffset();
        if (end == l.logStartOffset() && first.baseOffset() < end && first.lastOffset() >= end && l.size() == 0) {
            logger.info("{}: the leader's batch {}..{} straddles this empty log's start {}; restarting the log at {}",
                topicPartition, first.baseOffset(), first.lastOffset(), end, first.baseOffset());
            l.truncateFullyAndStartAt(first.baseOffset());
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
     * A follower's read: where its log diverges from this leader's, or the batches from its fetch
     * offset to the log end.
     *
     * @param divergingEpoch null, or the leader's (epoch, end offset) for the follower's last
     *                       fetched epoch when the follower's log diverges there (KIP-595)
     * @param data           the read, or null when diverging
     * @param leaderLogEndOffset the leader's log end offset at the read
     */
    public record FollowerRead(EpochEntry divergingEpoch, FetchDataInfo data, long leaderLogEndOffset) {
    }

    /**
     * Reads for a follower, first checking its last fetched epoch against this leader's epochs:
     * a follower whose epoch ends here before its fetch offset (or that has an epoch this leader
     * never had) is told where to truncate instead of getting records.
     *
     * @throws FencedLeaderEpochException  when the follower's epoch is older than the leader's
     * @throws UnknownLeaderEpochException when it is newer
     * @throws NotLeaderOrFollowerException when this broker does not lead the partition
     * @throws org.apache.kafka.common.errors.OffsetOutOfRangeException for an offset outside the log
     */
    public FollowerRead readForFollower(long fetchOffset, int currentLeaderEpoch, int lastFetchedEpoch, int maxBytes,
                                        boolean minOneMessage) {
        leaderIsrUpdateLock.readLock().lock();
        try {
            PartitionLog l = localLogAsLeader(currentLeaderEpoch);
            long leaderEnd = l.logEndOffset();
            if (lastFetchedEpoch != RecordBatch.NO_PARTITION_LEADER_EPOCH) {
                EpochEntry end = l.leaderEpochCache().endOffsetFor(lastFetchedEpoch, leaderEnd);
                if (end.epoch() < 0 || end.startOffset() < 0) {
                    // No epoch at or below the follower's here: DivergingEpoch(-1, -1) would read as "none".
                    throw new org.apache.kafka.common.errors.OffsetOutOfRangeException("Leader of " + topicPartition
                        + " has no epoch at or below the follower's last fetched epoch " + lastFetchedEpoch);
                }
                if (end.epoch() < lastFetchedEpoch || end.startOffset() < fetchOffset) {
                    return new FollowerRead(end, null, leaderEnd);
                }
            }
            return new FollowerRead(null, l.read(fetchOffset, maxBytes, FetchIsolation.LOG_END, minOneMessage), leaderEnd);
        } finally {
            leaderIsrUpdateLock.readLock().unlock();
        }
    }

    /**
     * A consumer's read from this follower, up to its high watermark (KIP-392), after checking
     * the consumer's leader epoch against the one this follower knows.
     *
     * @throws FencedLeaderEpochException  when the consumer's epoch is older
     * @throws UnknownLeaderEpochException when it is newer
     * @throws NotLeaderOrFollowerException when this broker has no log for it
     */
    public FetchDataInfo readAsFollower(long fetchOffset, int currentLeaderEpoch, int maxBytes, boolean minOneMessage) {
        leaderIsrUpdateLock.readLock().lock();
        try {
            PartitionLog l = log;
            if (l == null || leaderId == LeaderAndIsr.NO_LEADER) {
                throw new NotLeaderOrFollowerException("No replica of " + topicPartition + " on broker " + localBrokerId);
            }
            checkClientEpoch(currentLeaderEpoch);
            return l.read(fetchOffset, maxBytes, FetchIsolation.HIGH_WATERMARK, minOneMessage);
        } finally {
            leaderIsrUpdateLock.readLock().unlock();
        }
    }

    /** Fences a client's leader epoch against this replica's (KIP-320). */
    private void checkClientEpoch(int currentLeaderEpoch) {
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
    }

    /**
     * A follower a consumer could read {@code fetchOffset} from (KIP-392).
     *
     * @param brokerId           the follower
     * @param logEndOffset       its log end offset as of its last fetch
     * @param timeSinceCaughtUpMs how long since it was last caught up, ms
     */
    public record ReadReplicaCandidate(int brokerId, long logEndOffset, long timeSinceCaughtUpMs) {
    }

    /** As leader: the in-sync followers that hold {@code fetchOffset}. */
    public List<ReadReplicaCandidate> readReplicaCandidates(long fetchOffset) {
        long now = context.time().milliseconds();
        List<ReadReplicaCandidate> out = new ArrayList<>();
        for (FollowerReplica follower : followers.values()) {
            long end = follower.logEndOffset().messageOffset();
            if (isr.contains(follower.brokerId()) && end >= fetchOffset) {
                out.add(new ReadReplicaCandidate(follower.brokerId(), end, Math.max(0, now - follower.lastCaughtUpTimeMs())));
            }
        }
        return out;
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
        checkClientEpoch(currentLeaderEpoch);
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
