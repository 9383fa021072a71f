package io.tributary.broker.group;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.common.message.DescribeGroupsResponseData.DescribedGroup;
import org.apache.kafka.common.message.DescribeGroupsResponseData.DescribedGroupMember;
import org.apache.kafka.common.protocol.Errors;

/**
 * DescribeGroups and ListGroups over the groups this broker coordinates, classic and KIP-848
 * consumer groups alike (a consumer group is described in the classic layout Kafka gives it).
 *
 * <p>Thread-safe: each group is read under its monitor.
 */
final class GroupListing {

    private final GroupMetadataManager groups;
    private final ConsumerGroupHeartbeats consumerGroups;
    private final GroupTopics topicNames;

    GroupListing(GroupMetadataManager groups, ConsumerGroupHeartbeats consumerGroups, GroupTopics topicNames) {
        this.groups = groups;
        this.consumerGroups = consumerGroups;
        this.topicNames = topicNames;
    }

    /**
     * DescribeGroups for one group.
     *
     * @param notFoundError the error for an unknown group: NONE (v0-5, state Dead) or GROUP_ID_NOT_FOUND (v6+)
     */
    DescribedGroup describe(String groupId, Errors notFoundError) {
        DescribedGroup described = new DescribedGroup().setGroupId(groupId);
        Errors error = GroupCoordinator.invalidGroupId(groupId) ? Errors.INVALID_GROUP_ID : groups.coordinatorError(groupId);
        if (error != Errors.NONE) {
            return described.setErrorCode(error.code()).setGroupState("").setProtocolType("").setProtocolData("");
        }
        ClassicGroup group = groups.group(groupId);
        if (group == null || group.is(GroupState.DEAD)) {
            return described.setErrorCode(notFoundError.code()).setGroupState(GroupState.DEAD.protocolName())
                .setProtocolType("").setProtocolData("");
        }
        synchronized (group) {
            if (group.consumerGroup() != null) {
                return ConsumerGroupDescriber.classicView(group.consumerGroup(),
                    consumerGroups.preferredAssignor(group.consumerGroup()), topicNames);
            }
            boolean stable = group.is(GroupState.STABLE);
            described.setErrorCode(Errors.NONE.code()).setGroupState(group.state().protocolName())
                .setProtocolType(group.protocolType() == null ? "" : group.protocolType())
                .setProtocolData(stable ? group.protocolName() : "");
            for (GroupMember m : group.members()) {
                described.members().add(new DescribedGroupMember().setMemberId(m.memberId())
                    .setGroupInstanceId(m.groupInstanceId()).setClientId(m.clientId()).setClientHost(m.clientHost())
                    .setMemberMetadata(stable ? m.metadata(group.protocolName()) : new byte[0])
                    .setMemberAssignment(stable ? m.assignment() : new byte[0]));
            }
        }
        return described;
    }

    /**
     * ListGroups.
     *
     * @param states states to keep (case-insensitive), empty for all
     * @param types  group types to keep ("classic"; case-insensitive), empty for all
     */
    Map.Entry<Errors, List<GroupCoordinator.ListedGroup>> list(Collection<String> states, Collection<String> types) {
        List<GroupCoordinator.ListedGroup> out = new ArrayList<>();
        boolean classicWanted = types.isEmpty() || types.stream().anyMatch("classic"::equalsIgnoreCase);
        boolean consumerWanted = types.isEmpty() || types.stream().anyMatch("consumer"::equalsIgnoreCase);
        // Unknown state names match no group.
        Set<GroupState> wanted = states.stream().map(GroupState::forName).filter(Objects::nonNull).collect(Collectors.toSet());
        for (ClassicGroup group : groups.groups()) {
            synchronized (group) {
                if (group.is(GroupState.DEAD)) {
                    continue;
                }
                if (group.consumerGroup() != null) {
                    String state = group.consumerGroup().state().described();
                    if (consumerWanted && (states.isEmpty() || states.stream().anyMatch(state::equalsIgnoreCase))) {
                        out.add(new GroupCoordinator.ListedGroup(group.groupId(), "consumer", state, "consumer"));
                    }
                    continue;
                }
                if (!classicWanted) {
                    continue;
                }
                if (states.isEmpty() || wanted.contains(group.state())) {
                    out.add(new GroupCoordinator.ListedGroup(group.groupId(), group.protocolType() == null ? "" : group.protocolType(),
                        group.state().protocolName(), "classic"));
                }
            }
        }
        return Map.entry(groups.anyLoading() ? Errors.COORDINATOR_LOAD_IN_PROGRESS : Errors.NONE, out);
    }
}
