package io.tributary.broker.group;

import static io.tributary.broker.group.JoinPhase.joinError;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Time;

/**
 * The classic rebalance protocol of a group: JoinGroup, SyncGroup, Heartbeat and LeaveGroup,
 * with the timers clients rely on, as Kafka's group coordinator runs it.
 * <ul>
 *   <li>New members first get MEMBER_ID_REQUIRED with their id and join again with it (KIP-394).</li>
 *   <li>A join starts a rebalance (PreparingRebalance) that completes when every member has
 *       rejoined or after the largest {@code rebalance.timeout.ms}; a new group's first rebalance
 *       waits {@code group.initial.rebalance.delay.ms}, extended while members keep arriving.</li>
 *   <li>The leader gets the members' subscriptions, computes the assignment in the client and
 *       sends it with SyncGroup; the group then becomes Stable.</li>
 *   <li>A member without a heartbeat for {@code session.timeout.ms} is removed and the group
 *       rebalances; a member that leaves is removed at once.</li>
 *   <li>A static member ({@code group.instance.id}, KIP-345) that restarts gets a new member id
 *       and its old assignment without a rebalance; the old id is fenced (FENCED_INSTANCE_ID).</li>
 * </ul>
 * This class takes the requests and decides what each does to the group; the parts of the state
 * machine are {@link JoinPhase} (membership changes, PreparingRebalance, the next generation),
 * {@link SyncPhase} (SyncGroup and the assignment, CompletingRebalance to Stable),
 * {@link StaticMembership} (replacement and fencing of static members) and {@link RebalanceTimers}
 * (the session, join, sync and initial-delay timers).
 *
 * <p>Thread-safety: every operation on a group holds its monitor; timers run on one thread.
 */
final class RebalanceCoordinator {

    private static final String UNKNOWN_MEMBER_ID = "";

    private final GroupMetadataManager groups;
    private final JoinPhase joinPhase;
    private final SyncPhase syncPhase;
    private final StaticMembership staticMembership;
    private final Time time;

    RebalanceCoordinator(GroupMetadataManager groups, JoinPhase joinPhase, SyncPhase syncPhase,
                         StaticMembership staticMembership, Time time) {
        this.groups = groups;
        this.joinPhase = joinPhase;
        this.syncPhase = syncPhase;
        this.staticMembership = staticMembership;
        this.time = time;
    }

    /**
     * Handles a JoinGroup of a group this broker coordinates (validated by the caller: group id,
     * session timeout, coordinator).
     *
     * @param requireKnownMemberId    whether a new member must first get its id (v4+, KIP-394)
     * @param supportsSkipAssignment whether the answer may tell a rejoining static leader to skip the assignment
     *                               (v9+, KIP-814)
     * @param maxSize                {@code group.max.size}
     */
    CompletableFuture<JoinGroupResponseData> join(JoinGroupRequestData request, boolean requireKnownMemberId,
                                                  boolean supportsSkipAssignment, String clientId, String clientHost,
                                                  int maxSize) {
        CompletableFuture<JoinGroupResponseData> future = new CompletableFuture<>();
        String memberId = request.memberId();
        ClassicGroup group = UNKNOWN_MEMBER_ID.equals(memberId)
            ? groups.getOrCreate(request.groupId()) : groups.group(request.groupId());
        if (group == null) {
            future.complete(joinError(memberId, Errors.UNKNOWN_MEMBER_ID));
            return future;
        }
        List<GroupMember.Protocol> protocols = new ArrayList<>();
        request.protocols().forEach(p -> protocols.add(new GroupMember.Protocol(p.name(), p.metadata())));
        int rebalanceTimeoutMs = request.rebalanceTimeoutMs() < 0 ? request.sessionTimeoutMs() : request.rebalanceTimeoutMs();
        synchronized (group) {
            if (group.is(GroupState.DEAD)) {
                // The group was deleted or moved under us: the client looks up the coordinator again.
                future.complete(joinError(memberId, Errors.COORDINATOR_NOT_AVAILABLE));
            } else if (!group.supportsProtocols(request.protocolType(), protocols.stream().map(GroupMember.Protocol::name).toList())) {
                future.complete(joinError(memberId, Errors.INCONSISTENT_GROUP_PROTOCOL));
            } else if (UNKNOWN_MEMBER_ID.equals(memberId)) {
                String staticMember = request.groupInstanceId() == null ? null
                    : group.staticMemberId(request.groupInstanceId()).orElse(null);
                if (staticMember == null && !group.canAcceptNewMember(maxSize)) {
                    future.complete(joinError(memberId, Errors.GROUP_MAX_SIZE_REACHED));
                } else {
                    joinNewMember(group, request, protocols, rebalanceTimeoutMs, requireKnownMemberId,
                        supportsSkipAssignment, clientId, clientHost, future);
                }
            } else {
                joinKnownMember(group, request, protocols, rebalanceTimeoutMs, clientId, clientHost, maxSize, future);
            }
        }
        return future;
    }

