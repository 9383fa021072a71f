package io.tributary.broker.group;

import static io.tributary.broker.group.JoinPhase.joinError;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Static membership (KIP-345): a member with a {@code group.instance.id} keeps its place in the
 * group across restarts. When it joins again without a member id it takes over its old place under
 * a new member id, and the old id is fenced: a request with it gets FENCED_INSTANCE_ID, and a
 * JoinGroup or SyncGroup of the old id still waiting gets it too. In a Stable group whose protocol
 * would not change, no rebalance happens: the member gets the current generation and then its
 * stored assignment through SyncGroup; a leader is told to skip the assignment (KIP-814).
 *
 * <p>Thread-safety: every operation on a group holds the group's monitor (callers take it);
 * timers run on one thread.
 */
final class StaticMembership {

    private static final Logger log = LoggerFactory.getLogger(StaticMembership.class);

    private final GroupMetadataManager groups;
    private final JoinPhase joinPhase;

    StaticMembership(GroupMetadataManager groups, JoinPhase joinPhase) {
        this.groups = groups;
        this.joinPhase = joinPhase;
    }

    /**
     * Checks the member of a request after its JoinGroup (SyncGroup, Heartbeat, OffsetCommit, a
     * rejoin): a static member must send the member id its instance id has now.
     *
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

    /**
     * A static member restarted: it takes over its old place under a new member id; the old id is
     * fenced. In a Stable group whose protocol would not change, no rebalance happens: the member
     * gets the current generation and then its stored assignment through SyncGroup.
     */
    void rejoin(ClassicGroup group, String oldMemberId, String newMemberId, JoinGroupRequestData request,
                List<GroupMember.Protocol> protocols, int rebalanceTimeoutMs, boolean supportsSkipAssignment,
                CompletableFuture<JoinGroupResponseData> future) {
        String currentLeader = group.leaderId();
        GroupMember old = group.replaceStaticMember(oldMemberId, newMemberId);
        old.completeJoin(joinError(oldMemberId, Errors.FENCED_INSTANCE_ID));
        old.completeSync(new SyncGroupResponseData().setErrorCode(Errors.FENCED_INSTANCE_ID.code()));
        GroupMember member = group.get(newMemberId);
        member.update(rebalanceTimeoutMs, request.sessionTimeoutMs(), request.protocolType(), protocols);
        joinPhase.scheduleHeartbeat(group, member);
        log.info("Static member {} of group {} rejoined as {} (was {})", member.groupInstanceId(), group.groupId(),
            newMemberId, oldMemberId);
        switch (group.state()) {
            case STABLE -> {
                if (group.protocolName().equals(group.selectProtocol())) {
                    groups.storeGroup(group).thenAccept(error -> {
                        synchronized (group) {
                            future.complete(error == Errors.NONE
                                ? rejoinResponse(group, newMemberId, currentLeader, supportsSkipAssignment)
                                : joinError(newMemberId, error));
                        }
                    });
                } else {
                    member.awaitJoin(future::complete);
                    joinPhase.prepareRebalance(group, "static member " + member.groupInstanceId() + " changed its protocols");
                }
            }
            case COMPLETING_REBALANCE -> {
                member.awaitJoin(future::complete);
                joinPhase.prepareRebalance(group,
                    "static member " + member.groupInstanceId() + " rejoined during the sync phase");
            }
            case PREPARING_REBALANCE -> {
                member.awaitJoin(future::complete);
                joinPhase.tryCompleteJoin(group);
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
    private static JoinGroupResponseData rejoinResponse(ClassicGroup group, String newMemberId, String oldLeaderId,
                                                        boolean supportsSkipAssignment) {
        JoinGroupResponseData response = new JoinGroupResponseData().setErrorCode(Errors.NONE.code())
            .setMemberId(newMemberId).setGenerationId(group.generationId()).setProtocolType(group.protocolType())
            .setProtocolName(group.protocolName()).setLeader(oldLeaderId).setSkipAssignment(false);
        if (group.isLeader(newMemberId) && supportsSkipAssignment) {
            response.setLeader(newMemberId).setSkipAssignment(true).setMembers(JoinPhase.memberSubscriptions(group));
        }
        return response;
    }
}
