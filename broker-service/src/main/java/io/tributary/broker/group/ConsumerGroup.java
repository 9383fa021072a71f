package io.tributary.broker.group;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.coordinator.group.api.assignor.ConsumerGroupPartitionAssignor;
import org.apache.kafka.coordinator.group.api.assignor.GroupAssignment;
import org.apache.kafka.coordinator.group.api.assignor.SubscribedTopicDescriber;
import org.apache.kafka.coordinator.group.api.assignor.SubscriptionType;
import org.apache.kafka.coordinator.group.modern.Assignment;
import org.apache.kafka.coordinator.group.modern.GroupSpecImpl;
import org.apache.kafka.coordinator.group.modern.MemberSubscriptionAndAssignmentImpl;

/**
 * The membership of a consumer group of the new rebalance protocol (KIP-848): its members, the
 * group epoch (bumped by every change of membership or subscriptions), and the target assignment
 * computed for an epoch by a server-side assignor; each member is reconciled towards its target
 * one step per heartbeat ({@link #reconcile}), revoking before anything it gives up is assigned
 * to another, so no partition ever has two owners and members not concerned keep consuming.
 *
 * <p>Not thread-safe: guarded by the monitor of the {@link ClassicGroup} that holds it with the
 * group's committed offsets.
 */
final class ConsumerGroup {

    /** A member leaving for good (ConsumerGroupHeartbeat member epoch -1). */
    static final int LEAVE_GROUP_MEMBER_EPOCH = -1;
    /** A static member leaving for a while, keeping its assignment (-2). */
    static final int LEAVE_GROUP_STATIC_MEMBER_EPOCH = -2;

    /** Kafka's consumer group states, as ListGroups and describe name them. */
    enum State {
        EMPTY("Empty"), ASSIGNING("Assigning"), RECONCILING("Reconciling"), STABLE("Stable"), DEAD("Dead");

        private final String described;

        State(String described) {
            this.described = described;
        }

        String described() {
            return described;
        }
    }

    private final String groupId;
    private int groupEpoch;
    private int assignmentEpoch;
    private final Map<String, ConsumerGroupMember> members = new LinkedHashMap<>();
    /** The members that speak the classic protocol (online migration), with what they joined with. */
    private final Map<String, ClassicMemberMetadata> classicMembers = new HashMap<>();
    private Map<String, Map<Uuid, Set<Integer>>> targetAssignment = Map.of();
    /** The subscribed topics the current target was computed from, by name. */
    private Map<String, GroupTopic> subscribedTopics = Map.of();
    private boolean dead;

    ConsumerGroup(String groupId) {
        this.groupId = groupId;
    }

    String groupId() {
        return groupId;
    }

    int groupEpoch() {
        return groupEpoch;
    }

    int assignmentEpoch() {
        return assignmentEpoch;
    }

    Map<String, GroupTopic> subscribedTopics() {
        return subscribedTopics;
    }

    State state() {
        if (dead) {
            return State.DEAD;
        }
        if (members.isEmpty()) {
            return State.EMPTY;
        }
        if (groupEpoch > assignmentEpoch) {
            return State.ASSIGNING;
        }
        boolean reconciled = members.values().stream().allMatch(m -> m.memberEpoch() == LEAVE_GROUP_STATIC_MEMBER_EPOCH
            || (m.memberEpoch() == assignmentEpoch && m.state() == ConsumerGroupMember.State.STABLE));
        return reconciled ? State.STABLE : State.RECONCILING;
    }

    void markDead() {
        dead = true;
    }

    Collection<ConsumerGroupMember> members() {
        return members.values();
    }

    ConsumerGroupMember member(String memberId) {
        return members.get(memberId);
    }

    Optional<ConsumerGroupMember> staticMember(String instanceId) {
        return members.values().stream().filter(m -> instanceId.equals(m.instanceId())).findFirst();
    }

    Map<Uuid, Set<Integer>> targetOf(String memberId) {
        return targetAssignment.getOrDefault(memberId, Assignments.EMPTY);
    }

    /** Adds or replaces a member; the caller bumps the group epoch when the membership or subscriptions changed. */
    void put(ConsumerGroupMember member) {
        members.put(member.memberId(), member);
    }

    /** Removes a member: its partitions are free for others at their next heartbeat. */
    void remove(String memberId) {
        members.remove(memberId);
        classicMembers.remove(memberId);
        Map<String, Map<Uuid, Set<Integer>>> target = new HashMap<>(targetAssignment);
        target.remove(memberId);
        targetAssignment = Map.copyOf(target);
    }

    /** Moves a static member's state to the member id of its replacement. */
    void replaceStatic(ConsumerGroupMember old, ConsumerGroupMember replacement) {
        members.remove(old.memberId());
        members.put(replacement.memberId(), replacement);
        ClassicMemberMetadata classic = classicMembers.remove(old.memberId());
        if (classic != null) {
            classicMembers.put(replacement.memberId(), classic);
        }
        Map<String, Map<Uuid, Set<Integer>>> target = new HashMap<>(targetAssignment);
        Map<Uuid, Set<Integer>> kept = target.remove(old.memberId());
        if (kept != null) {
            target.put(replacement.memberId(), kept);
        }
        targetAssignment = Map.copyOf(target);
    }

