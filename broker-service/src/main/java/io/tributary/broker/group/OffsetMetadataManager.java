package io.tributary.broker.group;

import io.tributary.broker.producer.VerificationGuard;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Committed offsets of the groups this broker coordinates (Kafka's OffsetMetadataManager):
 * OffsetCommit, OffsetFetch, OffsetDelete and offset expiry (KIP-211, KIP-496). Offsets live in
 * each {@link ClassicGroup} and are written to {@code __consumer_offsets} through
 * {@link GroupMetadataManager}; every write happens under the group's monitor, so the records of
 * one group reach the log in the order of its operations.
 *
 * <p>Thread-safe: each operation holds the monitor of the group it works on.
 */
final class OffsetMetadataManager {

    private static final Logger log = LoggerFactory.getLogger(OffsetMetadataManager.class);

    private final GroupMetadataManager groups;
    private final RebalanceCoordinator rebalance;
    private final GroupTopics topics;
    private final int offsetMetadataMaxBytes;
    private final long offsetsRetentionMs;
    private final Time time;

    /**
     * @param offsetMetadataMaxBytes {@code offset.metadata.max.bytes}
     * @param offsetsRetentionMs     {@code offsets.retention.minutes}, in ms
     * @param topics                 the cluster's topics, to find the topic id of a committed partition
     */
    OffsetMetadataManager(GroupMetadataManager groups, RebalanceCoordinator rebalance, int offsetMetadataMaxBytes,
                          long offsetsRetentionMs, GroupTopics topics, Time time) {
        this.groups = groups;
        this.rebalance = rebalance;
        this.topics = topics;
        this.offsetMetadataMaxBytes = offsetMetadataMaxBytes;
        this.offsetsRetentionMs = offsetsRetentionMs;
        this.time = time;
    }

    /**
     * OffsetCommit: from a member of the current generation, or, with generation -1, from a
     * consumer that assigns partitions itself (the group must then have no members). The
     * commit is written to the offsets topic under the group's monitor, so it is ordered with
     * the group's other writes (a deletion's tombstones); until the write completes its
     * partitions are pending, and neither expiry nor deletion loses it.
     *
     * @return an error per partition
     */
    CompletableFuture<Map<TopicPartition, Errors>> commit(GroupCoordinator.OffsetCommit request) {
        String groupId = request.groupId();
        Map<TopicPartition, Errors> results = new LinkedHashMap<>();
        Errors error = servingError(groupId);
        if (error != Errors.NONE) {
            request.commits().keySet().forEach(tp -> results.put(tp, error));
            return CompletableFuture.completedFuture(results);
        }
        long now = time.milliseconds();
        long expireTimestamp = request.retentionTimeMs() < 0 ? OffsetAndMetadata.NO_EXPIRE_TIMESTAMP
            : now + request.retentionTimeMs();
        Map<TopicPartition, OffsetAndMetadata> valid = validCommits(request.commits(), now, expireTimestamp, results);
        ClassicGroup group = groups.group(groupId);
        if (group == null) {
            if (request.generationId() >= 0) {
                // Kafka: GROUP_ID_NOT_FOUND from OffsetCommit v9, ILLEGAL_GENERATION before.
                Errors unknown = request.apiVersion() >= 9 ? Errors.GROUP_ID_NOT_FOUND : Errors.ILLEGAL_GENERATION;
                valid.keySet().forEach(tp -> results.put(tp, unknown));
                return CompletableFuture.completedFuture(results);
            }
            group = groups.getOrCreate(groupId);
        }
        CompletableFuture<Errors> stored;
        ClassicGroup target = group;
        synchronized (group) {
            Errors groupError = commitError(group, request.generationId(), request.memberId(),
                request.groupInstanceId(), request.apiVersion(), valid.keySet());
            if (groupError != Errors.NONE || valid.isEmpty()) {
                valid.keySet().forEach(tp -> results.put(tp, groupError));
                return CompletableFuture.completedFuture(results);
            }
            if (request.generationId() >= 0 && group.consumerGroup() == null) {
                rebalance.touch(group, request.memberId());
            }
            valid.keySet().forEach(group::addPendingCommit);
            stored = groups.storeOffsets(groupId, valid);
        }
        return stored.thenApply(storeError -> {
            synchronized (target) {
                valid.keySet().forEach(target::removePendingCommit);
                if (storeError == Errors.NONE && !target.is(GroupState.DEAD)) {
                    valid.forEach(target::commit);
                }
            }
            valid.keySet().forEach(tp -> results.put(tp, storeError));
            return results;
        });
    }

    /**
     * TxnOffsetCommit (KIP-98, KIP-447): offsets written as the producer's transactional batch,
     * pending until its transaction's marker; the group is created if it does not exist. With a
     * member id and generation (v3+, KIP-447) they are checked as a commit's; without (older
     * clients), any producer may commit. First the transaction is verified (KIP-890 part 1): the
     * group's offsets partition must be in the producer's ongoing transaction, else the commit is
     * answered the verification's error (as {@link GroupMetadataManager#toCoordinatorError} maps it)
     * and nothing is written.
     *
     * @return an error per partition
     */
    CompletableFuture<Map<TopicPartition, Errors>> commitTransactional(GroupCoordinator.TxnOffsetCommit request,
                                                                       TransactionVerifier verifier) {
        Errors error = servingError(request.groupId());
        if (error != Errors.NONE) {
            return CompletableFuture.completedFuture(all(request, error));
        }
        return verifier.verify(groups.offsetsPartition(request.groupId()), request.transactionalId(),
                request.producerId(), request.producerEpoch())
            .thenCompose(verification -> verification.error() == Errors.NONE
                ? storeTransactional(request, verification.guard())
                : CompletableFuture.completedFuture(all(request,
                    GroupMetadataManager.toCoordinatorError(verification.error(), true))));
    }

    private CompletableFuture<Map<TopicPartition, Errors>> storeTransactional(GroupCoordinator.TxnOffsetCommit request,
                                                                             VerificationGuard guard) {
        String groupId = request.groupId();
        Map<TopicPartition, Errors> results = new LinkedHashMap<>();
        Map<TopicPartition, OffsetAndMetadata> valid = validCommits(request.commits(), time.milliseconds(),
            OffsetAndMetadata.NO_EXPIRE_TIMESTAMP, results);
        ClassicGroup group = groups.getOrCreate(groupId);
        CompletableFuture<Errors> stored;
        synchronized (group) {
            Errors groupError = group.is(GroupState.DEAD) ? Errors.COORDINATOR_NOT_AVAILABLE
                : group.shareGroup() != null ? Errors.GROUP_ID_NOT_FOUND
                : request.generationId() < 0 || request.memberId() == null || request.memberId().isEmpty() ? Errors.NONE
                : commitError(group, request.generationId(), request.memberId(), request.groupInstanceId(),
                    OffsetCommitEpochs.TRANSACTIONAL, valid.keySet());
            if (groupError != Errors.NONE || valid.isEmpty()) {
                valid.keySet().forEach(tp -> results.put(tp, groupError));
                return CompletableFuture.completedFuture(results);
            }
            stored = groups.storeTransactionalOffsets(groupId, request.producerId(), request.producerEpoch(), valid, guard);
        }
        return stored.thenApply(storeError -> {
            if (storeError == Errors.NONE) {
                groups.transactionalOffsets().add(request.producerId(), groupId, valid);
            }
            valid.keySet().forEach(tp -> results.put(tp, storeError));
            return results;
        });
    }

    private static Map<TopicPartition, Errors> all(GroupCoordinator.TxnOffsetCommit request, Errors error) {
        Map<TopicPartition, Errors> results = new LinkedHashMap<>();
        request.commits().keySet().forEach(tp -> results.put(tp, error));
        return results;
    }

    /** INVALID_GROUP_ID, or whether this broker serves the group now ({@link GroupMetadataManager#coordinatorError}). */
    private Errors servingError(String groupId) {
        return GroupCoordinator.invalidGroupId(groupId) ? Errors.INVALID_GROUP_ID : groups.coordinatorError(groupId);
    }

    /**
     * The commits to write, stamped with {@code now} and {@code expireTimestamp}; one whose metadata
     * is over {@code offset.metadata.max.bytes} gets OFFSET_METADATA_TOO_LARGE in {@code results}.
     */
    private Map<TopicPartition, OffsetAndMetadata> validCommits(Map<TopicPartition, GroupCoordinator.CommitRequest> commits,
                                                                long now, long expireTimestamp,
                                                                Map<TopicPartition, Errors> results) {
        Map<TopicPartition, OffsetAndMetadata> valid = new LinkedHashMap<>();
        commits.forEach((tp, c) -> {
            if (c.metadata() != null && c.metadata().length() > offsetMetadataMaxBytes) {
                results.put(tp, Errors.OFFSET_METADATA_TOO_LARGE);
            } else {
                valid.put(tp, new OffsetAndMetadata(c.offset(), c.leaderEpoch(), c.metadata(), now, expireTimestamp));
            }
        });
        return valid;
    }

    /**
     * Kafka's order (ClassicGroup#validateOffsetCommit): a simple commit to an empty group is
     * accepted; otherwise the member, then the generation, and only then a pending assignment.
     * A consumer group checks the member epoch against the partitions' assignment epochs
     * ({@link OffsetCommitEpochs}, KIP-1251).
     *
     * @param apiVersion the OffsetCommit version, or {@link OffsetCommitEpochs#TRANSACTIONAL}
     * @param partitions the partitions committed
     */
    private Errors commitError(ClassicGroup group, int generationId, String memberId, String groupInstanceId,
                               short apiVersion, Set<TopicPartition> partitions) {
        if (group.is(GroupState.DEAD)) {
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        if (group.shareGroup() != null) {
            return Errors.GROUP_ID_NOT_FOUND; // as Kafka: a share group has no committed offsets (KIP-932)
        }
        if (group.consumerGroup() != null) {
            // KIP-848: the generation field carries the member epoch.
            ConsumerGroup consumerGroup = group.consumerGroup();
            return OffsetCommitEpochs.validate(consumerGroup, memberId, generationId, apiVersion, partitions,
                name -> topics.topic(name).map(GroupTopic::topicId).or(() ->
                    Optional.ofNullable(consumerGroup.subscribedTopics().get(name)).map(GroupTopic::topicId)));
        }
        if (generationId < 0 && group.is(GroupState.EMPTY)) {
            return Errors.NONE;
        }
        Errors memberError = StaticMembership.validateMember(group, memberId, groupInstanceId);
        if (memberError != Errors.NONE) {
            return memberError;
        }
        if (generationId != group.generationId()) {
            return Errors.ILLEGAL_GENERATION;
        }
        return group.is(GroupState.COMPLETING_REBALANCE) ? Errors.REBALANCE_IN_PROGRESS : Errors.NONE;
    }

    /**
     * OffsetFetch.
     *
     * @param partitions the partitions asked for, or null for every committed offset of the group
     */
    GroupCoordinator.FetchedOffsets fetch(String groupId, List<TopicPartition> partitions) {
        Errors error = servingError(groupId);
        if (error != Errors.NONE) {
            return new GroupCoordinator.FetchedOffsets(error, Map.of());
        }
        ClassicGroup group = groups.group(groupId);
        Map<TopicPartition, OffsetAndMetadata> out = new LinkedHashMap<>();
        if (group == null) {
            if (partitions != null) {
                partitions.forEach(tp -> out.put(tp, null));
            }
            return new GroupCoordinator.FetchedOffsets(Errors.NONE, out);
        }
        synchronized (group) {
            if (group.shareGroup() != null) {
                return new GroupCoordinator.FetchedOffsets(Errors.GROUP_ID_NOT_FOUND, Map.of());
            }
            if (partitions == null) {
                out.putAll(group.offsets());
            } else {
                partitions.forEach(tp -> out.put(tp, group.offsets().get(tp)));
            }
        }
        return new GroupCoordinator.FetchedOffsets(Errors.NONE, out);
    }

    /**
     * OffsetDelete: removes committed offsets of partitions the group does not consume.
     *
     * @return the group-level error and an error per partition (GROUP_SUBSCRIBED_TO_TOPIC for
     *         topics a member subscribes to)
     */
    CompletableFuture<Map.Entry<Errors, Map<TopicPartition, Errors>>> deleteOffsets(String groupId,
                                                                              List<TopicPartition> partitions) {
        Errors error = servingError(groupId);
        ClassicGroup group = groups.group(groupId);
        if (error == Errors.NONE && (group == null || group.is(GroupState.DEAD))) {
            error = Errors.GROUP_ID_NOT_FOUND;
        }
        if (error != Errors.NONE) {
            return CompletableFuture.completedFuture(Map.entry(error, Map.of()));
        }
        Map<TopicPartition, Errors> results = new LinkedHashMap<>();
        List<TopicPartition> deletable = new ArrayList<>();
        CompletableFuture<Errors> stored;
        synchronized (group) {
            if (group.shareGroup() != null) {
                return CompletableFuture.completedFuture(Map.entry(Errors.GROUP_ID_NOT_FOUND, Map.of()));
            }
            if (!group.is(GroupState.EMPTY) && !"consumer".equals(group.protocolType())) {
                return CompletableFuture.completedFuture(Map.entry(Errors.NON_EMPTY_GROUP, Map.of()));
            }
            Set<String> subscribed = group.is(GroupState.EMPTY) ? Set.of() : group.subscribedTopics();
            for (TopicPartition tp : partitions) {
                if (subscribed.contains(tp.topic())) {
                    results.put(tp, Errors.GROUP_SUBSCRIBED_TO_TOPIC);
                } else {
                    results.put(tp, Errors.NONE);
                    if (group.offsets().containsKey(tp)) {
                        group.removeOffset(tp);
                        deletable.add(tp);
                    }
                }
            }
            stored = groups.storeTombstones(groupId, deletable, false);
        }
        return stored.thenApply(storeError -> {
            if (storeError != Errors.NONE) {
                deletable.forEach(tp -> results.put(tp, storeError));
            }
            return Map.entry(Errors.NONE, results);
        });
    }

    /**
     * Deletes expired committed offsets (KIP-211): a group without a protocol (a consumer that
     * assigns partitions itself) loses an offset {@code offsets.retention.minutes} after its
     * commit; a group with a protocol loses all its offsets that long after it became empty; a
     * Stable consumer group loses only offsets of topics it no longer subscribes to (KIP-496);
     * a group in the middle of a rebalance loses nothing.
     * An empty group left without offsets, and without a member waiting to join, is deleted.
     */
    void expireOffsets() {
        long now = time.milliseconds();
        for (ClassicGroup group : groups.groups()) {
            synchronized (group) {
                if (group.is(GroupState.DEAD) || group.shareGroup() != null) {
                    continue; // a share group has no offsets and stays until deleted
                }
                List<TopicPartition> expired = new ArrayList<>();
                for (Map.Entry<TopicPartition, OffsetAndMetadata> e : new HashMap<>(group.offsets()).entrySet()) {
                    if (!group.hasPendingCommit(e.getKey()) && isExpired(group, e.getKey(), e.getValue(), now)) {
                        group.removeOffset(e.getKey());
                        expired.add(e.getKey());
                    }
                }
                // A member given its id (KIP-394) but not joined yet keeps the group: it joins next.
                boolean deleteGroup = group.is(GroupState.EMPTY) && group.offsets().isEmpty()
                    && group.pendingCommitPartitions().isEmpty() && !group.hasPendingMembers();
                if (deleteGroup) {
                    group.transitionTo(GroupState.DEAD, now);
                    groups.removeGroup(group);
                }
                if (!expired.isEmpty() || deleteGroup) {
                    log.info("Expired {} offset(s) of group {}{}", expired.size(), group.groupId(),
                        deleteGroup ? "; the group is empty and was deleted" : "");
                    // Written under the group's monitor, so a later commit's record follows these tombstones.
                    groups.storeTombstones(group.groupId(), expired, deleteGroup);
                }
            }
        }
    }

    /**
     * Whether a committed offset has expired (Kafka's offset expiration condition): a group
     * without a protocol counts from the commit; an Empty group from when it became empty; a
     * Stable consumer group only for topics it does not subscribe to, from the commit; any other
     * group not at all. An offset committed with its own retention (OffsetCommit v2-4) expires at
     * its expire timestamp instead, under the same conditions.
     */
    private boolean isExpired(ClassicGroup group, TopicPartition tp, OffsetAndMetadata offset, long now) {
        long base;
        if (group.protocolType() == null) {
            base = offset.commitTimestamp();
        } else if (group.is(GroupState.EMPTY)) {
            base = group.currentStateTimestamp();
        } else if (group.is(GroupState.STABLE) && "consumer".equals(group.protocolType())
                && !group.subscribedTopics().contains(tp.topic())) {
            base = offset.commitTimestamp();
        } else {
            return false;
        }
        return offset.hasExpireTimestamp() ? now >= offset.expireTimestamp() : now - base >= offsetsRetentionMs;
    }

    /** The member check of an OffsetFetch v9+ of a KIP-848 group; see {@link GroupCoordinator#validateOffsetFetch}. */
    Errors validateFetchMember(String groupId, String memberId, int memberEpoch) {
        if ((memberId == null || memberId.isEmpty()) && memberEpoch < 0) {
            return Errors.NONE;
        }
        ClassicGroup group = groups.group(groupId);
        if (group == null) {
            return Errors.NONE;
        }
        synchronized (group) {
            ConsumerGroup consumerGroup = group.consumerGroup();
            return consumerGroup == null ? Errors.NONE : consumerGroup.validateOffsetFetch(memberId, memberEpoch);
        }
    }
}
