package io.tributary.broker.group;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.api.assignor.GroupAssignment;
import org.apache.kafka.coordinator.group.api.assignor.ShareGroupPartitionAssignor;
import org.apache.kafka.coordinator.group.api.assignor.SubscribedTopicDescriber;
import org.apache.kafka.coordinator.group.api.assignor.SubscriptionType;
import org.apache.kafka.coordinator.group.modern.Assignment;
import org.apache.kafka.coordinator.group.modern.GroupSpecImpl;
import org.apache.kafka.coordinator.group.modern.MemberSubscriptionAndAssignmentImpl;

/**
 * A share group (KIP-932) at one moment: its members, the group epoch (bumped by every change of
 * membership, subscriptions or subscribed topics' metadata), and the target assignment computed for
 * an epoch by Kafka's share-group assignor ({@code simple}). A change makes a new value; the
 * coordinator keeps the current one in the group's {@link ClassicGroup} holder.
 *
 * <p>Invariant: {@code assignmentEpoch <= groupEpoch}; the target names only members of the group.
 * Immutable.
 *
 * @param groupId          the group id
 * @param groupEpoch       the group epoch
 * @param metadataHash     a hash of the subscribed topics' names, ids and partition counts when the
 *                         epoch was last bumped (stored as {@code ShareGroupMetadataValue.MetadataHash};
 *                         computed by {@link #metadataHash(Map)}, not Kafka's hash)
 * @param assignmentEpoch  the epoch of the target assignment
 * @param members          members by member id, in join order
 * @param targetAssignment each member's target partitions by topic id, by member id
 * @param statePartitions  the partitions, by topic id, whose share coordinator state the group may
 *                         have: every partition it was ever assigned or had its offsets altered for,
 *                         until deleted (record type 15, {@code ShareGroupStatePartitionMetadataValue}'s
 *                         initialized topics: state the group coordinator initialized, see
 *                         {@link ShareGroupStateInitializer})
 */
