package io.tributary.broker.group;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The join phase of a classic group's rebalance, as Kafka's group coordinator runs it: the
 * membership changes that start a rebalance, PreparingRebalance, and the end of the join with the
 * next generation.
 * <ul>
 *   <li>A member that joins, rejoins, leaves or expires moves the group to PreparingRebalance
 *       unless it is preparing one already (members awaiting SyncGroup get REBALANCE_IN_PROGRESS).</li>
 *   <li>The join ends when every member has rejoined, or at the rebalance timeout; a new group's
 *       first join waits {@code group.initial.rebalance.delay.ms} first (KIP-134). While a pending
 *       member (KIP-394) has not joined again, the join does not end before the timeout.</li>
 *   <li>Dynamic members that did not rejoin are then removed; a static member keeps its place and
 *       its old subscription in the next generation (KIP-345). The next generation starts and
 *       every member gets its JoinGroup answer, the leader with every member's subscription.</li>
 *   <li>Members that do not send SyncGroup within the rebalance timeout of the generation are
 *       removed and the group rebalances without them, also when the group became Stable meanwhile
 *       (Kafka's expirePendingSync): a static member that did not rejoin is in the generation but
 *       will not sync, and its partitions must not wait for its session to expire.</li>
 * </ul>
 * The timers come from {@link RebalanceTimers}; a member whose session expires is removed here.
 *
 * <p>Thread-safety: every operation on a group holds the group's monitor (callers take it, and
 * the timers take it before they call back); timers run on one thread.
 */
final class JoinPhase {

    private static final Logger log = LoggerFactory.getLogger(JoinPhase.class);

    private final GroupMetadataManager groups;
    private final RebalanceTimers timers;
    private final Time time;

    JoinPhase(GroupMetadataManager groups, RebalanceTimers timers, Time time) {
        this.groups = groups;
        this.timers = timers;
        this.time = time;
    }

    /** A JoinGroup answer with an error. */
    static JoinGroupResponseData joinError(String memberId, Errors error) {
        return new JoinGroupResponseData().setErrorCode(error.code()).setMemberId(memberId).setGenerationId(-1)
            .setProtocolName(null).setLeader("");
    }

    /** A member's JoinGroup answer with the current generation; the leader's has every member's subscription. */
    static JoinGroupResponseData joinResponse(ClassicGroup group, GroupMember member) {
        JoinGroupResponseData response = new JoinGroupResponseData().setErrorCode(Errors.NONE.code())
            .setGenerationId(group.generationId()).setProtocolType(group.protocolType())
            .setProtocolName(group.protocolName()).setLeader(group.leaderId()).setMemberId(member.memberId());
        if (group.isLeader(member.memberId())) {
            response.setMembers(memberSubscriptions(group));
        }
        return response;
    }

    /** Every member with its metadata for the selected protocol, as the leader gets them to assign. */
    static List<JoinGroupResponseData.JoinGroupResponseMember> memberSubscriptions(ClassicGroup group) {
        List<JoinGroupResponseData.JoinGroupResponseMember> members = new ArrayList<>();
        for (GroupMember m : group.members()) {
            members.add(new JoinGroupResponseData.JoinGroupResponseMember().setMemberId(m.memberId())
                .setGroupInstanceId(m.groupInstanceId()).setMetadata(m.metadata(group.protocolName())));
        }
        return members;
    }

    /** A new member's first JoinGroup without an id (KIP-394): it waits for its second one, up to its session timeout. */
    void addPendingMember(ClassicGroup group, String memberId, int sessionTimeoutMs) {
        group.addPendingMember(memberId);
        timers.schedulePendingMember(group, memberId, sessionTimeoutMs, this::tryCompleteJoin);
    }

    /** A member joins: it awaits the end of the join phase, which it starts if the group was not preparing a rebalance. */
    void addMemberAndRebalance(ClassicGroup group, GroupMember member, CompletableFuture<JoinGroupResponseData> future) {
        member.awaitJoin(future::complete);
        member.isNew(true);
        group.add(member);
        // A new member has no heartbeat yet: it is dropped if it does not finish joining in time.
        timers.scheduleNewMemberJoin(group, member, this::removeMemberAndUpdateGroup);
        maybePrepareRebalance(group, "member " + member.memberId() + " joined");
        tryCompleteJoin(group);
    }

    /** A member rejoins, with its metadata now those of the request. */
    void updateMemberAndRebalance(ClassicGroup group, GroupMember member, JoinGroupRequestData request,
                                  List<GroupMember.Protocol> protocols, int rebalanceTimeoutMs,
                                  CompletableFuture<JoinGroupResponseData> future) {
        member.update(rebalanceTimeoutMs, request.sessionTimeoutMs(), request.protocolType(), protocols);
        member.awaitJoin(future::complete);
        maybePrepareRebalance(group, "member " + member.memberId() + " rejoined");
        tryCompleteJoin(group);
    }

    /**
     * A member leaves or expires: a waiting JoinGroup or SyncGroup gets UNKNOWN_MEMBER_ID and the
     * group rebalances without it. (A SyncGroup can wait here when an admin removes a static member
     * by its instance id; Kafka leaves that one unanswered, and the consumer learns it is out only
     * at its {@code request.timeout.ms}.)
     */
    void removeMemberAndUpdateGroup(ClassicGroup group, GroupMember member, String reason) {
        member.cancelHeartbeatExpiry();
        member.completeJoin(joinError(member.memberId(), Errors.UNKNOWN_MEMBER_ID));
        member.completeSync(new SyncGroupResponseData().setErrorCode(Errors.UNKNOWN_MEMBER_ID.code()));
        group.remove(member.memberId());
        log.info("Member {} of group {} {}", member.memberId(), group.groupId(), reason);
        switch (group.state()) {
            case STABLE, COMPLETING_REBALANCE -> maybePrepareRebalance(group, "member " + member.memberId() + " " + reason);
            case PREPARING_REBALANCE -> tryCompleteJoin(group);
            default -> { }
        }
    }

    /** Arms a member's session timeout from now; when it expires the member is removed. */
    void scheduleHeartbeat(ClassicGroup group, GroupMember member) {
        timers.scheduleHeartbeat(group, member, this::removeMemberAndUpdateGroup);
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
    void prepareRebalance(ClassicGroup group, String reason) {
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
            timers.scheduleInitialJoin(group, this::completeJoin);
        } else {
            timers.scheduleJoinTimeout(group, this::completeJoin);
            tryCompleteJoin(group);
        }
    }

    /** Ends the join phase if every member has rejoined (and the initial delay, if any, is over). */
    void tryCompleteJoin(ClassicGroup group) {
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
        // old subscription, KIP-345) until its session expires or it misses the generation's SyncGroup.
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
            timers.scheduleJoinTimeout(group, this::completeJoin);
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
        timers.scheduleSyncTimeout(group, this::onSyncTimeout);
    }

    /**
     * The rebalance timeout of the generation passed, in CompletingRebalance or Stable: members that
     * never sent SyncGroup are removed and the group rebalances without them; if every member sent
     * it, nothing happens (the leader's assignment may still be being written).
     */
    private void onSyncTimeout(ClassicGroup group) {
        if (group.hasReceivedSyncFromAllMembers()) {
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
