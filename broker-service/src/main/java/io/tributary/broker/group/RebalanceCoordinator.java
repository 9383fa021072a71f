package io.tributary.broker.group;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 *
 * <p>Thread-safety: every operation on a group holds its monitor; timers run on one thread.
 *
 * <p>Longer than most classes here (about 640 lines) on purpose: the four requests and the three
 * timers drive one state machine, and its invariants (who is awaiting a join or a sync, when a
 * generation ends) are easier to check when they sit together.
 */
final class RebalanceCoordinator {

    private static final Logger log = LoggerFactory.getLogger(RebalanceCoordinator.class);
    /** How long a new member may take to send its second JoinGroup before it is dropped, ms (Kafka's value). */
    private static final int NEW_MEMBER_JOIN_TIMEOUT_MS = 5 * 60 * 1000;
    private static final String UNKNOWN_MEMBER_ID = "";

    private final GroupMetadataManager groups;
    private final ScheduledExecutorService timer;
    private final Time time;
    private final int initialRebalanceDelayMs;

    RebalanceCoordinator(GroupMetadataManager groups, ScheduledExecutorService timer, Time time, int initialRebalanceDelayMs) {
        this.groups = groups;
        this.timer = timer;
        this.time = time;
        this.initialRebalanceDelayMs = initialRebalanceDelayMs;
    }

