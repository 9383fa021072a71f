package io.tributary.broker.group;

import org.apache.kafka.common.message.ConsumerGroupHeartbeatRequestData;

/** The checks of a ConsumerGroupHeartbeat before any group is looked at, with Kafka's messages. Stateless. */
final class ConsumerGroupHeartbeatChecks {

    private ConsumerGroupHeartbeatChecks() {
    }

    /** Kafka's request checks ({@code throwIfConsumerGroupHeartbeatRequestIsInvalid}); null when valid. */
    static String invalidRequest(ConsumerGroupHeartbeatRequestData request, short version) {
        if (request.groupId() == null || request.groupId().isEmpty()) {
            return "GroupId can't be empty.";
        }
        if (request.instanceId() != null && request.instanceId().isEmpty()) {
            return "InstanceId can't be empty.";
        }
        if (request.rackId() != null && request.rackId().isEmpty()) {
            return "RackId can't be empty.";
        }
        int epoch = request.memberEpoch();
        boolean noMemberId = request.memberId() == null || request.memberId().isEmpty();
        if (epoch > 0 || epoch == ConsumerGroup.LEAVE_GROUP_MEMBER_EPOCH) {
            return noMemberId ? "MemberId can't be empty." : null;
        }
        if (epoch == ConsumerGroup.LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
            return request.instanceId() == null ? "InstanceId can't be null." : noMemberId ? "MemberId can't be empty."
                : null;
        }
        if (epoch == 0) {
            if (version >= 1 && noMemberId) {
                return "MemberId can't be empty.";
            }
            if (request.rebalanceTimeoutMs() == -1) {
                return "RebalanceTimeoutMs must be provided in first request.";
            }
            if (request.topicPartitions() == null || !request.topicPartitions().isEmpty()) {
                return "TopicPartitions must be empty when (re-)joining.";
            }
            boolean names = request.subscribedTopicNames() != null;
            boolean regex = request.subscribedTopicRegex() != null;
            if (!names && !regex) {
                return "SubscribedTopicNames or SubscribedTopicRegex must be set in first request.";
            }
            return null;
        }
        return "MemberEpoch is invalid.";
    }
}
