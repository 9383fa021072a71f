package io.tributary.broker.group;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.DescribeGroupsResponseData.DescribedGroup;
import org.apache.kafka.common.message.DescribeGroupsResponseData.DescribedGroupMember;
import org.apache.kafka.common.protocol.Errors;

/**
 * DescribeGroups, ListGroups and DeleteGroups over the groups this broker coordinates: classic,
 * KIP-848 consumer groups (described in the classic layout Kafka gives them) and KIP-932 share groups
 * (listed with type {@code share}; DescribeGroups answers them as Kafka 4 does, as not classic).
 *
 * <p>Thread-safe: each group is read under its monitor.
 */
final class GroupListing {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(GroupListing.class);

    private final GroupMetadataManager groups;
    private final ConsumerGroupHeartbeats consumerGroups;
    private final GroupTopics topicNames;
    private final org.apache.kafka.common.utils.Time time;

    GroupListing(GroupMetadataManager groups, ConsumerGroupHeartbeats consumerGroups, GroupTopics topicNames,
                 org.apache.kafka.common.utils.Time time) {
        this.groups = groups;
        this.consumerGroups = consumerGroups;
        this.topicNames = topicNames;
        this.time = time;
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
            if (group.shareGroup() != null) {
                // As Kafka 4: a share group is not a classic group (Dead without an error before v6).
                return described.setErrorCode(notFoundError.code()).setGroupState(GroupState.DEAD.protocolName())
                    .setProtocolType("").setProtocolData("").setErrorMessage(notFoundError == Errors.NONE ? null
                        : "Group " + groupId + " is not a classic group.");
            }
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
     * @param types  group types to keep ("classic", "consumer", "share"; case-insensitive), empty for all
     */
    Map.Entry<Errors, List<GroupCoordinator.ListedGroup>> list(Collection<String> states, Collection<String> types) {
        List<GroupCoordinator.ListedGroup> out = new ArrayList<>();
        boolean classicWanted = types.isEmpty() || types.stream().anyMatch("classic"::equalsIgnoreCase);
        boolean consumerWanted = types.isEmpty() || types.stream().anyMatch("consumer"::equalsIgnoreCase);
        boolean shareWanted = types.isEmpty() || types.stream().anyMatch(ShareGroup.PROTOCOL_TYPE::equalsIgnoreCase);
        // Unknown state names match no group.
        Set<GroupState> wanted = states.stream().map(GroupState::forName).filter(Objects::nonNull).collect(Collectors.toSet());
        for (ClassicGroup group : groups.groups()) {
            synchronized (group) {
                if (group.is(GroupState.DEAD)) {
                    continue;
                }
                if (group.shareGroup() != null) {
                    String state = group.shareGroup().state().described();
                    if (shareWanted && (states.isEmpty() || states.stream().anyMatch(state::equalsIgnoreCase))) {
                        out.add(new GroupCoordinator.ListedGroup(group.groupId(), ShareGroup.PROTOCOL_TYPE, state,
                            ShareGroup.PROTOCOL_TYPE));
                    }
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

    /**
     * DeleteGroups for one group: only an empty group can go (a share group too, KIP-932); its
     * offsets and metadata are deleted with tombstones, which stay deleted when the partition is
     * loaded again.
     *
     * @return NONE, GROUP_ID_NOT_FOUND, NON_EMPTY_GROUP or a coordinator error
     */
    CompletableFuture<Errors> delete(String groupId) {
        Errors error = GroupCoordinator.invalidGroupId(groupId) ? Errors.INVALID_GROUP_ID : groups.coordinatorError(groupId);
        if (error != Errors.NONE) {
            return CompletableFuture.completedFuture(error);
        }
        ClassicGroup group = groups.group(groupId);
        if (group == null) {
            return CompletableFuture.completedFuture(Errors.GROUP_ID_NOT_FOUND);
        }
        Set<TopicPartition> offsets;
        CompletableFuture<Errors> deleted;
        synchronized (group) {
            if (group.is(GroupState.DEAD)) {
                return CompletableFuture.completedFuture(Errors.GROUP_ID_NOT_FOUND);
            }
            if (!group.is(GroupState.EMPTY)) {
                return CompletableFuture.completedFuture(Errors.NON_EMPTY_GROUP);
            }
            group.transitionTo(GroupState.DEAD, time.milliseconds());
            // Commits still being written are deleted too: their records precede these tombstones.
            Set<TopicPartition> all = new HashSet<>(group.offsets().keySet());
            all.addAll(group.pendingCommitPartitions());
            offsets = Set.copyOf(all);
            groups.removeGroup(group);
            log.info("Deleting group {} and its {} committed offset(s)", groupId, offsets.size());
            if (group.consumerGroup() != null) {
                group.consumerGroup().markDead();
                groups.storeConsumerGroupRecords(groupId, ConsumerGroupRecords.groupTombstones(groupId,
                    time.milliseconds()));
            }
            if (group.shareGroup() != null) {
                groups.storeConsumerGroupRecords(groupId, ShareGroupRecords.groupTombstones(groupId, time.milliseconds()));
            }
            deleted = groups.storeTombstones(groupId, offsets, true);
        }
        return deleted;
    }
}