    private void joinNewMember(ClassicGroup group, JoinGroupRequestData request, List<GroupMember.Protocol> protocols,
                               int rebalanceTimeoutMs, boolean requireKnownMemberId, boolean supportsSkipAssignment,
                               String clientId, String clientHost, CompletableFuture<JoinGroupResponseData> future) {
        String newMemberId = clientId + "-" + UUID.randomUUID();
        String instanceId = request.groupInstanceId();
        if (instanceId != null) {
            String oldMemberId = group.staticMemberId(instanceId).orElse(null);
            if (oldMemberId != null) {
                staticMembership.rejoin(group, oldMemberId, newMemberId, request, protocols, rebalanceTimeoutMs,
                    supportsSkipAssignment, future);
                return;
            }
            joinPhase.addMemberAndRebalance(group, new GroupMember(newMemberId, instanceId, clientId, clientHost,
                rebalanceTimeoutMs, request.sessionTimeoutMs(), request.protocolType(), protocols), future);
        } else if (requireKnownMemberId) {
            joinPhase.addPendingMember(group, newMemberId, request.sessionTimeoutMs());
            future.complete(joinError(newMemberId, Errors.MEMBER_ID_REQUIRED));
        } else {
            joinPhase.addMemberAndRebalance(group, new GroupMember(newMemberId, null, clientId, clientHost, rebalanceTimeoutMs,
                request.sessionTimeoutMs(), request.protocolType(), protocols), future);
        }
    }

    private void joinKnownMember(ClassicGroup group, JoinGroupRequestData request, List<GroupMember.Protocol> protocols,
                                 int rebalanceTimeoutMs, String clientId, String clientHost, int maxSize,
                                 CompletableFuture<JoinGroupResponseData> future) {
        String memberId = request.memberId();
        if (group.isPendingMember(memberId)) {
            if (request.groupInstanceId() != null) {
                future.complete(joinError(memberId, Errors.FENCED_INSTANCE_ID));
                return;
            }
            // group.max.size applies to the second JoinGroup of KIP-394 too (Kafka's acceptJoiningMember).
            if (!group.canAcceptNewMember(maxSize)) {
                group.removePendingMember(memberId);
                future.complete(joinError(memberId, Errors.GROUP_MAX_SIZE_REACHED));
                joinPhase.tryCompleteJoin(group);
                return;
            }
            joinPhase.addMemberAndRebalance(group, new GroupMember(memberId, null, clientId, clientHost, rebalanceTimeoutMs,
                request.sessionTimeoutMs(), request.protocolType(), protocols), future);
            return;
        }
        Errors error = StaticMembership.validateMember(group, memberId, request.groupInstanceId());
        if (error != Errors.NONE) {
            future.complete(joinError(memberId, error));
            return;
        }
        GroupMember member = group.get(memberId);
        switch (group.state()) {
            case PREPARING_REBALANCE ->
                joinPhase.updateMemberAndRebalance(group, member, request, protocols, rebalanceTimeoutMs, future);
            case COMPLETING_REBALANCE -> {
                if (member.matches(protocols)) {
                    future.complete(JoinPhase.joinResponse(group, member));
                } else {
                    joinPhase.updateMemberAndRebalance(group, member, request, protocols, rebalanceTimeoutMs, future);
                }
            }
            case STABLE, EMPTY -> {
                if (group.isLeader(memberId) || !member.matches(protocols)) {
                    joinPhase.updateMemberAndRebalance(group, member, request, protocols, rebalanceTimeoutMs, future);
                } else {
                    // A follower that rejoins with unchanged protocols gets the current generation back.
                    future.complete(JoinPhase.joinResponse(group, member));
                }
            }
            case DEAD -> future.complete(joinError(memberId, Errors.COORDINATOR_NOT_AVAILABLE));
        }
    }