    /** Restores the state read from {@code __consumer_offsets} ({@link ConsumerGroupRecords.Loaded}). */
    void restore(int epoch, int targetEpoch, Collection<ConsumerGroupMember> loaded,
                 Map<String, Map<Uuid, Set<Integer>>> targets) {
        groupEpoch = epoch;
        assignmentEpoch = targetEpoch;
        members.clear();
        classicMembers.clear();
        loaded.forEach(m -> members.put(m.memberId(), m));
        Map<String, Map<Uuid, Set<Integer>>> kept = new HashMap<>();
        targets.forEach((memberId, target) -> {
            if (members.containsKey(memberId)) {
                kept.put(memberId, Assignments.copy(target));
            }
        });
        targetAssignment = Map.copyOf(kept);
    }

    /**
     * Takes the subscribed topics of a loaded group as the current target's, so a new coordinator
     * does not compute a new assignment merely because it has not seen the topics yet.
     */
    void adoptSubscribedTopics(Map<String, GroupTopic> topics) {
        subscribedTopics = Map.copyOf(topics);
    }

    /** Every member's target, by member id. */
    Map<String, Map<Uuid, Set<Integer>>> targetAssignment() {
        return targetAssignment;
    }

    void bumpGroupEpoch() {
        groupEpoch = Math.max(groupEpoch, assignmentEpoch) + 1;
    }

