package io.tributary.broker.group;

import io.tributary.broker.replica.PartitionLeadershipListener;
import io.tributary.broker.replica.ReplicaManager;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.DescribeGroupsResponseData.DescribedGroup;
import org.apache.kafka.common.message.DescribeGroupsResponseData.DescribedGroupMember;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's group coordinator for classic consumer groups (DESIGN.md section 6): the entry
 * point of the group APIs for the groups whose {@code __consumer_offsets} partition this broker
 * leads. Membership and rebalances are run by {@link RebalanceCoordinator}, loading and
 * persistence by {@link GroupMetadataManager}; this class checks coordinator ownership and
 * requests, and handles offsets, group listing, description and deletion, and offset expiry
 * (KIP-211: offsets of a group expire only once it is empty).
 *
 * <p>Thread-safe.
 */
public final class GroupCoordinator implements PartitionLeadershipListener {

    private static final Logger log = LoggerFactory.getLogger(GroupCoordinator.class);

    /**
     * Settings of the coordinator (Kafka's names).
     *
     * @param offsetsTopicPartitions          {@code offsets.topic.num.partitions}
     * @param minSessionTimeoutMs             {@code group.min.session.timeout.ms}
     * @param maxSessionTimeoutMs             {@code group.max.session.timeout.ms}
     * @param initialRebalanceDelayMs         {@code group.initial.rebalance.delay.ms}
     * @param maxSize                         {@code group.max.size}
     * @param commitTimeoutMs                 {@code offsets.commit.timeout.ms}
     * @param offsetMetadataMaxBytes          {@code offset.metadata.max.bytes}
     * @param offsetsRetentionMs              {@code offsets.retention.minutes}, in ms
     * @param offsetsRetentionCheckIntervalMs {@code offsets.retention.check.interval.ms}
     */
    public record Config(int offsetsTopicPartitions, int minSessionTimeoutMs, int maxSessionTimeoutMs,
                         int initialRebalanceDelayMs, int maxSize, long commitTimeoutMs, int offsetMetadataMaxBytes,
                         long offsetsRetentionMs, long offsetsRetentionCheckIntervalMs) {
    }

    /** A partition's committed offset in an OffsetCommit. */
    public record CommitRequest(long offset, int leaderEpoch, String metadata) {
    }

    /**
     * An OffsetFetch answer for a group.
     *
     * @param error   NONE or the group-level error (NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS)
     * @param offsets committed offsets by partition; a requested partition without one maps to null
     */
    public record FetchedOffsets(Errors error, Map<TopicPartition, OffsetAndMetadata> offsets) {
    }

    /** A ListGroups entry. */
    public record ListedGroup(String groupId, String protocolType, String state) {
    }

    private final Config config;
    private final Time time;
    private final GroupMetadataManager groups;
    private final RebalanceCoordinator rebalance;
    private final ScheduledThreadPoolExecutor timer;

    public GroupCoordinator(ReplicaManager replicaManager, Config config, Time time) {
        this(CoordinatorLog.of(replicaManager), config, time);
    }

