package io.tributary.broker.group;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ShareGroupDescribeResponseData;
import org.apache.kafka.common.protocol.Errors;

/**
 * ShareGroupDescribe v1 (KIP-932) of one group: its state (Empty or Stable), group and assignment
 * epochs, the assignor ({@code simple}) and each member with its client id, host, rack, epoch,
 * subscription and assignment (with topic names). GROUP_ID_NOT_FOUND for an unknown group or one of
 * another type. Authorized operations are the handler's to add.
 *
 * <p>Stateless; takes the group's monitor.
 */
final class ShareGroupDescriber {

    private ShareGroupDescriber() {
    }

    static ShareGroupDescribeResponseData.DescribedGroup describe(String groupId, Errors coordinatorError,
                                                                  ClassicGroup holder, GroupTopics topics,
                                                                  String assignorName) {
        ShareGroupDescribeResponseData.DescribedGroup described =
            new ShareGroupDescribeResponseData.DescribedGroup().setGroupId(groupId);
        if (coordinatorError != Errors.NONE) {
            return described.setErrorCode(coordinatorError.code()).setErrorMessage(coordinatorError.message());
        }
        if (holder == null) {
            return notFound(described, "Group " + groupId + " not found.");
        }
        synchronized (holder) {
            ShareGroup group = holder.shareGroup();
            if (group == null || holder.is(GroupState.DEAD)) {
                return notFound(described, "Group " + groupId + " is not a share group.");
            }
            described.setGroupState(group.state().described()).setGroupEpoch(group.groupEpoch())
                .setAssignmentEpoch(group.assignmentEpoch()).setAssignorName(assignorName);
            for (ShareGroupMember m : group.members().values()) {
                described.members().add(new ShareGroupDescribeResponseData.Member().setMemberId(m.memberId())
                    .setRackId(m.rackId()).setMemberEpoch(m.memberEpoch()).setClientId(m.clientId())
                    .setClientHost(m.clientHost()).setSubscribedTopicNames(new ArrayList<>(m.subscribedTopicNames()))
                    .setAssignment(assignment(m.assigned(), topics)));
            }
        }
        return described;
    }

    private static ShareGroupDescribeResponseData.DescribedGroup notFound(
            ShareGroupDescribeResponseData.DescribedGroup described, String message) {
        return described.setErrorCode(Errors.GROUP_ID_NOT_FOUND.code()).setErrorMessage(message);
    }

    private static ShareGroupDescribeResponseData.Assignment assignment(Map<Uuid, Set<Integer>> partitions,
                                                                        GroupTopics names) {
        List<ShareGroupDescribeResponseData.TopicPartitions> out = new ArrayList<>();
        partitions.forEach((topic, ps) -> out.add(new ShareGroupDescribeResponseData.TopicPartitions()
            .setTopicId(topic).setTopicName(names.name(topic).orElse("")).setPartitions(new ArrayList<>(ps))));
        return new ShareGroupDescribeResponseData.Assignment().setTopicPartitions(out);
    }
}
