package io.tributary.broker.group;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ConsumerGroupDescribeResponseData;
import org.apache.kafka.common.message.DescribeGroupsResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Utils;

/**
 * How KIP-848 consumer groups are described: ConsumerGroupDescribe (epochs, assignor, each member's
 * subscription, assignment and target assignment, with topic names) and, for tools that ask
 * DescribeGroups, the classic layout Kafka gives them (protocol type {@code consumer}, the assignor
 * as protocol, each member's assignment serialized as the consumer protocol's).
 *
 * <p>Stateless; callers need not hold the group: this takes its monitor.
 */
final class ConsumerGroupDescriber {

    private ConsumerGroupDescriber() {
    }

    static ConsumerGroupDescribeResponseData.DescribedGroup describe(String groupId, Errors coordinatorError,
                                                                     ClassicGroup holder,
                                                                     GroupTopics topics,
                                                                     ConsumerGroupHeartbeats heartbeats) {
        ConsumerGroupDescribeResponseData.DescribedGroup described =
            new ConsumerGroupDescribeResponseData.DescribedGroup().setGroupId(groupId);
        if (coordinatorError != Errors.NONE) {
            return described.setErrorCode(coordinatorError.code()).setErrorMessage(coordinatorError.message());
        }
        if (holder == null) {
            return notFound(described, "Group " + groupId + " not found.");
        }
        synchronized (holder) {
            ConsumerGroup group = holder.consumerGroup();
            if (group == null || holder.is(GroupState.DEAD)) {
                return notFound(described, "Group " + groupId + " is not a consumer group.");
            }
            described.setGroupState(group.state().described()).setGroupEpoch(group.groupEpoch())
                .setAssignmentEpoch(group.assignmentEpoch()).setAssignorName(heartbeats.preferredAssignor(group));
            for (ConsumerGroupMember m : group.members()) {
                described.members().add(new ConsumerGroupDescribeResponseData.Member().setMemberId(m.memberId())
                    .setInstanceId(m.instanceId()).setRackId(m.rackId()).setMemberEpoch(m.memberEpoch())
                    .setClientId(m.clientId()).setClientHost(m.clientHost())
                    .setSubscribedTopicNames(new ArrayList<>(m.subscribedTopicNames()))
                    .setSubscribedTopicRegex(m.subscribedTopicRegex())
                    .setAssignment(assignment(m.assigned(), topics))
                    .setTargetAssignment(assignment(group.targetOf(m.memberId()), topics))
                    // KIP-1099: 0 for a member of the classic protocol (online migration), 1 for the consumer protocol.
                    .setMemberType((byte) (group.classicMember(m.memberId()) != null ? 0 : 1)));
            }
        }
        return described;
    }

    private static ConsumerGroupDescribeResponseData.DescribedGroup notFound(
            ConsumerGroupDescribeResponseData.DescribedGroup described, String message) {
        return described.setErrorCode(Errors.GROUP_ID_NOT_FOUND.code()).setErrorMessage(message);
    }

    private static ConsumerGroupDescribeResponseData.Assignment assignment(Map<Uuid, Set<Integer>> partitions,
                                                                           GroupTopics names) {
        List<ConsumerGroupDescribeResponseData.TopicPartitions> out = new ArrayList<>();
        partitions.forEach((topic, ps) -> out.add(new ConsumerGroupDescribeResponseData.TopicPartitions()
            .setTopicId(topic).setTopicName(names.name(topic).orElse("")).setPartitions(new ArrayList<>(ps))));
        return new ConsumerGroupDescribeResponseData.Assignment().setTopicPartitions(out);
    }

    /**
     * DescribeGroups of a consumer group, as Kafka answers it: the state, protocol type
     * {@code consumer}, the assignor as protocol, and each member's subscription and assignment in
     * the consumer protocol's layout. Holds the group's monitor (the caller's).
     */
    static DescribeGroupsResponseData.DescribedGroup classicView(ConsumerGroup group, String assignor,
                                                                 GroupTopics names) {
        DescribeGroupsResponseData.DescribedGroup described = new DescribeGroupsResponseData.DescribedGroup()
            .setGroupId(group.groupId()).setErrorCode(Errors.NONE.code()).setGroupState(group.state().described())
            .setProtocolType(ConsumerProtocol.PROTOCOL_TYPE).setProtocolData(assignor);
        for (ConsumerGroupMember m : group.members()) {
            List<TopicPartition> owned = new ArrayList<>();
            m.assigned().forEach((topic, ps) -> ps.forEach(p -> owned.add(new TopicPartition(names.name(topic).orElse(""),
                p))));
            described.members().add(new DescribeGroupsResponseData.DescribedGroupMember().setMemberId(m.memberId())
                .setGroupInstanceId(m.instanceId()).setClientId(m.clientId()).setClientHost(m.clientHost())
                .setMemberMetadata(Utils.toArray(ConsumerProtocol.serializeSubscription(
                    new ConsumerPartitionAssignor.Subscription(m.subscribedTopicNames(), null, owned))))
                .setMemberAssignment(Utils.toArray(ConsumerProtocol.serializeAssignment(
                    new ConsumerPartitionAssignor.Assignment(owned)))));
        }
        return described;
    }
}
