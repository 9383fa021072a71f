package io.tributary.broker.group;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.Uuid;

/**
 * A member of a consumer group of the new rebalance protocol (KIP-848), as the coordinator holds it:
 * what the member subscribes to and the state of its reconciliation. The coordinator moves a member
 * towards the group's target assignment one step at a time ({@link ConsumerGroup#reconcile}):
 * partitions it must give up stay in {@code pendingRevocation} until it reports them revoked
 * (state UNREVOKED_PARTITIONS); partitions it should get but another member still owns are withheld
 * until released (UNRELEASED_PARTITIONS); otherwise it is STABLE at the target's epoch.
 *
 * @param memberId             the member id (the client's, ConsumerGroupHeartbeat v1+; else the coordinator's)
 * @param instanceId           {@code group.instance.id} of a static member, or null
 * @param rackId               the client's rack, or null
 * @param clientId             client id of its last heartbeat
 * @param clientHost           client address of its last heartbeat
 * @param subscribedTopicNames the topics it subscribes to by name (empty with a regex)
 * @param subscribedTopicRegex the RE2/J pattern it subscribes with, or null
 * @param serverAssignor       the assignor it asked for ({@code uniform}, {@code range}), or null for the default
 * @param rebalanceTimeoutMs   how long it may take to revoke partitions, ms
 * @param memberEpoch          its epoch: the target assignment epoch it has reached
 * @param previousMemberEpoch  the epoch before the last bump (a heartbeat with it is still accepted)
 * @param state                where its reconciliation stands
 * @param assigned             the partitions it owns now, by topic id
 * @param pendingRevocation    the partitions it must revoke before it moves on, by topic id
 * @param assignmentEpochs     for each partition of {@code assigned} and {@code pendingRevocation}, the member epoch
 *                             at which it was assigned to this member (KIP-1251), by topic id then partition; a
 *                             partition missing here was assigned at {@code max(memberEpoch, 0)}, as Kafka reads a
 *                             record without epochs; partitions of neither set are dropped
 */
record ConsumerGroupMember(String memberId, String instanceId, String rackId, String clientId, String clientHost,
                           List<String> subscribedTopicNames, String subscribedTopicRegex, String serverAssignor,
                           int rebalanceTimeoutMs, int memberEpoch, int previousMemberEpoch, State state,
                           Map<Uuid, Set<Integer>> assigned, Map<Uuid, Set<Integer>> pendingRevocation,
                           Map<Uuid, Map<Integer, Integer>> assignmentEpochs) {

    /** Kafka's member states ({@code MemberState}), declared in the order of their stored byte values (0, 1, 2). */
    enum State {
        STABLE("stable"), UNREVOKED_PARTITIONS("unrevoked_partitions"), UNRELEASED_PARTITIONS("unreleased_partitions");

        private final String described;

        State(String described) {
            this.described = described;
        }

        String described() {
            return described;
        }
    }

    ConsumerGroupMember {
        subscribedTopicNames = List.copyOf(subscribedTopicNames);
        assigned = Assignments.copy(assigned);
        pendingRevocation = Assignments.copy(pendingRevocation);
        assignmentEpochs = AssignmentEpochs.complete(assignmentEpochs, Assignments.union(assigned, pendingRevocation),
            Math.max(memberEpoch, 0));
    }

    /** A member whose partitions were all assigned at {@code max(memberEpoch, 0)}. */
    ConsumerGroupMember(String memberId, String instanceId, String rackId, String clientId, String clientHost,
                        List<String> subscribedTopicNames, String subscribedTopicRegex, String serverAssignor,
                        int rebalanceTimeoutMs, int memberEpoch, int previousMemberEpoch, State state,
                        Map<Uuid, Set<Integer>> assigned, Map<Uuid, Set<Integer>> pendingRevocation) {
        this(memberId, instanceId, rackId, clientId, clientHost, subscribedTopicNames, subscribedTopicRegex,
            serverAssignor, rebalanceTimeoutMs, memberEpoch, previousMemberEpoch, state, assigned, pendingRevocation,
            Map.of());
    }

    /** A member that has just joined: epoch 0, nothing assigned. */
    static ConsumerGroupMember joining(String memberId, String instanceId) {
        return new ConsumerGroupMember(memberId, instanceId, null, "", "", List.of(), null, null, 45_000, 0, 0,
            State.STABLE, Assignments.EMPTY, Assignments.EMPTY);
    }

    ConsumerGroupMember withSubscription(String rack, String client, String host, List<String> topicNames, String regex,
                                         String assignor, int rebalanceMs) {
        return new ConsumerGroupMember(memberId, instanceId, rack, client, host, topicNames, regex, assignor, rebalanceMs,
            memberEpoch, previousMemberEpoch, state, assigned, pendingRevocation, assignmentEpochs);
    }

    /**
     * The next step of reconciliation: partitions it owned and keeps (or must now revoke) keep the epoch they
     * were assigned at; any other partition is assigned at {@code epoch} (Kafka's CurrentAssignmentBuilder).
     */
    ConsumerGroupMember withReconciliation(int epoch, State nextState, Map<Uuid, Set<Integer>> nextAssigned,
                                           Map<Uuid, Set<Integer>> nextPendingRevocation) {
        return new ConsumerGroupMember(memberId, instanceId, rackId, clientId, clientHost, subscribedTopicNames,
            subscribedTopicRegex, serverAssignor, rebalanceTimeoutMs, epoch, epoch == memberEpoch ? previousMemberEpoch
            : memberEpoch, nextState, nextAssigned, nextPendingRevocation,
            AssignmentEpochs.restrict(assignmentEpochs, assigned));
    }

    /** The same member under another id (a static member that restarted, KIP-345 with KIP-848). */
    ConsumerGroupMember withMemberId(String newMemberId) {
        return new ConsumerGroupMember(newMemberId, instanceId, rackId, clientId, clientHost, subscribedTopicNames,
            subscribedTopicRegex, serverAssignor, rebalanceTimeoutMs, memberEpoch, previousMemberEpoch, state, assigned,
            pendingRevocation, assignmentEpochs);
    }

    /**
     * A static member that left for a while (epoch -2): it keeps its assignment for its replacement, its
     * partitions' assignment epochs reset to 0 (as Kafka's {@code resetAssignedPartitionsEpochsToZero}), so the
     * replacement may commit them at whatever epoch it is given.
     */
    ConsumerGroupMember leftTemporarily() {
        return new ConsumerGroupMember(memberId, instanceId, rackId, clientId, clientHost, subscribedTopicNames,
            subscribedTopicRegex, serverAssignor, rebalanceTimeoutMs, ConsumerGroup.LEAVE_GROUP_STATIC_MEMBER_EPOCH,
            memberEpoch, state, assigned, pendingRevocation, Map.of());
    }

    /** The epoch at which a partition it owns was assigned to it, or null when it does not own it (KIP-1251). */
    Integer assignmentEpoch(Uuid topicId, int partition) {
        return assigned.getOrDefault(topicId, Set.of()).contains(partition) ? epochOf(topicId, partition) : null;
    }

    /** The epoch at which a partition it is revoking was assigned to it, or null when it is not revoking it. */
    Integer pendingRevocationEpoch(Uuid topicId, int partition) {
        return pendingRevocation.getOrDefault(topicId, Set.of()).contains(partition) ? epochOf(topicId, partition)
            : null;
    }

    private Integer epochOf(Uuid topicId, int partition) {
        return assignmentEpochs.getOrDefault(topicId, Map.of()).get(partition);
    }

    boolean usesRegex() {
        return subscribedTopicRegex != null && !subscribedTopicRegex.isEmpty();
    }
}