    /** Handles a SyncGroup; the leader's call carries the assignment, stored before it is handed out. */
    CompletableFuture<SyncGroupResponseData> sync(ClassicGroup group, SyncGroupRequestData request) {
        return syncPhase.sync(group, request);
    }

    /**
     * Handles a Heartbeat.
     *
     * @return NONE, REBALANCE_IN_PROGRESS (rejoin), UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION,
     *         FENCED_INSTANCE_ID or COORDINATOR_NOT_AVAILABLE
     */
    Errors heartbeat(ClassicGroup group, String memberId, String groupInstanceId, int generationId) {
        synchronized (group) {
            if (group.is(GroupState.DEAD)) {
                return Errors.COORDINATOR_NOT_AVAILABLE;
            }
            Errors memberError = StaticMembership.validateMember(group, memberId, groupInstanceId);
            if (memberError != Errors.NONE) {
                return memberError;
            }
            if (generationId != group.generationId()) {
                return Errors.ILLEGAL_GENERATION;
            }
            joinPhase.scheduleHeartbeat(group, group.get(memberId));
            return switch (group.state()) {
                case PREPARING_REBALANCE -> Errors.REBALANCE_IN_PROGRESS;
                case EMPTY -> Errors.UNKNOWN_MEMBER_ID;
                default -> Errors.NONE;
            };
        }
    }

    /** Keeps a member alive: its session timeout counts again from now (any valid request counts). */
    void touch(ClassicGroup group, String memberId) {
        GroupMember member = group.get(memberId);
        if (member != null) {
            joinPhase.scheduleHeartbeat(group, member);
        }
    }

    /**
     * A member leaves (LeaveGroup), by member id or, for static members, by instance id.
     *
     * @return NONE, UNKNOWN_MEMBER_ID or FENCED_INSTANCE_ID
     */
    Errors leave(ClassicGroup group, String memberId, String groupInstanceId, String reason) {
        synchronized (group) {
            if (group.is(GroupState.DEAD)) {
                return Errors.COORDINATOR_NOT_AVAILABLE;
            }
            String target = memberId;
            if (groupInstanceId != null) {
                String current = group.staticMemberId(groupInstanceId).orElse(null);
                if (current == null) {
                    return Errors.UNKNOWN_MEMBER_ID;
                }
                if (!UNKNOWN_MEMBER_ID.equals(memberId) && !current.equals(memberId)) {
                    return Errors.FENCED_INSTANCE_ID;
                }
                target = current;
            } else if (group.removePendingMember(memberId)) {
                joinPhase.tryCompleteJoin(group);
                return Errors.NONE;
            }
            GroupMember member = group.get(target);
            if (member == null) {
                return Errors.UNKNOWN_MEMBER_ID;
            }
            joinPhase.removeMemberAndUpdateGroup(group, member, "left the group" + (reason == null ? "" : ": " + reason));
            return Errors.NONE;
        }
    }

    /** A group read from the log: its members heartbeat from now on or expire. */
    void onLoaded(ClassicGroup group) {
        synchronized (group) {
            group.members().forEach(m -> joinPhase.scheduleHeartbeat(group, m));
        }
    }

    /** The group moved to another coordinator or was deleted: waiting members learn it. */
    void onUnloaded(ClassicGroup group, Errors error) {
        synchronized (group) {
            group.cancelRebalanceTimer();
            if (!group.is(GroupState.DEAD)) {
                group.transitionTo(GroupState.DEAD, time.milliseconds());
            }
            for (GroupMember m : group.members()) {
                m.cancelHeartbeatExpiry();
                m.completeJoin(joinError(m.memberId(), error));
                m.completeSync(new SyncGroupResponseData().setErrorCode(error.code()));
            }
        }
    }
}
