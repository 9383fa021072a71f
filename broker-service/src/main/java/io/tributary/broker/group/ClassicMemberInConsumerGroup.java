package io.tributary.broker.group;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The classic group APIs (JoinGroup, SyncGroup, Heartbeat, LeaveGroup) of a member that speaks the
 * classic protocol in a consumer group of the new protocol (KIP-848), as Kafka 4 serves them
 * ({@code classicGroupJoinToConsumerGroup} and its siblings) so groups migrate online member by member:
 * <ul>
 *   <li>JoinGroup: the subscription in the request's protocol metadata (decoded with
 *       {@link ConsumerProtocol}) joins the consumer group like a heartbeat's: the group epoch moves,
 *       the server-side assignor computes the target, and the member takes its next reconciliation
 *       step with the partitions it says it owns. The answer comes at once, with its epoch as the
 *       generation, no leader and no members (the client assigns nothing).</li>
 *   <li>SyncGroup: its current assignment, encoded with {@link ConsumerProtocol}; REBALANCE_IN_PROGRESS
 *       when the group moved on (unless it is revoking).</li>
 *   <li>Heartbeat: REBALANCE_IN_PROGRESS when it must rejoin (the group epoch moved, it must revoke,
 *       or partitions it waited for were released), so it revokes before it gets new partitions.</li>
 *   <li>LeaveGroup: the member is removed and the group epoch bumped.</li>
 * </ul>
 * Its session timeout is its own (from JoinGroup); it must rejoin, then sync, within its rebalance
 * timeout, or it is fenced. Errors, as Kafka's: UNKNOWN_MEMBER_ID (unknown, or a member of the
 * consumer protocol), FENCED_INSTANCE_ID, ILLEGAL_GENERATION (the generation is not its epoch),
 * INCONSISTENT_GROUP_PROTOCOL, MEMBER_ID_REQUIRED, GROUP_MAX_SIZE_REACHED, REBALANCE_IN_PROGRESS.
 *
 * <p>Thread-safety: each call holds the monitor of the group's {@link ClassicGroup} holder.
 */
final class ClassicMemberInConsumerGroup {

    private static final Logger log = LoggerFactory.getLogger(ClassicMemberInConsumerGroup.class);

    private final GroupMetadataManager groups;
    private final ConsumerGroupHeartbeats consumerGroups;
    private final GroupMigration migration;
    private final GroupTopics topics;
    private final Time time;

    ClassicMemberInConsumerGroup(GroupMetadataManager groups, ConsumerGroupHeartbeats consumerGroups,
                                 GroupMigration migration, GroupTopics topics, Time time) {
        this.groups = groups;
        this.consumerGroups = consumerGroups;
        this.migration = migration;
        this.topics = topics;
        this.time = time;
    }

    /** Whether the classic APIs of this group go to its consumer group: it is one, with members (caller holds the monitor). */
    static boolean servesClassicMembers(ClassicGroup holder) {
        return holder.consumerGroup() != null && !holder.consumerGroup().members().isEmpty();
    }

