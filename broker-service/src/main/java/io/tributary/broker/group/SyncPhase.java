package io.tributary.broker.group;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Time;

/**
 * The sync phase of a classic group's rebalance (CompletingRebalance), as Kafka's group
 * coordinator runs it: after the join, every member sends SyncGroup and waits; the leader's carries
 * the assignment it computed, which is stored in the group's {@code __consumer_offsets} record
 * before each member gets its part and the group becomes Stable. If storing it fails, every member
 * gets the error and the group rebalances. In a Stable group a SyncGroup gets the member's stored
 * assignment at once, as a static member does that rejoined without a rebalance (KIP-345). Members
 * that do not send SyncGroup within the generation's rebalance timeout are removed by
 * {@link JoinPhase}, whose timer stays armed until every member has sent it.
 *
 * <p>Thread-safety: every operation on a group holds the group's monitor; timers run on one
 * thread. The stored assignment is handed out under the monitor, for the same generation only.
 */
final class SyncPhase {

    private final GroupMetadataManager groups;
    private final JoinPhase joinPhase;
    private final Time time;

    SyncPhase(GroupMetadataManager groups, JoinPhase joinPhase, Time time) {
        this.groups = groups;
        this.joinPhase = joinPhase;
        this.time = time;
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
            joinPhase.scheduleHeartbeat(group, member);
            removePendingSyncMember(group, member);
            if (group.is(GroupState.STABLE)) {
                future.complete(syncResponse(group, member.assignment()));
                return future;
            }
            member.awaitSync(future::complete);
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

    /** The member sent its SyncGroup: once every member has, the sync phase's timer is no longer needed. */
    private static void removePendingSyncMember(ClassicGroup group, GroupMember member) {
        group.removePendingSyncMember(member.memberId());
        if (group.hasReceivedSyncFromAllMembers()) {
            group.cancelRebalanceTimer();
        }
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
                joinPhase.prepareRebalance(group, "storing the assignment failed with " + error);
                return;
            }
            // The sync phase's timer stays armed while members of the generation have not sent SyncGroup.
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
        Errors memberError = StaticMembership.validateMember(group, request.memberId(), request.groupInstanceId());
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
}