    /**
     * Computes the target assignment of the current group epoch with {@code assignor}, sticky to the
     * previous target: each member's subscribed topic ids come from {@code topics}, what it was
     * assigned from the last target.
     *
     * @param topics          every subscribed topic that exists, by name
     * @param topicsOfMember  the names of the topics a member subscribes to (by name or regex)
     */
    void computeTargetAssignment(ConsumerGroupPartitionAssignor assignor, Map<String, GroupTopic> topics,
                                 java.util.function.Function<ConsumerGroupMember, Set<String>> topicsOfMember) {
        Map<String, MemberSubscriptionAndAssignmentImpl> specs = new HashMap<>();
        Set<Set<Uuid>> distinct = new HashSet<>();
        Map<Uuid, Map<Integer, String>> inverted = new HashMap<>();
        for (ConsumerGroupMember member : members.values()) {
            Set<Uuid> ids = new HashSet<>();
            for (String name : topicsOfMember.apply(member)) {
                GroupTopic info = topics.get(name);
                if (info != null) {
                    ids.add(info.topicId());
                }
            }
            distinct.add(ids);
            Map<Uuid, Set<Integer>> previous = new HashMap<>();
            targetOf(member.memberId()).forEach((topic, partitions) -> {
                if (ids.contains(topic)) {
                    previous.put(topic, partitions);
                    partitions.forEach(p -> inverted.computeIfAbsent(topic, t -> new HashMap<>()).put(p, member.memberId()));
                }
            });
            specs.put(member.memberId(), new MemberSubscriptionAndAssignmentImpl(Optional.ofNullable(member.rackId()),
                Optional.ofNullable(member.instanceId()), ids, new Assignment(previous)));
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
            ? SubscriptionType.HOMOGENEOUS : SubscriptionType.HETEROGENEOUS, inverted), describer);
        Map<String, Map<Uuid, Set<Integer>>> next = new HashMap<>();
        assignment.members().forEach((memberId, member) -> next.put(memberId, Assignments.copy(member.partitions())));
        targetAssignment = Map.copyOf(next);
        subscribedTopics = Map.copyOf(topics);
        assignmentEpoch = groupEpoch;
    }

    /**
     * The member's next step towards its target assignment (KIP-848 reconciliation):
     * <ul>
     *   <li>partitions it owns but no longer has in its target must first be revoked: it keeps
     *       the rest, the others wait in {@code pendingRevocation} (UNREVOKED_PARTITIONS, same epoch)
     *       until it heartbeats without them;</li>
     *   <li>then it moves to the target's epoch and gets the partitions of its target that no other
     *       member still owns or is revoking; the rest come once released (UNRELEASED_PARTITIONS);</li>
     *   <li>STABLE when it owns exactly its target.</li>
     * </ul>
     *
     * @param owned the partitions the member reported owning in this heartbeat, or null when it did not say
     */
    ConsumerGroupMember reconcile(ConsumerGroupMember member, Map<Uuid, Set<Integer>> owned) {
        if (member.memberEpoch() < 0) {
            return member;
        }
        if (member.state() == ConsumerGroupMember.State.UNREVOKED_PARTITIONS) {
            boolean revoked = owned != null && Assignments.isEmpty(Assignments.intersection(owned,
                member.pendingRevocation()));
            if (!revoked) {
                return member;
            }
        } else if (member.memberEpoch() == assignmentEpoch && member.state() == ConsumerGroupMember.State.STABLE) {
            return member;
        }
        Map<Uuid, Set<Integer>> target = targetOf(member.memberId());
        Map<Uuid, Set<Integer>> kept = Assignments.intersection(member.assigned(), target);
        Map<Uuid, Set<Integer>> revoke = Assignments.difference(member.assigned(), target);
        if (!Assignments.isEmpty(revoke)) {
            return member.withReconciliation(member.memberEpoch(), ConsumerGroupMember.State.UNREVOKED_PARTITIONS, kept,
                revoke);
        }
        Map<Uuid, Set<Integer>> wanted = Assignments.difference(target, kept);
        Set<Map.Entry<Uuid, Integer>> ownedByOthers = ownedByOthers(member.memberId());
        Map<Uuid, Set<Integer>> free = new HashMap<>();
        Map<Uuid, Set<Integer>> unreleased = new HashMap<>();
        wanted.forEach((topic, partitions) -> partitions.forEach(p -> (ownedByOthers.contains(Map.entry(topic, p))
            ? unreleased : free).computeIfAbsent(topic, t -> new HashSet<>()).add(p)));
        return member.withReconciliation(assignmentEpoch, unreleased.isEmpty() ? ConsumerGroupMember.State.STABLE
            : ConsumerGroupMember.State.UNRELEASED_PARTITIONS, Assignments.union(kept, free), Assignments.EMPTY);
    }

    private Set<Map.Entry<Uuid, Integer>> ownedByOthers(String memberId) {
        Set<Map.Entry<Uuid, Integer>> owned = new HashSet<>();
        for (ConsumerGroupMember other : members.values()) {
            if (!other.memberId().equals(memberId)) {
                owned.addAll(Assignments.pairs(other.assigned()));
                owned.addAll(Assignments.pairs(other.pendingRevocation()));
            }
        }
        return owned;
    }

    /**
     * Checks the member of an OffsetFetch (v9+ carries the member epoch, KIP-848) as Kafka's
     * {@code ConsumerGroup.validateOffsetFetch}: the member must exist and send its current epoch
     * (no assignment epochs here). Commits are checked by {@link OffsetCommitEpochs}.
     *
     * @return NONE, UNKNOWN_MEMBER_ID, STALE_MEMBER_EPOCH, or ILLEGAL_GENERATION for a classic member
     */
    Errors validateOffsetFetch(String memberId, int memberEpoch) {
        if (memberEpoch < 0 && (memberId == null || memberId.isEmpty())) {
            return members.isEmpty() ? Errors.NONE : Errors.UNKNOWN_MEMBER_ID;
        }
        ConsumerGroupMember member = memberId == null ? null : members.get(memberId);
        if (member == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (classicMembers.containsKey(memberId)) {
            // As Kafka: a classic member's generation is its epoch, and a mismatch is an illegal generation.
            return memberEpoch == member.memberEpoch() ? Errors.NONE : Errors.ILLEGAL_GENERATION;
        }
        return memberEpoch == member.memberEpoch() ? Errors.NONE : Errors.STALE_MEMBER_EPOCH;
    }

    /** The topics any member subscribes to, by name (regexes resolved by {@code topicsOfMember}). */
    Set<String> subscribedTopicNames(java.util.function.Function<ConsumerGroupMember, Set<String>> topicsOfMember) {
        Set<String> names = new HashSet<>();
        members.values().forEach(m -> names.addAll(topicsOfMember.apply(m)));
        return names;
    }

    /** The classic-protocol metadata of a member, or null when it uses the consumer protocol (or is unknown). */
    ClassicMemberMetadata classicMember(String memberId) {
        return classicMembers.get(memberId);
    }

    /** Marks a member as speaking the classic protocol with this metadata (null: the consumer protocol). */
    void classicMember(String memberId, ClassicMemberMetadata metadata) {
        if (metadata == null) {
            classicMembers.remove(memberId);
        } else {
            classicMembers.put(memberId, metadata);
        }
    }

    /** Whether every member but {@code memberId} speaks the classic protocol (Kafka's downgrade condition). */
    boolean allClassicExcept(String memberId) {
        return members.keySet().stream().allMatch(id -> id.equals(memberId) || classicMembers.containsKey(id));
    }

    /**
     * Whether a member in UNRELEASED_PARTITIONS still waits for a partition of its target that
     * another member owns or is revoking (Kafka's {@code waitingOnUnreleasedPartition}).
     */
    boolean waitingOnUnreleased(ConsumerGroupMember member) {
        Set<Map.Entry<Uuid, Integer>> others = ownedByOthers(member.memberId());
        return Assignments.pairs(Assignments.difference(targetOf(member.memberId()), member.assigned())).stream()
            .anyMatch(others::contains);
    }

    /** Member ids, for logs. */
    List<String> memberIds() {
        return new ArrayList<>(members.keySet());
    }
}
