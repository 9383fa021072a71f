package io.tributary.broker.group;

import io.tributary.broker.coordinator.CoordinatorLog;
import io.tributary.broker.replica.PartitionLeadershipListener;
import io.tributary.broker.replica.ReplicaManager;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.DescribeGroupsResponseData.DescribedGroup;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.coordinator.group.ConsumerGroupMigrationPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's group coordinator (DESIGN.md section 6): the entry point of the group APIs for the
 * groups whose {@code __consumer_offsets} partition this broker leads. Classic membership and
 * rebalances are run by {@link RebalanceCoordinator}, committed offsets and their expiry by
 * {@link OffsetMetadataManager}, loading and persistence by {@link GroupMetadataManager}; KIP-848
 * consumer groups and KIP-932 share groups are served by {@link ModernGroupCoordinator}
 * ({@link #modernGroups()}); listing, description and deletion by {@link GroupListing}. The classic
 * APIs of a consumer group's classic members go to {@link ClassicMemberInConsumerGroup} (online
 * migration, {@link GroupMigration}). This class checks coordinator ownership and requests.
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

    /** A group as ListGroups lists it; {@code type} is {@code classic}, {@code consumer} (KIP-848) or {@code share} (KIP-932). */
    public record ListedGroup(String groupId, String protocolType, String state, String type) {
    }

    private final Config config;
    private final Time time;
    private final GroupMetadataManager groups;
    private final RebalanceCoordinator rebalance;
    private final OffsetMetadataManager offsets;
    private final ModernGroupCoordinator modern;
    private final GroupListing listing;
    private final ClassicMemberInConsumerGroup classicMembers;
    private final ConsumerGroupMigrationPolicy migrationPolicy;
    private final ScheduledExecutorService timer;

    public GroupCoordinator(ReplicaManager replicaManager, Config config, Time time) {
        this(CoordinatorLog.of(replicaManager), config, time);
    }

    /**
     * @param topics       the cluster's topics by name (id and partition count), for KIP-848 assignments
     * @param groupConfigs the per-group configs that override {@code consumerConfig}
     */
    public GroupCoordinator(ReplicaManager replicaManager, Config config, ConsumerGroupConfig consumerConfig,
                            GroupConfigLookup groupConfigs, GroupTopics topics, Time time) {
        this(replicaManager, config, consumerConfig, groupConfigs, topics, ShareGroupSettings.defaults(),
            ShareGroupMemberListener.NONE, ShareGroupStateClient.NONE, time);
    }

    /**
     * @param shareSettings        the {@code group.share.*} settings of share groups (KIP-932)
     * @param shareMemberListener  told when a share-group member leaves or is fenced (outside any lock)
     * @param shareStates          the share coordinator, which initializes share-partition state
     */
    public GroupCoordinator(ReplicaManager replicaManager, Config config, ConsumerGroupConfig consumerConfig,
                            GroupConfigLookup groupConfigs, GroupTopics topics, ShareGroupSettings shareSettings,
                            ShareGroupMemberListener shareMemberListener, ShareGroupStateClient shareStates, Time time) {
        this(CoordinatorLog.of(replicaManager), config, time, newTimer(), topics, consumerConfig.toConfig(groupConfigs),
            shareSettings, shareMemberListener, shareStates);
    }

    GroupCoordinator(CoordinatorLog coordinatorLog, Config config, Time time) {
        this(coordinatorLog, config, time, newTimer());
    }

    /**
     * @param timer runs the join, sync and session timeouts and the offset expiry, on one thread at
     *              a time; tests pass one driven by the mock clock they pass as {@code time}
     */
    GroupCoordinator(CoordinatorLog coordinatorLog, Config config, Time time, ScheduledExecutorService timer) {
        this(coordinatorLog, config, time, timer, GroupTopics.of(Map.of()));
    }

    GroupCoordinator(CoordinatorLog coordinatorLog, Config config, Time time, ScheduledExecutorService timer,
                     GroupTopics topics) {
        this(coordinatorLog, config, time, timer, topics, ConsumerGroupHeartbeats.Config.defaults());
    }

    /**
     * @param topics          the cluster's topics, for KIP-848 assignments
     * @param consumerConfig  the {@code group.consumer.*} settings of KIP-848 groups
     */
    GroupCoordinator(CoordinatorLog coordinatorLog, Config config, Time time, ScheduledExecutorService timer,
                     GroupTopics topics, ConsumerGroupHeartbeats.Config consumerConfig) {
        this(coordinatorLog, config, time, timer, topics, consumerConfig, ShareGroupSettings.defaults(),
            ShareGroupMemberListener.NONE, ShareGroupStateClient.NONE);
    }

    /**
     * @param shareSettings       the {@code group.share.*} settings; a group's own {@code share.*}
     *                            configs come from {@code consumerConfig}'s group-config lookup
     * @param shareMemberListener told when a share-group member leaves or is fenced
     * @param shareStates         the share coordinator ({@link ShareGroupStateClient#NONE}: state not initialized)
     */
    GroupCoordinator(CoordinatorLog coordinatorLog, Config config, Time time, ScheduledExecutorService timer,
                     GroupTopics topics, ConsumerGroupHeartbeats.Config consumerConfig, ShareGroupSettings shareSettings,
                     ShareGroupMemberListener shareMemberListener, ShareGroupStateClient shareStates) {
        this.config = config;
        this.time = time;
        this.timer = timer;
        this.groups = new GroupMetadataManager(coordinatorLog, config.offsetsTopicPartitions(), config.commitTimeoutMs(), time);
        JoinPhase joinPhase = new JoinPhase(groups, new RebalanceTimers(timer, config.initialRebalanceDelayMs()), time);
        this.rebalance = new RebalanceCoordinator(groups, joinPhase, new SyncPhase(groups, joinPhase, time),
            new StaticMembership(groups, joinPhase), time);
        this.offsets = new OffsetMetadataManager(groups, rebalance, config.offsetMetadataMaxBytes(),
            config.offsetsRetentionMs(), topics, time);
        this.migrationPolicy = consumerConfig.migrationPolicy();
        GroupMigration migration = new GroupMigration(migrationPolicy, joinPhase, topics, consumerConfig.maxSize(),
            config.maxSize(), time);
        ConsumerGroupHeartbeats consumerGroups = new ConsumerGroupHeartbeats(groups, timer, consumerConfig, topics,
            migration, time);
        this.classicMembers = new ClassicMemberInConsumerGroup(groups, consumerGroups, migration, topics, time);
        this.modern = new ModernGroupCoordinator(groups, consumerGroups, new ShareGroupHeartbeats(groups, timer,
            shareSettings, consumerConfig.groupConfigs(), topics, shareMemberListener, shareStates, time), topics);
        this.listing = new GroupListing(groups, consumerGroups, topics, time);
    }

    private static ScheduledExecutorService newTimer() {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "group-coordinator-timer");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
        return timer;
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
            groups.loadPartition(tp.partition(), loaded -> loaded.forEach(group -> {
                rebalance.onLoaded(group);
                modern.onLoaded(group);
            }));
        }
    }

    @Override
    public void onResign(TopicPartition tp) {
        if (Topic.GROUP_METADATA_TOPIC_NAME.equals(tp.topic())) {
            List<ClassicGroup> unloaded = groups.unloadPartition(tp.partition());
            unloaded.forEach(g -> rebalance.onUnloaded(g, Errors.NOT_COORDINATOR));
            unloaded.forEach(modern::onUnloaded);
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
        return joinGroup(request, requireKnownMemberId, true, clientId, clientHost);
    }

    /**
     * JoinGroup.
     *
     * @param requireKnownMemberId   whether the request version requires a member id first (v4+, KIP-394)
     * @param supportsSkipAssignment whether the request version has skip_assignment (v9+, KIP-814)
     */
    public CompletableFuture<JoinGroupResponseData> joinGroup(JoinGroupRequestData request, boolean requireKnownMemberId,
                                                              boolean supportsSkipAssignment, String clientId,
                                                              String clientHost) {
        if (request.groupId() == null || request.groupId().isEmpty()) {
            return CompletableFuture.completedFuture(JoinPhase.joinError(request.memberId(), Errors.INVALID_GROUP_ID));
        }
        Errors error = groups.coordinatorError(request.groupId());
        if (error == Errors.NONE && (request.sessionTimeoutMs() < config.minSessionTimeoutMs()
                || request.sessionTimeoutMs() > config.maxSessionTimeoutMs())) {
            error = Errors.INVALID_SESSION_TIMEOUT;
        }
        if (error != Errors.NONE) {
            return CompletableFuture.completedFuture(JoinPhase.joinError(request.memberId(), error));
        }
        ClassicGroup existing = groups.group(request.groupId());
        if (existing != null) {
            synchronized (existing) {
                if (existing.shareGroup() != null) {
                    // As Kafka: a share group's id cannot be joined with the classic protocol.
                    return CompletableFuture.completedFuture(JoinPhase.joinError("", Errors.INCONSISTENT_GROUP_PROTOCOL));
                }
                if (ClassicMemberInConsumerGroup.servesClassicMembers(existing)) {
                    // A consumer group of the new protocol serves classic members (online migration), unless disabled.
                    if (migrationPolicy == ConsumerGroupMigrationPolicy.DISABLED) {
                        return CompletableFuture.completedFuture(JoinPhase.joinError(request.memberId(),
                            Errors.INCONSISTENT_GROUP_PROTOCOL));
                    }
                    var served = classicMembers.joinOrDowngrade(existing, request, requireKnownMemberId, clientId,
                        clientHost);
                    if (served.isPresent()) {
                        return served.get();
                    }
                }
                existing.revertToClassic(false);
            }
        }
        return rebalance.join(request, requireKnownMemberId, supportsSkipAssignment, clientId, clientHost, config.maxSize());
    }

    /** SyncGroup. */
    public CompletableFuture<SyncGroupResponseData> syncGroup(SyncGroupRequestData request) {
        Errors error = invalidGroupId(request.groupId()) ? Errors.INVALID_GROUP_ID : groups.coordinatorError(request.groupId());
        ClassicGroup group = groups.group(request.groupId());
        if (error == Errors.NONE && group == null) {
            error = Errors.UNKNOWN_MEMBER_ID;
        }
        if (error != Errors.NONE) {
            return CompletableFuture.completedFuture(new SyncGroupResponseData().setErrorCode(error.code()));
        }
        return servesClassicMembers(group) ? classicMembers.sync(group, request) : rebalance.sync(group, request);
    }

    /** Heartbeat; see {@link RebalanceCoordinator#heartbeat} for the errors. */
    public Errors heartbeat(String groupId, String memberId, String groupInstanceId, int generationId) {
        if (invalidGroupId(groupId)) {
            return Errors.INVALID_GROUP_ID;
        }
        Errors error = groups.coordinatorError(groupId);
        if (error == Errors.COORDINATOR_LOAD_IN_PROGRESS) {
            // As Kafka: the group is still loading, so answer blindly; the Java consumer has no
            // handling for this error in its heartbeats.
            return Errors.NONE;
        }
        if (error != Errors.NONE) {
            return error;
        }
        ClassicGroup group = groups.group(groupId);
        if (group == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        return servesClassicMembers(group) ? classicMembers.heartbeat(group, memberId, groupInstanceId, generationId)
            : rebalance.heartbeat(group, memberId, groupInstanceId, generationId);
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
        Errors error = invalidGroupId(groupId) ? Errors.INVALID_GROUP_ID : groups.coordinatorError(groupId);
        ClassicGroup group = groups.group(groupId);
        if (error != Errors.NONE) {
            return Map.entry(error, members.stream().map(m -> Errors.NONE).toList());
        }
        if (group != null && servesClassicMembers(group)) {
            return Map.entry(Errors.NONE, classicMembers.leave(group, members));
        }
        List<Errors> results = new ArrayList<>();
        for (Leaving m : members) {
            results.add(group == null ? Errors.UNKNOWN_MEMBER_ID
                : rebalance.leave(group, m.memberId(), m.groupInstanceId(), m.reason()));
        }
        return Map.entry(Errors.NONE, results);
    }

    /**
     * An OffsetCommit request.
     *
     * @param generationId    the member's generation, or -1 for a consumer that assigns partitions itself
     * @param retentionTimeMs {@code retention_time_ms} of OffsetCommit v2-4, ms; -1 for the broker's retention
     * @param apiVersion      the request's version (v9+ answers GROUP_ID_NOT_FOUND for an unknown group)
     */
    public record OffsetCommit(String groupId, int generationId, String memberId, String groupInstanceId,
                               long retentionTimeMs, short apiVersion, Map<TopicPartition, CommitRequest> commits) {
    }

    /** OffsetCommit with the broker's retention, as the newest version. */
    public CompletableFuture<Map<TopicPartition, Errors>> commitOffsets(String groupId, int generationId, String memberId,
                                                                       String groupInstanceId,
                                                                       Map<TopicPartition, CommitRequest> commits) {
        return commitOffsets(new OffsetCommit(groupId, generationId, memberId, groupInstanceId, -1,
            ApiKeys.OFFSET_COMMIT.latestVersion(), commits));
    }

    /**
     * OffsetCommit; see {@link OffsetMetadataManager#commit}.
     *
     * @return an error per partition
     */
    public CompletableFuture<Map<TopicPartition, Errors>> commitOffsets(OffsetCommit request) {
        return offsets.commit(request);
    }

    /**
     * A TxnOffsetCommit (KIP-98): offsets committed inside a producer's transaction.
     *
     * @param generationId {@code -1} and an empty member id from clients before KIP-447
     */
    public record TxnOffsetCommit(String groupId, String transactionalId, long producerId, short producerEpoch,
                                  int generationId, String memberId, String groupInstanceId,
                                  Map<TopicPartition, CommitRequest> commits) {
    }

    /**
     * TxnOffsetCommit; see {@link OffsetMetadataManager#commitTransactional}.
     *
     * @param verifier has the transaction coordinator confirm the group's offsets partition is in the
     *                 producer's transaction (KIP-890 part 1), or {@link TransactionVerifier#DISABLED}
     * @return an error per partition
     */
    public CompletableFuture<Map<TopicPartition, Errors>> commitTransactionalOffsets(TxnOffsetCommit request,
                                                                                    TransactionVerifier verifier) {
        return offsets.commitTransactional(request, verifier);
    }

    /**
     * A transaction's markers were written to {@code partitions}: its offsets in the offsets
     * partitions among them become committed (COMMIT) or are dropped (ABORT).
     */
    public void onTransactionCompleted(long producerId, Collection<TopicPartition> partitions, boolean commit) {
        for (TopicPartition tp : partitions) {
            if (Topic.GROUP_METADATA_TOPIC_NAME.equals(tp.topic())) {
                groups.completeTransaction(producerId, tp.partition(), commit);
            }
        }
    }

    /** Whether an open transaction has an offset of {@code tp} pending for the group (OffsetFetch requireStable). */
    public boolean hasPendingTransactionalOffset(String groupId, TopicPartition tp) {
        return groups.transactionalOffsets().hasPending(groupId, tp);
    }

    /**
     * Checks the member of an OffsetFetch (v9+) of a KIP-848 consumer group, as Kafka's
     * {@code ConsumerGroup.validateOffsetFetch}: a fetch without a member (an admin's) is always
     * allowed; a member must exist and send its current epoch.
     *
     * @return NONE, UNKNOWN_MEMBER_ID or STALE_MEMBER_EPOCH
     */
    public Errors validateOffsetFetch(String groupId, String memberId, int memberEpoch) {
        return offsets.validateFetchMember(groupId, memberId, memberEpoch);
    }

    /**
     * OffsetFetch.
     *
     * @param partitions the partitions asked for, or null for every committed offset of the group
     */
    public FetchedOffsets fetchOffsets(String groupId, List<TopicPartition> partitions) {
        return offsets.fetch(groupId, partitions);
    }

    /**
     * OffsetDelete: removes committed offsets of partitions the group does not consume.
     *
     * @return the group-level error and an error per partition (GROUP_SUBSCRIBED_TO_TOPIC for
     *         topics a member subscribes to)
     */
    public CompletableFuture<Map.Entry<Errors, Map<TopicPartition, Errors>>> deleteOffsets(String groupId,
                                                                                        List<TopicPartition> partitions) {
        return offsets.deleteOffsets(groupId, partitions);
    }

    /** Deletes expired committed offsets; see {@link OffsetMetadataManager#expireOffsets}. */
    void expireOffsets() {
        offsets.expireOffsets();
    }

    /**
     * The group as this coordinator holds it, or null; for tests of the group state machine, which
     * read it holding its monitor.
     */
    ClassicGroup group(String groupId) {
        return groups.group(groupId);
    }

    /** Whether the group is a consumer group with members, whose classic members the consumer group serves. */
    private static boolean servesClassicMembers(ClassicGroup group) {
        synchronized (group) {
            return ClassicMemberInConsumerGroup.servesClassicMembers(group);
        }
    }

    static boolean invalidGroupId(String groupId) {
        return groupId == null || groupId.isEmpty();
    }

    /** The entry points of KIP-848 consumer groups and KIP-932 share groups, whose membership this coordinator runs. */
    public ModernGroupCoordinator modernGroups() {
        return modern;
    }

    /** Removes a deleted topic's committed offsets from the groups; see {@link DeletedTopicOffsets}. */
    public DeletedTopicOffsets deletedTopicOffsets() {
        return new DeletedTopicOffsets(groups);
    }

    /**
     * DescribeGroups for one group; see {@link GroupListing#describe}.
     *
     * @param notFoundError the error for an unknown group: NONE (v0-5, state Dead) or GROUP_ID_NOT_FOUND (v6+)
     */
    public DescribedGroup describeGroup(String groupId, Errors notFoundError) {
        return listing.describe(groupId, notFoundError);
    }

    /** ListGroups; see {@link GroupListing#list}. */
    public Map.Entry<Errors, List<ListedGroup>> listGroups(Collection<String> states, Collection<String> types) {
        return listing.list(states, types);
    }

    /**
     * DeleteGroups for one group: only an empty group can go; its offsets and metadata are
     * deleted with tombstones, which stay deleted when the partition is loaded again.
     *
     * @return NONE, GROUP_ID_NOT_FOUND, NON_EMPTY_GROUP or a coordinator error
     */
    public CompletableFuture<Errors> deleteGroup(String groupId) {
        return listing.delete(groupId);
    }

    private void expireOffsetsSafely() {
        try {
            expireOffsets();
        } catch (RuntimeException e) {
            log.error("Offset expiry failed", e);
        }
    }

    /** Stops timers and forgets the groups (their members reconnect to the next coordinator). */
    public void shutdown() {
        timer.shutdownNow();
        groups.shutdown();
    }
}
