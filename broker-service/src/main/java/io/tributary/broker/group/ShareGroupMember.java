package io.tributary.broker.group;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.Uuid;

/**
 * A member of a share group (KIP-932) as the coordinator holds it. Share groups have no revocation
 * phase (several members may consume a partition at once), so a member is always STABLE: at each
 * heartbeat it moves straight to the group's target assignment and its epoch.
 *
 * @param memberId             the member id, chosen by the client (a UUID kept for the consumer's lifetime)
 * @param rackId               the client's rack, or null
 * @param clientId             client id of its last heartbeat
 * @param clientHost           client address of its last heartbeat
 * @param subscribedTopicNames the topics it subscribes to, by name
 * @param memberEpoch          its epoch: the target assignment epoch it has reached (0 while joining)
 * @param previousMemberEpoch  the epoch before the last bump (a heartbeat with it is still accepted)
 * @param assigned             the partitions it is assigned, by topic id
 */
record ShareGroupMember(String memberId, String rackId, String clientId, String clientHost,
                        List<String> subscribedTopicNames, int memberEpoch, int previousMemberEpoch,
                        Map<Uuid, Set<Integer>> assigned) {

    ShareGroupMember {
        subscribedTopicNames = List.copyOf(subscribedTopicNames);
        assigned = Assignments.copy(assigned);
    }

    /** A member that has just joined: epoch 0, nothing assigned. */
    static ShareGroupMember joining(String memberId) {
        return new ShareGroupMember(memberId, null, "", "", List.of(), 0, 0, Assignments.EMPTY);
    }

    ShareGroupMember withSubscription(String rack, String client, String host, List<String> topicNames) {
        return new ShareGroupMember(memberId, rack, client, host, topicNames, memberEpoch, previousMemberEpoch, assigned);
    }

    /** The member at the target assignment of {@code epoch}, owning {@code target}. */
    ShareGroupMember reconciled(int epoch, Map<Uuid, Set<Integer>> target) {
        return new ShareGroupMember(memberId, rackId, clientId, clientHost, subscribedTopicNames, epoch,
            epoch == memberEpoch ? previousMemberEpoch : memberEpoch, target);
    }
}