record ShareGroup(String groupId, int groupEpoch, long metadataHash, int assignmentEpoch,
                  Map<String, ShareGroupMember> members, Map<String, Map<Uuid, Set<Integer>>> targetAssignment,
                  Map<Uuid, Set<Integer>> statePartitions) {

    /** The member epoch of a ShareGroupHeartbeat leaving the group. */
    static final int LEAVE_GROUP_MEMBER_EPOCH = -1;
    /** The protocol type ListGroups gives share groups, as Kafka does. */
    static final String PROTOCOL_TYPE = "share";

    /** Kafka's share group states, as ListGroups and ShareGroupDescribe name them. */
    enum State {
        EMPTY("Empty"), STABLE("Stable");

        private final String described;

        State(String described) {
            this.described = described;
        }

        String described() {
            return described;
        }
    }

    ShareGroup {
        members = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(members));
        Map<String, Map<Uuid, Set<Integer>>> target = new HashMap<>();
        targetAssignment.forEach((memberId, partitions) -> target.put(memberId, Assignments.copy(partitions)));
        targetAssignment = Map.copyOf(target);
        statePartitions = Assignments.copy(statePartitions);
    }

    ShareGroup(String groupId, int groupEpoch, long metadataHash, int assignmentEpoch,
               Map<String, ShareGroupMember> members, Map<String, Map<Uuid, Set<Integer>>> targetAssignment) {
        this(groupId, groupEpoch, metadataHash, assignmentEpoch, members, targetAssignment, Map.of());
    }

    /** This group with {@code statePartitions} as the partitions whose share state it may have. */
    ShareGroup withStatePartitions(Map<Uuid, Set<Integer>> next) {
        return new ShareGroup(groupId, groupEpoch, metadataHash, assignmentEpoch, members, targetAssignment, next);
    }

    /** Its state partitions with every partition of its target assignment added. */
    Map<Uuid, Set<Integer>> statePartitionsWithTarget() {
        Map<Uuid, Set<Integer>> all = new HashMap<>();
        statePartitions.forEach((topic, ps) -> all.computeIfAbsent(topic, t -> new TreeSet<>()).addAll(ps));
        targetAssignment.values().forEach(target -> target.forEach((topic, ps) ->
            all.computeIfAbsent(topic, t -> new TreeSet<>()).addAll(ps)));
        return all;
    }

    /** A new group without members, at epoch 0. */
    static ShareGroup empty(String groupId) {
        return new ShareGroup(groupId, 0, 0, 0, Map.of(), Map.of());
    }

    State state() {
        return members.isEmpty() ? State.EMPTY : State.STABLE;
    }

    ShareGroupMember member(String memberId) {
        return members.get(memberId);
    }

    Map<Uuid, Set<Integer>> targetOf(String memberId) {
        return targetAssignment.getOrDefault(memberId, Assignments.EMPTY);
    }

    /** This group with {@code member} added or replaced. */
    ShareGroup withMember(ShareGroupMember member) {
        Map<String, ShareGroupMember> next = new LinkedHashMap<>(members);
        next.put(member.memberId(), member);
        return new ShareGroup(groupId, groupEpoch, metadataHash, assignmentEpoch, next, targetAssignment, statePartitions);
    }

    /** This group without the member and its target (its partitions go to others at the next assignment). */
    ShareGroup withoutMember(String memberId) {
        Map<String, ShareGroupMember> next = new LinkedHashMap<>(members);
        next.remove(memberId);
        Map<String, Map<Uuid, Set<Integer>>> target = new HashMap<>(targetAssignment);
        target.remove(memberId);
        return new ShareGroup(groupId, groupEpoch, metadataHash, assignmentEpoch, next, target, statePartitions);
    }

    /** This group at the next epoch, its subscribed topics' metadata hashing to {@code hash}. */
    ShareGroup bumped(long hash) {
        return new ShareGroup(groupId, Math.max(groupEpoch, assignmentEpoch) + 1, hash, assignmentEpoch, members,
            targetAssignment, statePartitions);
    }

    /**
     * This group with the target assignment of its group epoch, computed by {@code assignor} from
     * each member's subscription ({@code topics} are the subscribed topics that exist, by name), the
     * previous target passed as each member's current assignment; only the partitions of
     * {@code assignable} are given out (the initialized ones, as Kafka 4.4 assigns).
     */
    ShareGroup withTargetAssignment(ShareGroupPartitionAssignor assignor, Map<String, GroupTopic> topics,
                                    Map<Uuid, Set<Integer>> assignable) {
        Map<String, MemberSubscriptionAndAssignmentImpl> specs = new HashMap<>();
        Set<Set<Uuid>> distinct = new java.util.HashSet<>();
        for (ShareGroupMember member : members.values()) {
            Set<Uuid> ids = new java.util.HashSet<>();
            member.subscribedTopicNames().forEach(name -> Optional.ofNullable(topics.get(name))
                .ifPresent(t -> ids.add(t.topicId())));
            distinct.add(ids);
            Map<Uuid, Set<Integer>> previous = new HashMap<>();
            targetOf(member.memberId()).forEach((topic, partitions) -> {
                if (ids.contains(topic)) {
                    previous.put(topic, partitions);
                }
            });
            specs.put(member.memberId(), new MemberSubscriptionAndAssignmentImpl(Optional.ofNullable(member.rackId()),
                Optional.empty(), ids, new Assignment(previous)));
        }
        Map<Uuid, Integer> partitionCounts = new HashMap<>();
        topics.values().forEach(t -> partitionCounts.put(t.topicId(), t.partitions()));
        SubscribedTopicDescriber describer = new SubscribedTopicDescriber() {
            @Override
            public int numPartitions(Uuid topicId) {
                return partitionCounts.getOrDefault(topicId, -1);
            }

            @Override
            public Set<String> racksForPartition(Uuid topicId, int partition) {
                return Set.of();
            }
        };
        GroupAssignment assignment = assignor.assign(new GroupSpecImpl(specs, distinct.size() <= 1
            ? SubscriptionType.HOMOGENEOUS : SubscriptionType.HETEROGENEOUS, Map.of(), Optional.of(assignable)), describer);
        Map<String, Map<Uuid, Set<Integer>>> next = new HashMap<>();
        assignment.members().forEach((memberId, member) -> next.put(memberId, member.partitions()));
        return new ShareGroup(groupId, groupEpoch, metadataHash, groupEpoch, members, next, statePartitions);
    }

    /** The topic names any member subscribes to. */
    Set<String> subscribedTopicNames() {
        Set<String> names = new TreeSet<>();
        members.values().forEach(m -> names.addAll(m.subscribedTopicNames()));
        return names;
    }

    /**
     * A hash of the subscribed topics that exist (name, id, partition count), so a topic created,
     * deleted or grown among them changes it. Stable across brokers and restarts (no identity hashes).
     */
    static long metadataHash(Map<String, GroupTopic> subscribed) {
        long hash = 1125899906842597L;
        for (String name : new TreeSet<>(subscribed.keySet())) {
            GroupTopic topic = subscribed.get(name);
            hash = 31 * hash + name.hashCode();
            hash = 31 * hash + topic.topicId().getMostSignificantBits();
            hash = 31 * hash + topic.topicId().getLeastSignificantBits();
            hash = 31 * hash + topic.partitions();
        }
        return subscribed.isEmpty() ? 0 : hash;
    }

    /** Member ids, for logs. */
    Collection<String> memberIds() {
        return members.keySet();
    }
}
