package io.tributary.broker.group;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ShareGroupHeartbeatRequestData;
import org.apache.kafka.common.message.ShareGroupHeartbeatResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.coordinator.group.api.assignor.ShareGroupPartitionAssignor;
import org.apache.kafka.coordinator.group.assignor.SimpleAssignor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ShareGroupHeartbeat v1 (KIP-932): the membership protocol of share groups. A member joins with
 * epoch 0 and the topics it subscribes to (its member id is its own, a UUID), heartbeats with its
 * epoch, and leaves with epoch -1. A heartbeat that changes the membership, a subscription, or the
 * subscribed topics' metadata (a topic created, deleted or grown) bumps the group epoch, and the
 * target assignment of that epoch is computed with Kafka's share-group assignor ({@code simple},
 * which may give a partition to several members). There is no revocation phase: at each heartbeat a
 * member moves straight to its target and the target's epoch, and gets its assignment whenever it
 * changed. Only partitions whose share state the coordinator initialized are assigned: a heartbeat
 * subscribing to partitions without state initializes it first ({@link ShareGroupStateInitializer}),
 * and a later heartbeat assigns them.
 *
 * <p>A member without a heartbeat for {@code share.session.timeout.ms} (the group's config, else
 * {@code group.share.session.timeout.ms}) is removed. A member leaving or removed is reported to the
 * {@link ShareGroupMemberListener}, outside the group's monitor. Errors, as Kafka answers them:
 * INVALID_REQUEST (Kafka's request checks), UNKNOWN_MEMBER_ID, FENCED_MEMBER_EPOCH (an epoch other
 * than the member's current or previous one: the client rejoins), GROUP_MAX_SIZE_REACHED
 * ({@code group.share.max.size}), GROUP_ID_NOT_FOUND (the id belongs to a classic or consumer group).
 *
 * <p>Every change is written to {@code __consumer_offsets} ({@link ShareGroupRecords}) before the
 * heartbeat is answered, so a new coordinator loads the group and its members go on with their epochs.
 *
 * <p>Thread-safety: each group's changes hold the monitor of its {@link ClassicGroup} holder; session
 * timers run on the coordinator's timer thread and take the same monitor.
 */
final class ShareGroupHeartbeats {

    private static final Logger log = LoggerFactory.getLogger(ShareGroupHeartbeats.class);

    private final GroupMetadataManager groups;
    private final ShareGroupSettings settings;
    private final GroupConfigLookup groupConfigs;
    private final GroupTopics topics;
    private final ShareGroupMemberListener listener;
    private final Time time;
    private final ShareGroupSessions sessions;
    private final ShareGroupPartitionAssignor assignor = new SimpleAssignor();
    private final ShareGroupStateInitializer initializer;

    /** @param states the share coordinator, to initialize share-partition state ({@link ShareGroupStateInitializer}) */
    ShareGroupHeartbeats(GroupMetadataManager groups, ScheduledExecutorService timer, ShareGroupSettings settings,
                         GroupConfigLookup groupConfigs, GroupTopics topics, ShareGroupMemberListener listener,
                         ShareGroupStateClient states, Time time) {
        this.groups = groups;
        this.settings = settings;
        this.groupConfigs = groupConfigs;
        this.topics = topics;
        this.listener = listener;
        this.time = time;
        this.sessions = new ShareGroupSessions(timer, time, this::expire);
        this.initializer = new ShareGroupStateInitializer(groups, topics, states, time);
    }

    /** The name of the assignor share groups use ({@code simple}). */
    String assignorName() {
        return assignor.name();
    }

    /** Kafka's request checks ({@code throwIfShareGroupHeartbeatRequestIsInvalid}); null when valid. */
    static String invalidRequest(ShareGroupHeartbeatRequestData request) {
        if (request.groupId() == null || request.groupId().isEmpty()) {
            return "GroupId can't be empty.";
        }
        if (request.rackId() != null && request.rackId().isEmpty()) {
            return "RackId can't be empty.";
        }
        if (request.memberId() == null || request.memberId().isEmpty()) {
            return "MemberId can't be empty.";
        }
        if (request.memberEpoch() == 0) {
            return request.subscribedTopicNames() == null || request.subscribedTopicNames().isEmpty()
                ? "SubscribedTopicNames must be set in first request." : null;
        }
        return request.memberEpoch() > 0 || request.memberEpoch() == ShareGroup.LEAVE_GROUP_MEMBER_EPOCH ? null
            : "MemberEpoch is invalid.";
    }

    /** Handles one heartbeat of a group this broker coordinates (the caller checked the request and coordinator). */
    CompletableFuture<ShareGroupHeartbeatResponseData> heartbeat(ShareGroupHeartbeatRequestData request,
                                                                String clientId, String clientHost) {
        ClassicGroup holder = request.memberEpoch() == 0 ? groups.getOrCreate(request.groupId())
            : groups.group(request.groupId());
        if (holder == null) {
            return CompletableFuture.completedFuture(unknownMember(request.memberId(), request.groupId()));
        }
        List<SimpleRecord> records = new ArrayList<>();
        List<ShareGroupStateInitializer.Request> initializations = new ArrayList<>(1);
        ShareGroupHeartbeatResponseData response;
        CompletableFuture<Errors> written;
        boolean left;
        synchronized (holder) {
            response = handle(holder, request, clientId, clientHost, records, initializations);
            left = request.memberEpoch() == ShareGroup.LEAVE_GROUP_MEMBER_EPOCH && response.errorCode() == 0;
            // Written under the group's monitor, so the group's records keep the order of its changes.
            written = groups.storeConsumerGroupRecords(request.groupId(), records);
        }
        if (left) {
            notifyLeft(request.groupId(), request.memberId());
        }
        initializations.forEach(init -> written.thenAccept(error -> {
            if (error == Errors.NONE) {
                initializer.initialize(init);
            }
        }));
        return written.thenApply(error -> error == Errors.NONE || response.errorCode() != Errors.NONE.code() ? response
            : error(error, "The group's state could not be written: " + error.message()));
    }

    private ShareGroupHeartbeatResponseData handle(ClassicGroup holder, ShareGroupHeartbeatRequestData request,
                                                   String clientId, String clientHost, List<SimpleRecord> records,
                                                   List<ShareGroupStateInitializer.Request> initializations) {
        String groupId = request.groupId();
        if (holder.is(GroupState.DEAD) || groups.group(groupId) != holder) {
            return error(Errors.COORDINATOR_NOT_AVAILABLE, "The group is being deleted or moved.");
        }
        if (holder.shareGroup() == null) {
            if (!isUnused(holder)) {
                return error(Errors.GROUP_ID_NOT_FOUND, "Group " + groupId + " is not a share group.");
            }
            if (request.memberEpoch() != 0) {
                return unknownMember(request.memberId(), groupId);
            }
            holder.shareGroup(ShareGroup.empty(groupId));
        }
        ShareGroup group = holder.shareGroup();
        ShareGroupMember member = group.member(request.memberId());
        long now = time.milliseconds();
        if (request.memberEpoch() == ShareGroup.LEAVE_GROUP_MEMBER_EPOCH) {
            if (member == null) {
                return unknownMember(request.memberId(), groupId);
            }
            records.addAll(removeMember(holder, member.memberId(), "left the group"));
            return new ShareGroupHeartbeatResponseData().setMemberId(member.memberId())
                .setMemberEpoch(ShareGroup.LEAVE_GROUP_MEMBER_EPOCH).setHeartbeatIntervalMs(0);
        }
        boolean bump = false;
        boolean joined = request.memberEpoch() == 0;
        if (joined) {
            if (member == null && group.members().size() >= settings.maxSize()) {
                return error(Errors.GROUP_MAX_SIZE_REACHED, "The share group has reached its maximum capacity of "
                    + settings.maxSize() + " members.");
            }
            // A new member, or one that lost its state and starts over (its member id is for life).
            member = ShareGroupMember.joining(request.memberId());
            bump = true;
        } else if (member == null) {
            return unknownMember(request.memberId(), groupId);
        } else {
            String fenced = fencedEpoch(member, request.memberEpoch());
            if (fenced != null) {
                return error(Errors.FENCED_MEMBER_EPOCH, fenced);
            }
        }
        ShareGroupMember subscribed = member.withSubscription(
            request.rackId() != null ? request.rackId() : member.rackId(), clientId, clientHost,
            request.subscribedTopicNames() != null ? request.subscribedTopicNames() : member.subscribedTopicNames());
        if (!subscribed.subscribedTopicNames().equals(member.subscribedTopicNames())
                || !Objects.equals(subscribed.rackId(), member.rackId())) {
            bump = true;
        }
        group = group.withMember(subscribed);
        if (joined || !subscribed.equals(member)) {
            records.add(ShareGroupRecords.memberSubscription(groupId, subscribed, now));
        }
        Map<String, GroupTopic> subscribedTopics = subscribedTopics(group);
        long hash = ShareGroup.metadataHash(subscribedTopics);
        if (bump || hash != group.metadataHash()) {
            group = group.bumped(hash);
            records.add(ShareGroupRecords.groupEpoch(groupId, group.groupEpoch(), hash, now));
            log.info("Share group {} is now at epoch {}: {} member(s) {}", groupId, group.groupEpoch(),
                group.members().size(), group.memberIds());
        }
        ShareGroupStateInitializer.Request init = initializer.plan(group, subscribedTopics, now, records);
        if (init != null) {
            initializations.add(init);
        }
        if (group.groupEpoch() > group.assignmentEpoch() || initializer.assignmentPending(group, subscribedTopics)) {
            ShareGroup before = group;
            group = group.withTargetAssignment(assignor, subscribedTopics, initializer.assignable(group, subscribedTopics));
            for (Map.Entry<String, Map<Uuid, Set<Integer>>> e : group.targetAssignment().entrySet()) {
                if (!e.getValue().equals(before.targetAssignment().get(e.getKey()))) {
                    records.add(ShareGroupRecords.targetMember(groupId, e.getKey(), e.getValue(), now));
                }
            }
            records.add(ShareGroupRecords.targetEpoch(groupId, group.assignmentEpoch(), now));
            Map<Uuid, Set<Integer>> statePartitions = group.statePartitionsWithTarget();
            if (!statePartitions.equals(group.statePartitions())) { // partitions never assigned before (record 15)
                group = group.withStatePartitions(statePartitions);
                records.add(ShareGroupRecords.statePartitions(groupId, statePartitions,
                    id -> topics.name(id).orElse(""), now));
            }
        }
        ShareGroupMember reconciled = subscribed;
        Map<Uuid, Set<Integer>> target = group.targetOf(subscribed.memberId());
        if (subscribed.memberEpoch() != group.assignmentEpoch() || !subscribed.assigned().equals(target)) {
            reconciled = subscribed.reconciled(group.assignmentEpoch(), target);
            group = group.withMember(reconciled);
            records.add(ShareGroupRecords.currentAssignment(groupId, reconciled, now));
        }
        holder.shareGroup(group);
        sessions.schedule(holder, groupId, reconciled.memberId(), settings.sessionTimeoutMs(groupConfigs, groupId));
        ShareGroupHeartbeatResponseData response = new ShareGroupHeartbeatResponseData()
            .setMemberId(reconciled.memberId()).setMemberEpoch(reconciled.memberEpoch())
            .setHeartbeatIntervalMs(settings.heartbeatIntervalMs(groupConfigs, groupId));
        if (joined || !reconciled.assigned().equals(member.assigned())) {
            response.setAssignment(assignment(reconciled.assigned()));
        }
        return response;
    }

    /** Whether a holder found in the registry is free to become a share group: nothing of another type in it. */
    private static boolean isUnused(ClassicGroup holder) {
        return holder.consumerGroup() == null && holder.isEmptyOfMembers() && !holder.hasPendingMembers()
            && holder.is(GroupState.EMPTY) && holder.protocolType() == null && holder.offsets().isEmpty()
            && holder.pendingCommitPartitions().isEmpty();
    }

    /** Removes a member and bumps the group epoch (holding the group's monitor); the records that say so. */
    private List<SimpleRecord> removeMember(ClassicGroup holder, String memberId, String why) {
        ShareGroup group = holder.shareGroup().withoutMember(memberId);
        group = group.bumped(ShareGroup.metadataHash(subscribedTopics(group)));
        holder.shareGroup(group);
        sessions.forget(group.groupId(), memberId);
        log.info("Member {} of share group {} {}; the group is now at epoch {}", memberId, group.groupId(), why,
            group.groupEpoch());
        long now = time.milliseconds();
        List<SimpleRecord> records = new ArrayList<>(ShareGroupRecords.memberTombstones(group.groupId(), memberId, now));
        records.add(ShareGroupRecords.groupEpoch(group.groupId(), group.groupEpoch(), group.metadataHash(), now));
        return records;
    }

    /** A session timer fired: removes the member unless it heartbeated since, writes it, tells the listener. */
    private void expire(ClassicGroup holder, String groupId, String memberId, long deadlineMs, int sessionTimeoutMs) {
        List<SimpleRecord> records;
        synchronized (holder) {
            ShareGroup group = holder.shareGroup();
            if (group == null || group.member(memberId) == null || groups.group(groupId) != holder
                    || !sessions.expired(groupId, memberId, deadlineMs)) {
                return;
            }
            records = removeMember(holder, memberId, "was removed: no heartbeat within the session timeout of "
                + sessionTimeoutMs + " ms");
            groups.storeConsumerGroupRecords(groupId, records).thenAccept(error -> {
                if (error != Errors.NONE) {
                    log.warn("Could not write the removal of member {} of share group {}: {}", memberId, groupId, error);
                }
            });
        }
        notifyLeft(groupId, memberId);
    }

    private void notifyLeft(String groupId, String memberId) {
        try {
            listener.memberLeft(groupId, memberId);
        } catch (RuntimeException e) {
            log.warn("The share-group member listener failed for member {} of group {}", memberId, groupId, e);
        }
    }

    /** Kafka's check of a heartbeat's epoch: the member's current one, or its previous one (a lost answer). */
    private static String fencedEpoch(ShareGroupMember member, int epoch) {
        if (epoch > member.memberEpoch()) {
            return "The share group member has a greater member epoch (" + epoch + ") than the one known by the group "
                + "coordinator (" + member.memberEpoch() + "). The member must abandon all its partitions and rejoin.";
        }
        if (epoch < member.memberEpoch() && epoch != member.previousMemberEpoch()) {
            return "The share group member has a smaller member epoch (" + epoch + ") than the one known by the group "
                + "coordinator (" + member.memberEpoch() + "). The member must abandon all its partitions and rejoin.";
        }
        return null;
    }

    /** A group loaded by a new coordinator: every member's session counts from now, as Kafka's does. */
    void onLoaded(ClassicGroup holder) {
        synchronized (holder) {
            ShareGroup group = holder.shareGroup();
            if (group == null) {
                return;
            }
            int timeoutMs = settings.sessionTimeoutMs(groupConfigs, group.groupId());
            group.memberIds().forEach(memberId -> sessions.schedule(holder, group.groupId(), memberId, timeoutMs));
            log.info("Loaded share group {} at epoch {} with {} member(s)", group.groupId(), group.groupEpoch(),
                group.members().size());
        }
    }

    /** Forgets the sessions of a group's members (the group was unloaded). */
    void forget(ClassicGroup holder) {
        synchronized (holder) {
            ShareGroup group = holder.shareGroup();
            if (group != null) {
                group.memberIds().forEach(memberId -> sessions.forget(group.groupId(), memberId));
                initializer.forget(group.groupId());
            }
        }
    }

    /** The topics that exist among those the group's members subscribe to, by name. */
    private Map<String, GroupTopic> subscribedTopics(ShareGroup group) {
        Map<String, GroupTopic> subscribed = new HashMap<>();
        for (String name : group.subscribedTopicNames()) {
            topics.topic(name).ifPresent(topic -> subscribed.put(name, topic));
        }
        return subscribed;
    }

    private static ShareGroupHeartbeatResponseData.Assignment assignment(Map<Uuid, Set<Integer>> partitions) {
        List<ShareGroupHeartbeatResponseData.TopicPartitions> out = new ArrayList<>();
        partitions.forEach((topic, ps) -> out.add(new ShareGroupHeartbeatResponseData.TopicPartitions()
            .setTopicId(topic).setPartitions(new ArrayList<>(ps))));
        return new ShareGroupHeartbeatResponseData.Assignment().setTopicPartitions(out);
    }

    private static ShareGroupHeartbeatResponseData unknownMember(String memberId, String groupId) {
        return error(Errors.UNKNOWN_MEMBER_ID, "Member " + memberId + " is not a member of group " + groupId + ".");
    }

    static ShareGroupHeartbeatResponseData error(Errors error, String message) {
        return new ShareGroupHeartbeatResponseData().setErrorCode(error.code()).setErrorMessage(message);
    }
}