    GroupCoordinator(CoordinatorLog coordinatorLog, Config config, Time time) {
        this.config = config;
        this.time = time;
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "group-coordinator-timer");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
        this.groups = new GroupMetadataManager(coordinatorLog, config.offsetsTopicPartitions(), config.commitTimeoutMs(), time);
        this.rebalance = new RebalanceCoordinator(groups, timer, time, config.initialRebalanceDelayMs());
    }

    /** Starts the periodic offset expiry. */
    public void startup() {
        timer.scheduleWithFixedDelay(this::expireOffsetsSafely, config.offsetsRetentionCheckIntervalMs(),
            config.offsetsRetentionCheckIntervalMs(), TimeUnit.MILLISECONDS);
    }

    /** The {@code __consumer_offsets} partition that holds a group. */
    public int partitionFor(String groupId) {
        return groups.partitionFor(groupId);
    }

    @Override
    public void onBecomeLeader(TopicPartition tp, int leaderEpoch) {
        if (Topic.GROUP_METADATA_TOPIC_NAME.equals(tp.topic())) {
            groups.loadPartition(tp.partition(), loaded -> loaded.forEach(rebalance::onLoaded));
        }
    }

    @Override
    public void onResign(TopicPartition tp) {
        if (Topic.GROUP_METADATA_TOPIC_NAME.equals(tp.topic())) {
            List<ClassicGroup> unloaded = groups.unloadPartition(tp.partition());
            unloaded.forEach(g -> rebalance.onUnloaded(g, Errors.NOT_COORDINATOR));
            log.info("Unloaded {} group(s) of {}", unloaded.size(), tp);
        }
    }

    /**
     * JoinGroup.
     *
     * @param requireKnownMemberId whether the request version requires a member id first (v4+)
     */
    public CompletableFuture<JoinGroupResponseData> joinGroup(JoinGroupRequestData request, boolean requireKnownMemberId,
                                                              String clientId, String clientHost) {
        if (request.groupId() == null || request.groupId().isEmpty()) {
            return CompletableFuture.completedFuture(RebalanceCoordinator.joinError(request.memberId(), Errors.INVALID_GROUP_ID));
        }
        Errors error = groups.coordinatorError(request.groupId());
        if (error == Errors.NONE && (request.sessionTimeoutMs() < config.minSessionTimeoutMs()
                || request.sessionTimeoutMs() > config.maxSessionTimeoutMs())) {
            error = Errors.INVALID_SESSION_TIMEOUT;
        }
        if (error != Errors.NONE) {
            return CompletableFuture.completedFuture(RebalanceCoordinator.joinError(request.memberId(), error));
        }
        return rebalance.join(request, requireKnownMemberId, clientId, clientHost, config.maxSize());
    }

    /** SyncGroup. */
    public CompletableFuture<SyncGroupResponseData> syncGroup(SyncGroupRequestData request) {
        Errors error = groups.coordinatorError(request.groupId());
        ClassicGroup group = groups.group(request.groupId());
        if (error == Errors.NONE && group == null) {
            error = Errors.UNKNOWN_MEMBER_ID;
        }
        if (error != Errors.NONE) {
            return CompletableFuture.completedFuture(new SyncGroupResponseData().setErrorCode(error.code()));
        }
        return rebalance.sync(group, request);
    }

    /** Heartbeat; see {@link RebalanceCoordinator#heartbeat} for the errors. */
    public Errors heartbeat(String groupId, String memberId, String groupInstanceId, int generationId) {
        Errors error = groups.coordinatorError(groupId);
        if (error != Errors.NONE) {
            return error;
        }
        ClassicGroup group = groups.group(groupId);
        return group == null ? Errors.UNKNOWN_MEMBER_ID : rebalance.heartbeat(group, memberId, groupInstanceId, generationId);
    }

    /** One member leaving the group (LeaveGroup v3+ carries several). */
    public record Leaving(String memberId, String groupInstanceId, String reason) {
    }

    /**
     * LeaveGroup.
     *
     * @return the group-level error (or NONE) and one error per leaving member, in order
     */
    public Map.Entry<Errors, List<Errors>> leaveGroup(String groupId, List<Leaving> members) {
        Errors error = groups.coordinatorError(groupId);
        ClassicGroup group = groups.group(groupId);
        if (error != Errors.NONE) {
            return Map.entry(error, members.stream().map(m -> Errors.NONE).toList());
        }
        List<Errors> results = new ArrayList<>();
        for (Leaving m : members) {
            results.add(group == null ? Errors.UNKNOWN_MEMBER_ID
                : rebalance.leave(group, m.memberId(), m.groupInstanceId(), m.reason()));
        }
        return Map.entry(Errors.NONE, results);
    }

    /**
     * OffsetCommit: from a member of the current generation, or, with generation -1, from a
     * consumer that assigns partitions itself (the group must then have no members).
     *
     * @return an error per partition
     */
    public CompletableFuture<Map<TopicPartition, Errors>> commitOffsets(String groupId, int generationId, String memberId,
                                                                       String groupInstanceId,
                                                                       Map<TopicPartition, CommitRequest> commits) {
        Map<TopicPartition, Errors> results = new LinkedHashMap<>();
        Errors error = groups.coordinatorError(groupId);
        if (error == Errors.NONE && (groupId == null || groupId.isEmpty())) {
            error = Errors.INVALID_GROUP_ID;
        }
        if (error != Errors.NONE) {
            Errors e = error;
            commits.keySet().forEach(tp -> results.put(tp, e));
            return CompletableFuture.completedFuture(results);
        }
        long now = time.milliseconds();
        Map<TopicPartition, OffsetAndMetadata> valid = new LinkedHashMap<>();
        commits.forEach((tp, c) -> {
            if (c.metadata() != null && c.metadata().length() > config.offsetMetadataMaxBytes()) {
                results.put(tp, Errors.OFFSET_METADATA_TOO_LARGE);
            } else {
                valid.put(tp, new OffsetAndMetadata(c.offset(), c.leaderEpoch(), c.metadata(), now));
            }
        });
        ClassicGroup group = groups.group(groupId);
        if (group == null) {
            if (generationId >= 0) {
                valid.keySet().forEach(tp -> results.put(tp, Errors.ILLEGAL_GENERATION));
                return CompletableFuture.completedFuture(results);
            }
            group = groups.getOrCreate(groupId);
        }
        synchronized (group) {
            Errors groupError = commitError(group, generationId, memberId, groupInstanceId);
            if (groupError != Errors.NONE || valid.isEmpty()) {
                valid.keySet().forEach(tp -> results.put(tp, groupError));
                return CompletableFuture.completedFuture(results);
            }
            if (generationId >= 0) {
                rebalance.touch(group, memberId);
            }
        }
        ClassicGroup target = group;
        return groups.storeOffsets(groupId, valid).thenApply(storeError -> {
            synchronized (target) {
                if (storeError == Errors.NONE && !target.is(GroupState.DEAD)) {
                    valid.forEach(target::commit);
                }
            }
            valid.keySet().forEach(tp -> results.put(tp, storeError));
            return results;
        });
    }

    private static Errors commitError(ClassicGroup group, int generationId, String memberId, String groupInstanceId) {
        if (group.is(GroupState.DEAD)) {
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        if (generationId < 0 && group.is(GroupState.EMPTY)) {
            return Errors.NONE;
        }
        if (group.is(GroupState.COMPLETING_REBALANCE)) {
            return Errors.REBALANCE_IN_PROGRESS;
        }
        Errors memberError = RebalanceCoordinator.validateMember(group, memberId, groupInstanceId);
        if (memberError != Errors.NONE) {
            return memberError;
        }
        return generationId != group.generationId() ? Errors.ILLEGAL_GENERATION : Errors.NONE;
    }

    /**
     * OffsetFetch.
     *
     * @param partitions the partitions asked for, or null for every committed offset of the group
     */
    public FetchedOffsets fetchOffsets(String groupId, List<TopicPartition> partitions) {
        Errors error = groups.coordinatorError(groupId);
        if (error != Errors.NONE) {
            return new FetchedOffsets(error, Map.of());
        }
        ClassicGroup group = groups.group(groupId);
        Map<TopicPartition, OffsetAndMetadata> out = new LinkedHashMap<>();
        if (group == null) {
            if (partitions != null) {
                partitions.forEach(tp -> out.put(tp, null));
            }
            return new FetchedOffsets(Errors.NONE, out);
        }
        synchronized (group) {
            if (partitions == null) {
                out.putAll(group.offsets());
            } else {
                partitions.forEach(tp -> out.put(tp, group.offsets().get(tp)));
            }
        }
        return new FetchedOffsets(Errors.NONE, out);
    }

    /**
     * DescribeGroups for one group.
     *
     * @param notFoundError the error for an unknown group: NONE (v0-5, state Dead) or GROUP_ID_NOT_FOUND (v6+)
     */
    public DescribedGroup describeGroup(String groupId, Errors notFoundError) {
        DescribedGroup described = new DescribedGroup().setGroupId(groupId);
        Errors error = groups.coordinatorError(groupId);
        if (error != Errors.NONE) {
            return described.setErrorCode(error.code()).setGroupState("").setProtocolType("").setProtocolData("");
        }
        ClassicGroup group = groups.group(groupId);
        if (group == null || group.is(GroupState.DEAD)) {
            return described.setErrorCode(notFoundError.code()).setGroupState(GroupState.DEAD.protocolName())
                .setProtocolType("").setProtocolData("");
        }
        synchronized (group) {
            boolean stable = group.is(GroupState.STABLE);
            described.setErrorCode(Errors.NONE.code()).setGroupState(group.state().protocolName())
                .setProtocolType(group.protocolType() == null ? "" : group.protocolType())
                .setProtocolData(stable ? group.protocolName() : "");
            for (GroupMember m : group.members()) {
                described.members().add(new DescribedGroupMember().setMemberId(m.memberId())
                    .setGroupInstanceId(m.groupInstanceId()).setClientId(m.clientId()).setClientHost(m.clientHost())
                    .setMemberMetadata(stable ? m.metadata(group.protocolName()) : new byte[0])
                    .setMemberAssignment(stable ? m.assignment() : new byte[0]));
            }
        }
        return described;
    }

    /**
     * ListGroups.
     *
     * @param states states to keep (case-insensitive), empty for all
     * @param types  group types to keep ("classic"; case-insensitive), empty for all
     */
    public Map.Entry<Errors, List<ListedGroup>> listGroups(Collection<String> states, Collection<String> types) {
        List<ListedGroup> out = new ArrayList<>();
        boolean typeMatches = types.isEmpty() || types.stream().anyMatch("classic"::equalsIgnoreCase);
        for (ClassicGroup group : groups.groups()) {
            synchronized (group) {
                if (group.is(GroupState.DEAD) || !typeMatches) {
                    continue;
                }
                String state = group.state().protocolName();
                if (states.isEmpty() || states.stream().anyMatch(state::equalsIgnoreCase)) {
                    out.add(new ListedGroup(group.groupId(), group.protocolType() == null ? "" : group.protocolType(), state));
                }
            }
        }
        return Map.entry(groups.anyLoading() ? Errors.COORDINATOR_LOAD_IN_PROGRESS : Errors.NONE, out);
    }

    /**
     * DeleteGroups for one group: only an empty group can go; its offsets and metadata are
     * deleted with tombstones, which stay deleted when the partition is loaded again.
     *
     * @return NONE, GROUP_ID_NOT_FOUND, NON_EMPTY_GROUP or a coordinator error
     */
    public CompletableFuture<Errors> deleteGroup(String groupId) {
        Errors error = groups.coordinatorError(groupId);
        if (error != Errors.NONE) {
            return CompletableFuture.completedFuture(error);
        }
        ClassicGroup group = groups.group(groupId);
        if (group == null) {
            return CompletableFuture.completedFuture(Errors.GROUP_ID_NOT_FOUND);
        }
        Set<TopicPartition> offsets;
        synchronized (group) {
            if (group.is(GroupState.DEAD)) {
                return CompletableFuture.completedFuture(Errors.GROUP_ID_NOT_FOUND);
            }
            if (!group.is(GroupState.EMPTY)) {
                return CompletableFuture.completedFuture(Errors.NON_EMPTY_GROUP);
            }
            group.transitionTo(GroupState.DEAD, time.milliseconds());
            offsets = Set.copyOf(group.offsets().keySet());
            groups.removeGroup(group);
        }
        log.info("Deleting group {} and its {} committed offset(s)", groupId, offsets.size());
        return groups.storeTombstones(groupId, offsets, true);
    }

    /**
     * OffsetDelete: removes committed offsets of partitions the group does not consume.
     *
     * @return the group-level error and an error per partition (GROUP_SUBSCRIBED_TO_TOPIC for
     *         topics a member subscribes to)
     */
    public CompletableFuture<Map.Entry<Errors, Map<TopicPartition, Errors>>> deleteOffsets(String groupId,
                                                                                        List<TopicPartition> partitions) {
        Errors error = groups.coordinatorError(groupId);
        ClassicGroup group = groups.group(groupId);
        if (error == Errors.NONE && (group == null || group.is(GroupState.DEAD))) {
            error = Errors.GROUP_ID_NOT_FOUND;
        }
        if (error != Errors.NONE) {
            return CompletableFuture.completedFuture(Map.entry(error, Map.of()));
        }
        Map<TopicPartition, Errors> results = new LinkedHashMap<>();
        List<TopicPartition> deletable = new ArrayList<>();
        synchronized (group) {
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
        }
        return groups.storeTombstones(groupId, deletable, false).thenApply(storeError -> {
            if (storeError != Errors.NONE) {
                deletable.forEach(tp -> results.put(tp, storeError));
            }
            return Map.entry(Errors.NONE, results);
        });
    }

    private void expireOffsetsSafely() {
        try {
            expireOffsets();
        } catch (RuntimeException e) {
            log.error("Offset expiry failed", e);
        }
    }

    /**
     * Deletes expired committed offsets (KIP-211): a group without a protocol (a consumer that
     * assigns partitions itself) loses an offset {@code offsets.retention.minutes} after its
     * commit; a group with a protocol loses all its offsets that long after it became empty; a
     * Stable consumer group loses only offsets of topics it no longer subscribes to (KIP-496);
     * a group in the middle of a rebalance loses nothing.
     * An empty group left without offsets is deleted.
     */
    void expireOffsets() {
        long now = time.milliseconds();
        long retention = config.offsetsRetentionMs();
        for (ClassicGroup group : groups.groups()) {
            List<TopicPartition> expired = new ArrayList<>();
            boolean deleteGroup;
            synchronized (group) {
                if (group.is(GroupState.DEAD)) {
                    continue;
                }
                Set<String> subscribed = group.subscribedTopics();
                for (Map.Entry<TopicPartition, OffsetAndMetadata> e : new HashMap<>(group.offsets()).entrySet()) {
                    boolean expiredOffset;
                    if (group.protocolType() == null) {
                        expiredOffset = now - e.getValue().commitTimestamp() >= retention;
                    } else if (group.is(GroupState.EMPTY)) {
                        expiredOffset = now - group.currentStateTimestamp() >= retention;
                    } else {
                        // KIP-496: a Stable consumer group loses offsets of topics it no longer subscribes to.
                        expiredOffset = group.is(GroupState.STABLE) && "consumer".equals(group.protocolType())
                            && !subscribed.contains(e.getKey().topic())
                            && now - e.getValue().commitTimestamp() >= retention;
                    }
                    if (expiredOffset) {
                        group.removeOffset(e.getKey());
                        expired.add(e.getKey());
                    }
                }
                deleteGroup = group.is(GroupState.EMPTY) && group.offsets().isEmpty();
                if (deleteGroup) {
                    group.transitionTo(GroupState.DEAD, now);
                    groups.removeGroup(group);
                }
            }
            if (!expired.isEmpty() || deleteGroup) {
                log.info("Expired {} offset(s) of group {}{}", expired.size(), group.groupId(),
                    deleteGroup ? "; the group is empty and was deleted" : "");
                groups.storeTombstones(group.groupId(), expired, deleteGroup);
            }
        }
    }

    /** Stops timers and forgets the groups (their members reconnect to the next coordinator). */
    public void shutdown() {
        timer.shutdownNow();
        groups.shutdown();
    }
}