    /** A JoinGroup answer with an error. */
    static JoinGroupResponseData joinError(String memberId, Errors error) {
        return new JoinGroupResponseData().setErrorCode(error.code()).setMemberId(memberId).setGenerationId(-1)
            .setProtocolName(null).setLeader("");
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
                rejoinStaticMember(group, oldMemberId, newMemberId, request, protocols, rebalanceTimeoutMs,
                    supportsSkipAssignment, future);
                return;
            }
            addMemberAndRebalance(group, new GroupMember(newMemberId, instanceId, clientId, clientHost, rebalanceTimeoutMs,
                request.sessionTimeoutMs(), request.protocolType(), protocols), future);
        } else if (requireKnownMemberId) {
            group.addPendingMember(newMemberId);
            scheduleExpiry(group, newMemberId, request.sessionTimeoutMs(), true);
            future.complete(joinError(newMemberId, Errors.MEMBER_ID_REQUIRED));
        } else {
            addMemberAndRebalance(group, new GroupMember(newMemberId, null, clientId, clientHost, rebalanceTimeoutMs,
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
                tryCompleteJoin(group);
                return;
            }
            addMemberAndRebalance(group, new GroupMember(memberId, null, clientId, clientHost, rebalanceTimeoutMs,
                request.sessionTimeoutMs(), request.protocolType(), protocols), future);
            return;
        }
        Errors error = validateMember(group, memberId, request.groupInstanceId());
        if (error != Errors.NONE) {
            future.complete(joinError(memberId, error));
            return;
        }
        GroupMember member = group.get(memberId);
        switch (group.state()) {
            case PREPARING_REBALANCE -> updateMemberAndRebalance(group, member, request, protocols, rebalanceTimeoutMs, future);
            case COMPLETING_REBALANCE -> {
                if (member.matches(protocols)) {
                    future.complete(joinResponse(group, member));
                } else {
                    updateMemberAndRebalance(group, member, request, protocols, rebalanceTimeoutMs, future);
                }
            }
            case STABLE, EMPTY -> {
                if (group.isLeader(memberId) || !member.matches(protocols)) {
                    updateMemberAndRebalance(group, member, request, protocols, rebalanceTimeoutMs, future);
                } else {
                    // A follower that rejoins with unchanged protocols gets the current generation back.
                    future.complete(joinResponse(group, member));
                }
            }
            case DEAD -> future.complete(joinError(memberId, Errors.COORDINATOR_NOT_AVAILABLE));
        }
    }

    /**
     * A static member restarted: it takes over its old place under a new member id; the old id is
     * fenced. In a Stable group whose protocol would not change, no rebalance happens: the member
     * gets the current generation and then its stored assignment through SyncGroup.
     */
    private void rejoinStaticMember(ClassicGroup group, String oldMemberId, String newMemberId, JoinGroupRequestData request,
                                    List<GroupMember.Protocol> protocols, int rebalanceTimeoutMs,
                                    boolean supportsSkipAssignment, CompletableFuture<JoinGroupResponseData> future) {
        String currentLeader = group.leaderId();
        GroupMember old = group.replaceStaticMember(oldMemberId, newMemberId);
        old.completeJoin(joinError(oldMemberId, Errors.FENCED_INSTANCE_ID));
        old.completeSync(new SyncGroupResponseData().setErrorCode(Errors.FENCED_INSTANCE_ID.code()));
        GroupMember member = group.get(newMemberId);
        member.update(rebalanceTimeoutMs, request.sessionTimeoutMs(), request.protocolType(), protocols);
        scheduleHeartbeat(group, member);
        log.info("Static member {} of group {} rejoined as {} (was {})", member.groupInstanceId(), group.groupId(),
            newMemberId, oldMemberId);
        switch (group.state()) {
            case STABLE -> {
                if (group.protocolName().equals(group.selectProtocol())) {
                    groups.storeGroup(group).thenAccept(error -> {
                        synchronized (group) {
                            future.complete(error == Errors.NONE
                                ? staticRejoinResponse(group, newMemberId, currentLeader, supportsSkipAssignment)
                                : joinError(newMemberId, error));
                        }
                    });
                } else {
                    member.awaitJoin(future::complete);
                    prepareRebalance(group, "static member " + member.groupInstanceId() + " changed its protocols");
                }
            }
            case COMPLETING_REBALANCE -> {
                member.awaitJoin(future::complete);
                prepareRebalance(group, "static member " + member.groupInstanceId() + " rejoined during the sync phase");
            }
            case PREPARING_REBALANCE -> {
                member.awaitJoin(future::complete);
                tryCompleteJoin(group);
            }
            default -> future.complete(joinError(newMemberId, Errors.UNKNOWN_MEMBER_ID));
        }
    }

    /**
     * The answer to a static member that rejoined a Stable group without a rebalance. A follower
     * gets the old leader id, so it does not compute an assignment. A leader is told it leads,
     * with the members, and to skip the assignment (KIP-814), so it keeps watching the topics'
     * metadata; before JoinGroup v9 it gets the old leader id like a follower.
     */
    private static JoinGroupResponseData staticRejoinResponse(ClassicGroup group, String newMemberId, String oldLeaderId,
                                                              boolean supportsSkipAssignment) {
        JoinGroupResponseData response = new JoinGroupResponseData().setErrorCode(Errors.NONE.code())
            .setMemberId(newMemberId).setGenerationId(group.generationId()).setProtocolType(group.protocolType())
            .setProtocolName(group.protocolName()).setLeader(oldLeaderId).setSkipAssignment(false);
        if (group.isLeader(newMemberId) && supportsSkipAssignment) {
            response.setLeader(newMemberId).setSkipAssignment(true).setMembers(memberSubscriptions(group));
        }
        return response;
    }

    private void addMemberAndRebalance(ClassicGroup group, GroupMember member, CompletableFuture<JoinGroupResponseData> future) {
        member.awaitJoin(future::complete);
        member.isNew(true);
        group.add(member);
        // A new member has no heartbeat yet: it is dropped if it does not finish joining in time.
        scheduleExpiry(group, member.memberId(), NEW_MEMBER_JOIN_TIMEOUT_MS, false);
        maybePrepareRebalance(group, "member " + member.memberId() + " joined");
        tryCompleteJoin(group);
    }

    private void updateMemberAndRebalance(ClassicGroup group, GroupMember member, JoinGroupRequestData request,
                                          List<GroupMember.Protocol> protocols, int rebalanceTimeoutMs,
                                          CompletableFuture<JoinGroupResponseData> future) {
        member.update(rebalanceTimeoutMs, request.sessionTimeoutMs(), request.protocolType(), protocols);
        member.awaitJoin(future::complete);
        maybePrepareRebalance(group, "member " + member.memberId() + " rejoined");
        tryCompleteJoin(group);
    }

    /**
     * @return NONE, UNKNOWN_MEMBER_ID, or FENCED_INSTANCE_ID when a static member id does not match
     */
    static Errors validateMember(ClassicGroup group, String memberId, String groupInstanceId) {
        if (groupInstanceId != null) {
            String current = group.staticMemberId(groupInstanceId).orElse(null);
            if (current == null) {
                return Errors.UNKNOWN_MEMBER_ID;
            }
            if (!current.equals(memberId)) {
                return Errors.FENCED_INSTANCE_ID;
            }
        }
        return group.has(memberId) ? Errors.NONE : Errors.UNKNOWN_MEMBER_ID;
    }

    private void maybePrepareRebalance(ClassicGroup group, String reason) {
        if (group.canRebalance()) {
            prepareRebalance(group, reason);
        }
    }

    /**
     * Moves the group to PreparingRebalance. A group that was not empty completes the join at
     * once if every member has already rejoined (none left, or the only member rejoined with new
     * metadata), as Kafka's delayed join does; otherwise when they have, or at the rebalance timeout.
     */
    private void prepareRebalance(ClassicGroup group, String reason) {
        if (group.is(GroupState.COMPLETING_REBALANCE)) {
            for (GroupMember m : group.members()) {
                m.completeSync(new SyncGroupResponseData().setErrorCode(Errors.REBALANCE_IN_PROGRESS.code()));
            }
        }
        GroupState previous = group.state();
        group.transitionTo(GroupState.PREPARING_REBALANCE, time.milliseconds());
        log.info("Preparing to rebalance group {} in state {} with old generation {}: {}", group.groupId(),
            previous.protocolName(), group.generationId(), reason);
        if (previous == GroupState.EMPTY) {
            int delay = Math.min(initialRebalanceDelayMs, group.rebalanceTimeoutMs());
            scheduleInitialJoin(group, delay, Math.max(group.rebalanceTimeoutMs() - delay, 0));
        } else {
            int generation = group.generationId();
            group.rebalanceTimer(timer.schedule(() -> onJoinTimeout(group, generation), group.rebalanceTimeoutMs(),
                TimeUnit.MILLISECONDS), false);
            tryCompleteJoin(group);
        }
    }

    /** A new group's first join waits for more members; each arrival extends the wait until the rebalance timeout. */
    private void scheduleInitialJoin(ClassicGroup group, int delayMs, int remainingMs) {
        group.rebalanceTimer(timer.schedule(() -> {
            synchronized (group) {
                if (!group.is(GroupState.PREPARING_REBALANCE) || !group.inInitialJoinDelay()) {
                    return;
                }
                if (group.newMemberAdded() && remainingMs > 0) {
                    group.resetNewMemberAdded();
                    int next = Math.min(initialRebalanceDelayMs, remainingMs);
                    scheduleInitialJoin(group, next, Math.max(remainingMs - next, 0));
                } else {
                    completeJoin(group);
                }
            }
        }, delayMs, TimeUnit.MILLISECONDS), true);
    }

    private void onJoinTimeout(ClassicGroup group, int generation) {
        synchronized (group) {
            if (group.is(GroupState.PREPARING_REBALANCE) && group.generationId() == generation && !group.inInitialJoinDelay()) {
                completeJoin(group);
            }
        }
    }

    private void tryCompleteJoin(ClassicGroup group) {
        if (group.is(GroupState.PREPARING_REBALANCE) && !group.inInitialJoinDelay() && group.hasAllMembersJoined()) {
            completeJoin(group);
        }
    }

    /**
     * Ends the join phase: members that did not rejoin are removed, the next generation starts and
     * every joined member gets its JoinGroup answer (the leader with all members' subscriptions).
     */
    private void completeJoin(ClassicGroup group) {
        group.cancelRebalanceTimer();
        // Dynamic members that did not rejoin are removed; a static member keeps its place (and its
        // old subscription) until its session expires (KIP-345).
        for (GroupMember m : group.notYetRejoinedMembers()) {
            if (!m.isStatic()) {
                m.cancelHeartbeatExpiry();
                group.remove(m.memberId());
                log.info("Member {} of group {} did not rejoin in time and was removed", m.memberId(), group.groupId());
            }
        }
        if (!group.isEmptyOfMembers() && !group.electJoinedLeader()) {
            // Only static members that did not rejoin remain: wait another rebalance timeout, during
            // which their sessions expire or they come back.
            log.info("No member of group {} rejoined; waiting for the static members' sessions", group.groupId());
            int generation = group.generationId();
            group.rebalanceTimer(timer.schedule(() -> onJoinTimeout(group, generation), group.rebalanceTimeoutMs(),
                TimeUnit.MILLISECONDS), false);
            return;
        }
        group.initNextGeneration(time.milliseconds());
        if (group.is(GroupState.EMPTY)) {
            log.info("Group {} with generation {} is now empty", group.groupId(), group.generationId());
            groups.storeGroup(group);
            return;
        }
        log.info("Stabilized group {} generation {} with {} member(s), protocol {}", group.groupId(), group.generationId(),
            group.size(), group.protocolName());
        for (GroupMember m : group.members()) {
            m.completeJoin(joinResponse(group, m));
            m.isNew(false);
            scheduleHeartbeat(group, m);
        }
        int generation = group.generationId();
        group.rebalanceTimer(timer.schedule(() -> onSyncTimeout(group, generation), group.rebalanceTimeoutMs(),
            TimeUnit.MILLISECONDS), false);
    }

    private static JoinGroupResponseData joinResponse(ClassicGroup group, GroupMember member) {
        JoinGroupResponseData response = new JoinGroupResponseData().setErrorCode(Errors.NONE.code())
            .setGenerationId(group.generationId()).setProtocolType(group.protocolType())
            .setProtocolName(group.protocolName()).setLeader(group.leaderId()).setMemberId(member.memberId());
        if (group.isLeader(member.memberId())) {
            response.setMembers(memberSubscriptions(group));
        }
        return response;
    }

    /** Every member with its metadata for the selected protocol, as the leader gets them to assign. */
    private static List<JoinGroupResponseData.JoinGroupResponseMember> memberSubscriptions(ClassicGroup group) {
        List<JoinGroupResponseData.JoinGroupResponseMember> members = new ArrayList<>();
        for (GroupMember m : group.members()) {
            members.add(new JoinGroupResponseData.JoinGroupResponseMember().setMemberId(m.memberId())
                .setGroupInstanceId(m.groupInstanceId()).setMetadata(m.metadata(group.protocolName())));
        }
        return members;
    }

    /** Members that never sent SyncGroup in time are removed and the group rebalances without them. */
    private void onSyncTimeout(ClassicGroup group, int generation) {
        synchronized (group) {
            if (!group.is(GroupState.COMPLETING_REBALANCE) || group.generationId() != generation) {
                return;
            }
            for (String memberId : group.pendingSyncMembers()) {
                GroupMember m = group.remove(memberId);
                if (m != null) {
                    m.cancelHeartbeatExpiry();
                }
            }
            log.info("Group {} did not get every SyncGroup in time; rebalancing", group.groupId());
            if (group.isEmptyOfMembers()) {
                group.transitionTo(GroupState.PREPARING_REBALANCE, time.milliseconds());
                completeJoin(group);
            } else {
                prepareRebalance(group, "members did not sync in time");
            }
        }
    }

    /** Handles a SyncGroup; the leader's call carries the assignment, stored before it is handed out. */
    CompletableFuture<SyncGroupResponseData> sync(ClassicGroup group, SyncGroupRequestData request) {
        CompletableFuture<SyncGroupResponseData> future = new CompletableFuture<>();
        synchronized (group) {
            Errors error = syncError(group, request);
            if (error != Errors.NONE) {
                future.complete(new SyncGroupResponseData().setErrorCode(error.code()));
                return future;
            }
            GroupMember member = group.get(request.memberId());
            scheduleHeartbeat(group, member);
            if (group.is(GroupState.STABLE)) {
                future.complete(syncResponse(group, member.assignment()));
                return future;
            }
            member.awaitSync(future::complete);
            group.removePendingSyncMember(member.memberId());
            if (group.isLeader(member.memberId())) {
                Map<String, byte[]> assignments = new HashMap<>();
                request.assignments().forEach(a -> assignments.put(a.memberId(), a.assignment()));
                for (GroupMember m : group.members()) {
                    m.assignment(assignments.getOrDefault(m.memberId(), new byte[0]));
                }
                int generation = group.generationId();
                groups.storeGroup(group).thenAccept(storeError -> onAssignmentStored(group, generation, storeError));
            }
        }
        return future;
    }

    private void onAssignmentStored(ClassicGroup group, int generation, Errors error) {
        synchronized (group) {
            if (!group.is(GroupState.COMPLETING_REBALANCE) || group.generationId() != generation) {
                return;
            }
            if (error != Errors.NONE) {
                for (GroupMember m : group.members()) {
                    m.assignment(new byte[0]);
                    m.completeSync(new SyncGroupResponseData().setErrorCode(error.code()));
                }
                prepareRebalance(group, "storing the assignment failed with " + error);
                return;
            }
            group.cancelRebalanceTimer();
            group.transitionTo(GroupState.STABLE, time.milliseconds());
            for (GroupMember m : group.members()) {
                m.completeSync(syncResponse(group, m.assignment()));
            }
        }
    }

    private static SyncGroupResponseData syncResponse(ClassicGroup group, byte[] assignment) {
        return new SyncGroupResponseData().setErrorCode(Errors.NONE.code()).setProtocolType(group.protocolType())
            .setProtocolName(group.protocolName()).setAssignment(assignment);
    }

    private static Errors syncError(ClassicGroup group, SyncGroupRequestData request) {
        if (group.is(GroupState.DEAD)) {
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        Errors memberError = validateMember(group, request.memberId(), request.groupInstanceId());
        if (memberError != Errors.NONE) {
            return memberError;
        }
        if (request.generationId() != group.generationId()) {
            return Errors.ILLEGAL_GENERATION;
        }
        if ((request.protocolType() != null && !request.protocolType().equals(group.protocolType()))
                || (request.protocolName() != null && !request.protocolName().equals(group.protocolName()))) {
            return Errors.INCONSISTENT_GROUP_PROTOCOL;
        }
        return switch (group.state()) {
            case EMPTY -> Errors.UNKNOWN_MEMBER_ID;
            case PREPARING_REBALANCE -> Errors.REBALANCE_IN_PROGRESS;
            default -> Errors.NONE;
        };
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
            Errors memberError = validateMember(group, memberId, groupInstanceId);
            if (memberError != Errors.NONE) {
                return memberError;
            }
            if (generationId != group.generationId()) {
                return Errors.ILLEGAL_GENERATION;
            }
            scheduleHeartbeat(group, group.get(memberId));
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
            scheduleHeartbeat(group, member);
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
                tryCompleteJoin(group);
                return Errors.NONE;
            }
            GroupMember member = group.get(target);
            if (member == null) {
                return Errors.UNKNOWN_MEMBER_ID;
            }
            removeMemberAndUpdateGroup(group, member, "left the group" + (reason == null ? "" : ": " + reason));
            return Errors.NONE;
        }
    }

    private void removeMemberAndUpdateGroup(ClassicGroup group, GroupMember member, String reason) {
        member.cancelHeartbeatExpiry();
        member.completeJoin(joinError(member.memberId(), Errors.UNKNOWN_MEMBER_ID));
        group.remove(member.memberId());
        log.info("Member {} of group {} {}", member.memberId(), group.groupId(), reason);
        switch (group.state()) {
            case STABLE, COMPLETING_REBALANCE -> maybePrepareRebalance(group, "member " + member.memberId() + " " + reason);
            case PREPARING_REBALANCE -> tryCompleteJoin(group);
            default -> { }
        }
    }

    private void scheduleHeartbeat(ClassicGroup group, GroupMember member) {
        scheduleExpiry(group, member.memberId(), member.sessionTimeoutMs(), false);
    }

    /** Arms the session (or new-member join) timeout of a member or pending member. */
    private void scheduleExpiry(ClassicGroup group, String memberId, int timeoutMs, boolean pending) {
        GroupMember member = group.get(memberId);
        long epoch = member == null ? 0 : member.nextHeartbeatEpoch();
        var expiry = timer.schedule(() -> onExpiry(group, memberId, epoch, pending), timeoutMs, TimeUnit.MILLISECONDS);
        if (member != null) {
            member.heartbeatExpiry(expiry);
        }
    }

    private void onExpiry(ClassicGroup group, String memberId, long epoch, boolean pending) {
        synchronized (group) {
            if (pending) {
                if (group.removePendingMember(memberId)) {
                    log.info("Pending member {} of group {} did not join in time", memberId, group.groupId());
                    tryCompleteJoin(group);
                }
                return;
            }
            GroupMember member = group.get(memberId);
            if (member != null && member.heartbeatEpoch() == epoch && !group.is(GroupState.DEAD)) {
                if (!member.isNew() && (member.isAwaitingJoin() || member.isAwaitingSync())) {
                    // A member waiting for its JoinGroup or SyncGroup answer sends no heartbeats (Kafka's
                    // hasSatisfiedHeartbeat): its session counts again from now.
                    scheduleHeartbeat(group, member);
                    return;
                }
                removeMemberAndUpdateGroup(group, member, "failed: no heartbeat within " + member.sessionTimeoutMs()
                    + " ms" + (member.isNew() ? " of joining" : ""));
            }
        }
    }

    /** A group read from the log: its members heartbeat from now on or expire. */
    void onLoaded(ClassicGroup group) {
        synchronized (group) {
            group.members().forEach(m -> scheduleHeartbeat(group, m));
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
