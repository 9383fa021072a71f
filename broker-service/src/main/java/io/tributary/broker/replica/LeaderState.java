package io.tributary.broker.replica;

import io.tributary.broker.cluster.LeaderAndIsr;
import io.tributary.broker.log.EpochEntry;
import io.tributary.broker.log.FetchIsolation;
import io.tributary.broker.log.LogAppendInfo;
import io.tributary.broker.log.LogOffsetMetadata;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.log.PreparedAppend;
import io.tributary.broker.producer.AppendOrigin;
import io.tributary.broker.producer.VerificationGuard;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.OffsetOutOfRangeException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ListOffsetsRequest;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This broker as leader of one partition in one leader epoch, as Kafka's raft {@code LeaderState}:
 * the ISR, the followers' fetch states, the high watermark's advance and the decisions to shrink
 * or expand the ISR. {@link Partition#makeLeader} makes a new one for each epoch it leads.
 *
 * <p>Invariants: the leader epoch, the log and the epoch's start offset are fixed for the
 * object's life. {@link #isr()} is the ISR of {@link #state()}, the partition state last applied
 * (from the controller or this leader's own ISR write). The maximal ISR (KIP-497) contains the
 * ISR, and differs from it only while an ISR change is in flight; it then also counts a follower
 * being added. The high watermark, which the log keeps, never goes back and never passes the
 * smallest log end offset in the maximal ISR; a follower of the maximal ISR whose offset is
 * unknown (no fetch yet in this epoch) holds it. There is one {@link FollowerReplica} per
 * assigned replica other than this broker.
 *
 * <p>Thread-safety: not thread-safe on its own; the caller holds {@link Partition}'s lock: the
 * write lock to change the ISR or replicas from a new partition state or a landed ISR write, at
 * least the read lock for the rest. Fetch handling (follower fetch states, ISR expansion, the high
 * watermark) and the ISR expiration task run under the read lock at once, as before the split:
 * {@link FollowerReplica} and the log are thread-safe, and the fields are volatile, so that the
 * lock-free readers ({@link #isr()}, {@link #checkEnoughReplicasReachOffset},
 * {@link #readReplicaCandidates}) see recent values.
 *
 * <p>Units: offsets are offsets of the partition's log; times are milliseconds of the
 * context's {@code Time}.
 */
final class LeaderState implements PartitionRole {

    private static final Logger logger = LoggerFactory.getLogger(LeaderState.class);

    /**
     * An ISR change this leader decided on, to be written conditionally on the version of the
     * state it saw.
     *
     * @param proposed      the current state with the new ISR (same leader, epoch and version)
     * @param isrSizeBefore the ISR's size when the change was decided, to count shrinks and expansions
     */
    record IsrChange(LeaderAndIsr proposed, int isrSizeBefore) {
    }

    /**
     * Where a leader state sends the ISR changes it decides on: {@link Partition} writes them
     * through its {@link IsrUpdater} and applies the result under its write lock. Called with
     * Partition's lock held; must not block or call back into this state.
     */
    @FunctionalInterface
    interface IsrChangeSubmitter {
        void submit(IsrChange change);
    }

    private final TopicPartition topicPartition;
    private final PartitionContext context;
    private final int localBrokerId;
    private final PartitionLog log;
    private final int leaderEpoch;
    private final long leaderEpochStartOffset;
    private final IsrChangeSubmitter isrChangeSubmitter;
    private final Map<Integer, FollowerReplica> followers = new ConcurrentHashMap<>();
    private volatile LeaderAndIsr state;
    private volatile List<Integer> replicas;
    private volatile boolean isrUpdateInFlight;
    /** The ISR plus a follower being added while the expansion is written, else the ISR (KIP-497's maximal ISR). */
    private volatile List<Integer> maximalIsr;

    /**
     * Starts leading {@code state.leaderEpoch()}: the epoch starts at the log end offset (assigned
     * in the log's leader epoch cache), the followers' offsets are learnt again from their next
     * fetches (an in-sync follower counts as caught up now), and the high watermark is recomputed.
     *
     * @param state the partition state that makes this broker leader
     */
    static LeaderState startEpoch(TopicPartition topicPartition, PartitionContext context, LeaderAndIsr state,
                                  List<Integer> assignedReplicas, PartitionLog log, IsrChangeSubmitter isrChangeSubmitter) {
        LeaderState leader = new LeaderState(topicPartition, context, state, assignedReplicas, log, isrChangeSubmitter);
        log.leaderEpochCache().assign(leader.leaderEpoch, leader.leaderEpochStartOffset);
        leader.maybeIncrementHighWatermark();
        return leader;
    }

    private LeaderState(TopicPartition topicPartition, PartitionContext context, LeaderAndIsr state,
                        List<Integer> assignedReplicas, PartitionLog log, IsrChangeSubmitter isrChangeSubmitter) {
        this.topicPartition = topicPartition;
        this.context = context;
        this.localBrokerId = context.localBrokerId();
        this.log = log;
        this.leaderEpoch = state.leaderEpoch();
        this.isrChangeSubmitter = isrChangeSubmitter;
        this.state = state;
        this.maximalIsr = state.isr();
        this.replicas = assignedReplicas;
        long now = context.time().milliseconds();
        for (int replica : assignedReplicas) {
            if (replica != localBrokerId) {
                FollowerReplica follower = new FollowerReplica(replica);
                follower.reset(now, state.isr().contains(replica));
                followers.put(replica, follower);
            }
        }
        this.leaderEpochStartOffset = log.logEndOffset();
    }

    @Override
    public int leaderId() {
        return localBrokerId;
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

    /** The log end offset when this epoch began: where its first batch goes. */
    long leaderEpochStartOffset() {
        return leaderEpochStartOffset;
    }

    /** The ISR the high watermark follows: the ISR, plus a follower whose addition is being written. */
    List<Integer> maximalIsr() {
        return maximalIsr;
    }

    boolean isrUpdateInFlight() {
        return isrUpdateInFlight;
    }

    /**
     * A partition state of this epoch: takes its ISR (unless older than the one applied), and
     * the assigned replicas, learning new followers and forgetting removed ones. Caller holds the
     * write lock.
     */
    void updateWithinEpoch(LeaderAndIsr newState, List<Integer> assignedReplicas) {
        if (PartitionRole.supersedes(newState, state)) {
            state = newState;
            if (!isrUpdateInFlight) {
                maximalIsr = newState.isr();
            }
        }
        replicas = assignedReplicas;
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

    /**
     * The high watermark follows the smallest log end offset in the maximal ISR (the ISR plus a
     * follower whose addition is being written, as KIP-497 has it: once the write lands that
     * follower is in sync, so it must already hold everything below the high watermark); a
     * follower whose offset is unknown (no fetch yet in this epoch) holds it. It never goes back,
     * and does not move while the ISR is smaller than {@code min.insync.replicas} capped at the
     * replica count (strict min ISR, KIP-966 and KAFKA-15583: acks=1 records written meanwhile are
     * not committed until enough replicas are in sync again).
     *
     * @return whether it moved
     */
    boolean maybeIncrementHighWatermark() {
        if (isr().size() < effectiveMinIsr(log.config().minInSyncReplicas())) {
            return false; // strict min ISR (KIP-966, KAFKA-15583): nothing is committed below min.insync.replicas
        }
        LogOffsetMetadata newHighWatermark = log.logEndOffsetMetadata();
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
        return log.maybeIncrementHighWatermark(newHighWatermark);
    }

    /**
     * Appends a producer's records in this epoch and moves the high watermark (at once when
     * this broker is the only one in the maximal ISR).
     *
     * @param requiredAcks      -1 (all), 0 or 1
     * @param minInSyncReplicas {@code min.insync.replicas} of the topic
     * @throws NotEnoughReplicasException with acks=all when the ISR is below {@code min.insync.replicas}
     */
    LogAppendInfo appendRecords(MemoryRecords records, short requiredAcks, int minInSyncReplicas) {
        return appendRecords(records, requiredAcks, minInSyncReplicas, AppendOrigin.CLIENT, VerificationGuard.NOT_REQUIRED);
    }

    /**
     * As {@link #appendRecords(MemoryRecords, short, int)}, for a client (holding {@code requestGuard},
     * KIP-890 part 1) or a coordinator's markers.
     */
    LogAppendInfo appendRecords(MemoryRecords records, short requiredAcks, int minInSyncReplicas, AppendOrigin origin,
                                VerificationGuard requestGuard) {
        checkEnoughInSync(requiredAcks, minInSyncReplicas);
        LogAppendInfo info = log.appendAsLeader(records, leaderEpoch, origin, requestGuard);
        maybeIncrementHighWatermark();
        return info;
    }

    /** As {@link #appendRecords}, through an append prepared with the log's locks held ({@link PartitionLog#tryLockForAppend}). */
    LogAppendInfo appendPrepared(PreparedAppend prepared, short requiredAcks, int minInSyncReplicas) {
        checkEnoughInSync(requiredAcks, minInSyncReplicas);
        LogAppendInfo info = prepared.append();
        maybeIncrementHighWatermark();
        return info;
    }

    private void checkEnoughInSync(short requiredAcks, int minInSyncReplicas) {
        List<Integer> isr = isr();
        int minIsr = effectiveMinIsr(minInSyncReplicas);
        if (requiredAcks == -1 && isr.size() < minIsr) {
            throw new NotEnoughReplicasException("The size of the current ISR " + isr + " is insufficient to satisfy "
                + "the min.isr requirement of " + minIsr + " for partition " + topicPartition);
        }
    }

    /** {@code min.insync.replicas} capped at the partition's replica count, as Kafka's {@code effectiveMinIsr}. */
    private int effectiveMinIsr(int minInSyncReplicas) {
        return Math.min(minInSyncReplicas, replicas.size());
    }

    /**
     * A follower fetched at {@code fetchOffset}: records its progress, adds it to the ISR when it
     * has caught up, and moves the high watermark.
     *
     * @param fetchTimeMs        when the fetch was read, ms
     * @param leaderLogEndOffset the leader's log end offset when the fetch was read
     * @return whether the high watermark moved
     * @throws NotLeaderOrFollowerException when {@code replicaId} is not a replica of this partition
     */
    boolean updateFollowerFetchState(int replicaId, LogOffsetMetadata fetchOffset, long followerStartOffset,
                                     long fetchTimeMs, long leaderLogEndOffset) {
        FollowerReplica follower = followers.get(replicaId);
        if (follower == null) {
            throw new NotLeaderOrFollowerException("Broker " + replicaId + " is not a follower of " + topicPartition
                + " led by " + localBrokerId + " on broker " + localBrokerId);
        }
        long before = follower.logEndOffset().messageOffset();
        follower.updateFetchState(fetchOffset, followerStartOffset, fetchTimeMs, leaderLogEndOffset);
        maybeExpandIsr(follower);
        return before != fetchOffset.messageOffset() && maybeIncrementHighWatermark();
    }

    /**
     * A follower out of the ISR rejoins once it holds everything up to the high watermark and
     * everything of this leader epoch (so it cannot miss a write acknowledged in it), unless an
     * ISR change is in flight or it may not join (not assigned, or not eligible).
     */
    private void maybeExpandIsr(FollowerReplica follower) {
        List<Integer> isr = isr();
        if (isrUpdateInFlight || isr.contains(follower.brokerId()) || !replicas.contains(follower.brokerId())
                || !context.isrEligible().test(topicPartition, follower.brokerId())) {
            return;
        }
        long end = follower.logEndOffset().messageOffset();
        if (end >= log.highWatermark() && end >= leaderEpochStartOffset) {
            List<Integer> newIsr = new ArrayList<>(isr);
            newIsr.add(follower.brokerId());
            submitIsrChange(newIsr, "expand: broker " + follower.brokerId() + " caught up at offset " + end);
        }
    }

    /**
     * Removes from the ISR every follower not caught up within {@code replica.lag.time.max.ms},
     * unless an ISR change is in flight.
     *
     * @return whether an ISR change was submitted
     */
    boolean maybeShrinkIsr() {
        if (isrUpdateInFlight) {
            return false;
        }
        long now = context.time().milliseconds();
        List<Integer> isr = isr();
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
        submitIsrChange(newIsr, "shrink: " + outOfSync + " not caught up within "
            + context.replicaLagTimeMaxMs() + " ms (log end offset " + log.logEndOffset() + ", high watermark "
            + log.highWatermark() + ", followers " + followers.values() + ")");
        return true;
    }

    /** Marks an ISR change in flight (the high watermark counts the old ISR and the new one) and submits it. */
    private void submitIsrChange(List<Integer> newIsr, String why) {
        LeaderAndIsr current = state;
        List<Integer> isr = current.isr();
        isrUpdateInFlight = true;
        // Until the write lands, the high watermark counts both the old ISR and the new one.
        List<Integer> union = new ArrayList<>(isr);
        newIsr.stream().filter(r -> !union.contains(r)).forEach(union::add);
        maximalIsr = List.copyOf(union);
        logger.info("{}: ISR {} -> {} in leader epoch {} ({})", topicPartition, isr, newIsr, leaderEpoch, why);
        isrChangeSubmitter.submit(new IsrChange(current.withIsr(newIsr), isr.size()));
    }

    /** The write of an ISR change ended, landed or not: no change is in flight. Caller holds the write lock. */
    void isrChangeFinished() {
        isrUpdateInFlight = false;
        maximalIsr = isr();
    }

    /**
     * An ISR change of this epoch landed as version {@code newVersion}: applied unless a newer
     * state was applied meanwhile, and the high watermark is recomputed. Caller holds the write lock.
     *
     * @return whether it was applied
     */
    boolean applyWrittenIsr(LeaderAndIsr proposed, int newVersion) {
        if (leaderEpoch != proposed.leaderEpoch() || state.zkVersion() >= newVersion) {
            return false;
        }
        state = new LeaderAndIsr(proposed.leader(), proposed.leaderEpoch(), proposed.isr(), proposed.controllerEpoch(),
            newVersion);
        maximalIsr = state.isr();
        maybeIncrementHighWatermark();
        return true;
    }

    /**
     * Reads for a follower, first checking its last fetched epoch against this leader's epochs
     * (KIP-595): a follower whose epoch ends here before its fetch offset, or that has an epoch
     * this leader never had, is told where that epoch ends here (its {@code DivergingEpoch})
     * instead of getting records.
     *
     * @param lastFetchedEpoch the epoch of the follower's last batch, or -1 when it has none
     * @throws OffsetOutOfRangeException when this leader has no epoch at or below the follower's
     *                                   (DivergingEpoch(-1, -1) would read as "no divergence"),
     *                                   or for an offset outside the log
     */
    FollowerRead readForFollower(long fetchOffset, int lastFetchedEpoch, int maxBytes, boolean minOneMessage) {
        long leaderEnd = log.logEndOffset();
        if (lastFetchedEpoch != RecordBatch.NO_PARTITION_LEADER_EPOCH) {
            EpochEntry end = log.leaderEpochCache().endOffsetFor(lastFetchedEpoch, leaderEnd);
            if (end.epoch() < 0 || end.startOffset() < 0) {
                throw new OffsetOutOfRangeException("Leader of " + topicPartition
                    + " has no epoch at or below the follower's last fetched epoch " + lastFetchedEpoch);
            }
            if (end.epoch() < lastFetchedEpoch || end.startOffset() < fetchOffset) {
                return new FollowerRead(end, null, leaderEnd);
            }
        }
        return new FollowerRead(null, log.read(fetchOffset, maxBytes, FetchIsolation.LOG_END, minOneMessage),
            leaderEnd);
    }

    /**
     * The offset for a ListOffsets timestamp, as {@link Partition#fetchOffsetForTimestamp}: the
     * log start (with the epoch holding it) for EARLIEST and EARLIEST_LOCAL, the last offset the
     * reader may see for LATEST, -1 for LATEST_TIERED and EARLIEST_PENDING_UPLOAD (no tiered
     * storage), else the first record at or after the time (or of the largest timestamp) below
     * {@code lastFetchableOffset}.
     */
    Optional<FileRecords.TimestampAndOffset> fetchOffsetForTimestamp(long timestamp, long lastFetchableOffset) {
        if (timestamp == ListOffsetsRequest.EARLIEST_TIMESTAMP || timestamp == ListOffsetsRequest.EARLIEST_LOCAL_TIMESTAMP) {
            long start = log.logStartOffset();
            EpochEntry startEpoch = epochHolding(start);
            return Optional.of(new FileRecords.TimestampAndOffset(RecordBatch.NO_TIMESTAMP, start,
                startEpoch == null ? Optional.empty() : Optional.of(startEpoch.epoch())));
        }
        if (timestamp == ListOffsetsRequest.LATEST_TIMESTAMP) {
            return Optional.of(new FileRecords.TimestampAndOffset(RecordBatch.NO_TIMESTAMP, lastFetchableOffset,
                Optional.of(leaderEpoch)));
        }
        if (timestamp == ListOffsetsRequest.LATEST_TIERED_TIMESTAMP
                || timestamp == ListOffsetsRequest.EARLIEST_PENDING_UPLOAD_TIMESTAMP) {
            // No tiered storage: nothing is tiered or waiting for upload.
            return Optional.of(new FileRecords.TimestampAndOffset(RecordBatch.NO_TIMESTAMP, -1, Optional.empty()));
        }
        Optional<FileRecords.TimestampAndOffset> found = timestamp == ListOffsetsRequest.MAX_TIMESTAMP
            ? log.fetchOffsetOfMaxTimestamp() : log.fetchOffsetByTimestamp(timestamp);
        return found.filter(t -> t.offset < lastFetchableOffset);
    }

    /** The last epoch starting at or before {@code offset}, or null. */
    private EpochEntry epochHolding(long offset) {
        EpochEntry holding = null;
        for (EpochEntry e : log.leaderEpochCache().entries()) {
            if (e.startOffset() <= offset) {
                holding = e;
            }
        }
        return holding;
    }

    /**
     * Deletes records below {@code offset} (DeleteRecords); -1 means the high watermark.
     *
     * @return the new log start offset (low watermark)
     * @throws OffsetOutOfRangeException when the offset is negative, or above the high watermark
     */
    long deleteRecords(long offset) {
        long target = offset == -1 ? log.highWatermark() : offset;
        if (target < 0) {
            throw new OffsetOutOfRangeException("Cannot delete records of " + topicPartition + " below offset " + offset);
        }
        log.maybeIncrementLogStartOffset(target, "DeleteRecords request");
        return log.logStartOffset();
    }

    /**
     * Whether an acks=all produce up to {@code requiredOffset} (exclusive) is replicated.
     *
     * @return NONE when done, NOT_ENOUGH_REPLICAS_AFTER_APPEND when the ISR shrank below the
     *         minimum, or null while waiting
     */
    Errors checkEnoughReplicasReachOffset(long requiredOffset, int minInSyncReplicas) {
        if (log.highWatermark() >= requiredOffset) {
            return isr().size() < effectiveMinIsr(minInSyncReplicas) ? Errors.NOT_ENOUGH_REPLICAS_AFTER_APPEND : Errors.NONE;
        }
        return null;
    }

    /** The in-sync followers that hold {@code fetchOffset}, for a consumer to read from (KIP-392). */
    List<ReadReplicaCandidate> readReplicaCandidates(long fetchOffset) {
        long now = context.time().milliseconds();
        List<Integer> isr = isr();
        List<ReadReplicaCandidate> out = new ArrayList<>();
        for (FollowerReplica follower : followers.values()) {
            long end = follower.logEndOffset().messageOffset();
            if (isr.contains(follower.brokerId()) && end >= fetchOffset) {
                out.add(new ReadReplicaCandidate(follower.brokerId(), end,
                    Math.max(0, now - follower.lastCaughtUpTimeMs())));
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return "LeaderState(" + topicPartition + ", leaderEpoch=" + leaderEpoch + ", isr=" + isr() + ", maximalIsr="
            + maximalIsr + ", followers=" + followers.values() + ")";
    }
}