    /**
     * JoinGroup of a classic member; the caller checked the coordinator, the session timeout and
     * {@link #servesClassicMembers}, and holds the group's monitor.
     *
     * @param requireKnownMemberId whether a new member must first get its id (v4+, KIP-394)
     * @return the answer, or empty when the joining static member replaced the last member of the
     *         consumer protocol and the group became a classic group (the caller then joins it there)
     */
    java.util.Optional<CompletableFuture<JoinGroupResponseData>> joinOrDowngrade(
            ClassicGroup holder, JoinGroupRequestData request, boolean requireKnownMemberId, String clientId,
            String clientHost) {
        ConsumerGroup group = holder.consumerGroup();
        boolean unknown = request.memberId() == null || request.memberId().isEmpty();
        ConsumerGroupMember replaced = request.groupInstanceId() == null || !unknown || group == null ? null
            : group.staticMember(request.groupInstanceId()).orElse(null);
        if (replaced != null && groups.group(holder.groupId()) == holder
                && migration.canDowngradeReplacing(group, replaced.memberId())) {
            log.info("Static member {} of consumer group {} is replaced by a classic member: the group goes classic",
                replaced.memberId(), group.groupId());
            consumerGroups.timers().forget(group);
            groups.storeConsumerGroupRecords(holder.groupId(), migration.downgrade(holder, group, replaced.memberId()))
                .thenAccept(error -> {
                    if (error != Errors.NONE) {
                        log.warn("Could not write the downgrade of group {}: {}", holder.groupId(), error);
                    }
                });
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(join(holder, request, requireKnownMemberId, clientId, clientHost));
    }

    private CompletableFuture<JoinGroupResponseData> join(ClassicGroup holder, JoinGroupRequestData request,
                                                          boolean requireKnownMemberId, String clientId,
                                                          String clientHost) {
        List<SimpleRecord> records = new ArrayList<>();
        JoinGroupResponseData response;
        CompletableFuture<Errors> written;
        synchronized (holder) {
            if (!servesClassicMembers(holder) || groups.group(holder.groupId()) != holder) {
                return CompletableFuture.completedFuture(JoinPhase.joinError(request.memberId(),
                    Errors.COORDINATOR_NOT_AVAILABLE));
            }
            response = join(holder, holder.consumerGroup(), request, requireKnownMemberId, clientId, clientHost, records);
            written = groups.storeConsumerGroupRecords(holder.groupId(), records);
        }
        return written.thenApply(error -> error == Errors.NONE || response.errorCode() != Errors.NONE.code() ? response
            : JoinPhase.joinError(response.memberId(), error));
    }

    private JoinGroupResponseData join(ClassicGroup holder, ConsumerGroup group, JoinGroupRequestData request,
                                       boolean requireKnownMemberId, String clientId, String clientHost,
                                       List<SimpleRecord> records) {
        boolean unknown = request.memberId() == null || request.memberId().isEmpty();
        String memberId = unknown ? Uuid.randomUuid().toString() : request.memberId();
        String instanceId = request.groupInstanceId();
        List<GroupMember.Protocol> protocols = new ArrayList<>();
        request.protocols().forEach(p -> protocols.add(new GroupMember.Protocol(p.name(), p.metadata())));
        if (!supportsProtocols(group, memberId, request.protocolType(), protocols)) {
            log.info("Member {}'s protocols are not supported by consumer group {}", memberId, group.groupId());
            return JoinPhase.joinError(request.memberId(), Errors.INCONSISTENT_GROUP_PROTOCOL);
        }
        int maxSize = consumerGroups.config().maxSize();
        boolean isNew = group.member(memberId) == null && (instanceId == null || group.staticMember(instanceId).isEmpty());
        if (isNew && group.members().size() >= maxSize) {
            return JoinPhase.joinError(request.memberId(), Errors.GROUP_MAX_SIZE_REACHED);
        }
        if (unknown && requireKnownMemberId && instanceId == null) {
            return JoinPhase.joinError(memberId, Errors.MEMBER_ID_REQUIRED);
        }
        ClassicMemberMetadata metadata = new ClassicMemberMetadata(request.sessionTimeoutMs(), protocols);
        ConsumerPartitionAssignor.Subscription subscription;
        try {
            subscription = metadata.subscription();
        } catch (RuntimeException e) {
            return JoinPhase.joinError(request.memberId(), Errors.INCONSISTENT_GROUP_PROTOCOL);
        }
        long now = time.milliseconds();
        ConsumerGroupMember existing = group.member(memberId);
        if (existing != null && group.classicMember(memberId) == null) {
            return JoinPhase.joinError(memberId, Errors.UNKNOWN_MEMBER_ID); // a member of the consumer protocol
        }
        if (instanceId != null) {
            ConsumerGroupMember previous = group.staticMember(instanceId).orElse(null);
            if (previous != null && !previous.memberId().equals(memberId)) {
                if (!unknown) {
                    return JoinPhase.joinError(memberId, Errors.FENCED_INSTANCE_ID);
                }
                // KIP-345: the restarted static member takes over its predecessor's assignment under a new id.
                ConsumerGroupMember replacement = previous.withMemberId(memberId);
                group.replaceStatic(previous, replacement);
                records.addAll(ConsumerGroupRecords.memberTombstones(group.groupId(), previous.memberId(), now));
                records.add(ConsumerGroupRecords.targetMember(group.groupId(), memberId, group.targetOf(memberId), now));
                consumerGroups.timers().forgetMember(group, previous.memberId());
                existing = replacement;
            }
        }
        boolean joined = existing == null;
        ConsumerGroupMember member = joined ? ConsumerGroupMember.joining(memberId, instanceId) : existing;
        group.classicMember(memberId, metadata);
        int rebalanceTimeoutMs = request.rebalanceTimeoutMs() > 0 ? request.rebalanceTimeoutMs() : request.sessionTimeoutMs();
        ConsumerGroupMember subscribed = member.withSubscription(subscription.rackId().orElse(member.rackId()), clientId,
            clientHost, subscription.topics(), null, null, rebalanceTimeoutMs);
        Map<Uuid, Set<Integer>> owned = ClassicMemberMetadata.byTopicId(subscription.ownedPartitions(), topics);
        if (!joined) {
            // The protocols may have changed without the subscription: the member's record says what it joined with.
            records.add(ConsumerGroupRecords.memberSubscription(group.groupId(), subscribed, metadata, now));
        }
        ConsumerGroupMember reconciled = consumerGroups.update(group, member, subscribed, joined, joined, owned, records);
        ConsumerGroupTimers timers = consumerGroups.timers();
        timers.cancelClassic(group, memberId, ConsumerGroupTimers.ClassicDeadline.JOIN);
        timers.scheduleSession(holder, group, reconciled, metadata.sessionTimeoutMs());
        timers.scheduleClassic(holder, group, reconciled, ConsumerGroupTimers.ClassicDeadline.SYNC);
        return new JoinGroupResponseData().setErrorCode(Errors.NONE.code()).setMemberId(memberId)
            .setGenerationId(reconciled.memberEpoch()).setProtocolType(ConsumerProtocol.PROTOCOL_TYPE)
            .setProtocolName(metadata.protocolName()).setLeader("");
    }

    /** Kafka's {@code supportsClassicProtocols}: the consumer protocol type, and a protocol every other classic member has. */
    private static boolean supportsProtocols(ConsumerGroup group, String memberId, String type,
                                             List<GroupMember.Protocol> protocols) {
        if (!ConsumerProtocol.PROTOCOL_TYPE.equals(type) || protocols.isEmpty()) {
            return false;
        }
        return protocols.stream().anyMatch(p -> group.members().stream()
            .map(m -> m.memberId().equals(memberId) ? null : group.classicMember(m.memberId()))
            .allMatch(c -> c == null || c.supports(p.name())));
    }

    /** SyncGroup of a classic member: its current assignment, or an error. */
    CompletableFuture<SyncGroupResponseData> sync(ClassicGroup holder, SyncGroupRequestData request) {
        synchronized (holder) {
            ConsumerGroup group = holder.consumerGroup();
            if (group == null) {
                return CompletableFuture.completedFuture(syncError(Errors.COORDINATOR_NOT_AVAILABLE));
            }
            ConsumerGroupMember member = group.member(request.memberId());
            Errors error = validate(group, member, request.memberId(), request.groupInstanceId(), request.generationId());
            ClassicMemberMetadata classic = error == Errors.NONE ? group.classicMember(member.memberId()) : null;
            if (error == Errors.NONE && (request.protocolType() != null
                    && !ConsumerProtocol.PROTOCOL_TYPE.equals(request.protocolType())
                    || request.protocolName() != null && !classic.protocolName().equals(request.protocolName()))) {
                error = Errors.INCONSISTENT_GROUP_PROTOCOL;
            }
            if (error == Errors.NONE && group.groupEpoch() > member.memberEpoch()
                    && member.state() != ConsumerGroupMember.State.UNREVOKED_PARTITIONS) {
                consumerGroups.timers().scheduleClassic(holder, group, member, ConsumerGroupTimers.ClassicDeadline.JOIN);
                error = Errors.REBALANCE_IN_PROGRESS;
            }
            if (error != Errors.NONE) {
                return CompletableFuture.completedFuture(syncError(error));
            }
            consumerGroups.timers().cancelClassic(group, member.memberId(), ConsumerGroupTimers.ClassicDeadline.SYNC);
            consumerGroups.timers().scheduleSession(holder, group, member, classic.sessionTimeoutMs());
            return CompletableFuture.completedFuture(new SyncGroupResponseData().setErrorCode(Errors.NONE.code())
                .setProtocolType(request.protocolType()).setProtocolName(request.protocolName())
                .setAssignment(classic.encodeAssignment(member.assigned(), topics, classic.protocolName())));
        }
    }

    /**
     * Heartbeat of a classic member: NONE, or REBALANCE_IN_PROGRESS when it must rejoin (the group
     * epoch is past its epoch, it must revoke partitions, or partitions it waited for are free now).
     */
    Errors heartbeat(ClassicGroup holder, String memberId, String groupInstanceId, int generationId) {
        synchronized (holder) {
            ConsumerGroup group = holder.consumerGroup();
            if (group == null) {
                return Errors.COORDINATOR_NOT_AVAILABLE;
            }
            ConsumerGroupMember member = group.member(memberId);
            Errors error = validate(group, member, memberId, groupInstanceId, generationId);
            if (error != Errors.NONE) {
                return error;
            }
            consumerGroups.timers().scheduleSession(holder, group, member,
                group.classicMember(memberId).sessionTimeoutMs());
            if (member.memberEpoch() < group.groupEpoch()
                    || member.state() == ConsumerGroupMember.State.UNREVOKED_PARTITIONS
                    || member.state() == ConsumerGroupMember.State.UNRELEASED_PARTITIONS
                    && !group.waitingOnUnreleased(member)) {
                consumerGroups.timers().scheduleClassic(holder, group, member, ConsumerGroupTimers.ClassicDeadline.JOIN);
                return Errors.REBALANCE_IN_PROGRESS;
            }
            return Errors.NONE;
        }
    }

    /**
     * LeaveGroup of classic members of the consumer group (by member id, or by instance id for
     *
     * static members): each one is removed and the group epoch bumped. The records are written without
     * waiting (the classic LeaveGroup answers at once here); a failed write is logged, and the next
     * coordinator drops the member at its session timeout.
     *
     * @return an error per leaving member, in order: NONE, UNKNOWN_MEMBER_ID or FENCED_INSTANCE_ID
     */
    List<Errors> leave(ClassicGroup holder, List<GroupCoordinator.Leaving> leaving) {
        List<Errors> results = new ArrayList<>();
        List<SimpleRecord> records = new ArrayList<>();
        synchronized (holder) {
            ConsumerGroup group = holder.consumerGroup();
            for (GroupCoordinator.Leaving l : leaving) {
                if (group == null || holder.consumerGroup() != group) {
                    results.add(Errors.UNKNOWN_MEMBER_ID);
                    continue;
                }
                ConsumerGroupMember member = l.groupInstanceId() == null ? group.member(l.memberId())
                    : group.staticMember(l.groupInstanceId()).orElse(null);
                Errors error = member == null || group.classicMember(member.memberId()) == null ? Errors.UNKNOWN_MEMBER_ID
                    : l.groupInstanceId() != null && !l.memberId().isEmpty() && !member.memberId().equals(l.memberId())
                    ? Errors.FENCED_INSTANCE_ID : Errors.NONE;
                if (error == Errors.NONE) {
                    records.addAll(consumerGroups.removeMember(holder, group, member, "left the group: "
                        + (l.reason() == null ? "not provided" : l.reason())));
                }
                results.add(error);
            }
            groups.storeConsumerGroupRecords(holder.groupId(), records).thenAccept(error -> {
                if (error != Errors.NONE) {
                    log.warn("Could not write the leave of classic members of consumer group {}: {}", holder.groupId(),
                        error);
                }
            });
        }
        return results;
    }

    /** Kafka's checks of a classic member's SyncGroup and Heartbeat: known, classic, not fenced, at its epoch. */
    private static Errors validate(ConsumerGroup group, ConsumerGroupMember member, String memberId, String instanceId,
                                   int generationId) {
        if (instanceId != null) {
            ConsumerGroupMember holderOfId = group.staticMember(instanceId).orElse(null);
            if (holderOfId == null) {
                return Errors.UNKNOWN_MEMBER_ID;
            }
            if (!holderOfId.memberId().equals(memberId)) {
                return Errors.FENCED_INSTANCE_ID;
            }
        }
        if (member == null || group.classicMember(memberId) == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        return generationId == member.memberEpoch() ? Errors.NONE : Errors.ILLEGAL_GENERATION;
    }

    private static SyncGroupResponseData syncError(Errors error) {
        return new SyncGroupResponseData().setErrorCode(error.code());
    }
}
