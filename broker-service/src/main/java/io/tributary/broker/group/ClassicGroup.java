package io.tributary.broker.group;

import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.TopicPartition;

/**
 * A classic consumer group (JoinGroup/SyncGroup protocol): its state, generation, selected
 * protocol, leader, members (including static members by instance id and members that got
 * MEMBER_ID_REQUIRED but have not joined yet, KIP-394) and its committed offsets.
 *
 * <p>Invariants: the leader is a member when there are members; a group in CompletingRebalance
 * or Stable has a protocol every member supports; transitions follow {@link GroupState}.
 *
 * <p>Not thread-safe: every access holds the group's monitor ({@code synchronized (group)}).
 */
final class ClassicGroup {

    private final String groupId;
    private final Map<String, GroupMember> members = new LinkedHashMap<>();
    private final Map<String, String> staticMembers = new HashMap<>();
    private final Set<String> pendingMembers = new HashSet<>();
    private final Set<String> pendingSyncMembers = new HashSet<>();
    private final Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    /** Partitions with a commit being written, and how many (Kafka's pendingOffsetCommits). */
    private final Map<TopicPartition, Integer> pendingOffsetCommits = new HashMap<>();
    /** Topics the members of the current generation subscribe to (consumer protocol), fixed when it starts. */
    private Set<String> subscribedTopics = Set.of();
    private GroupState state = GroupState.EMPTY;
    private long currentStateTimestamp;
    private String protocolType;
    private String protocolName;
    private int generationId;
    private String leaderId;
    private boolean newMemberAdded;
    private ScheduledFuture<?> rebalanceTimer;
    private boolean initialJoinDelay;
    /** The membership when the group uses the new consumer protocol (KIP-848); null for a classic group. */
    private ConsumerGroup consumerGroup;
    /** The share group (KIP-932) of this id, or null; such a holder has no classic members nor offsets. */
    private ShareGroup shareGroup;

    ClassicGroup(String groupId, long nowMs) {
        this.groupId = groupId;
        this.currentStateTimestamp = nowMs;
    }

    String groupId() {
        return groupId;
    }

    GroupState state() {
        return state;
    }

    /**
     * Whether the group is in state {@code s}. A consumer group of the new protocol with members (its classic state
     * stays Empty) is not Empty: its offsets do not expire and it cannot be deleted.
     */
    boolean is(GroupState s) {
        if (s == GroupState.EMPTY && (consumerGroup != null && !consumerGroup.members().isEmpty()
                || shareGroup != null && !shareGroup.members().isEmpty())) {
            return false;
        }
        return state == s;
    }

    /** Moves to {@code target}; IllegalStateException when Kafka's state machine does not allow it. */
    void transitionTo(GroupState target, long nowMs) {
        if (!target.canTransitionFrom(state)) {
            throw new IllegalStateException("Group " + groupId + " cannot move from " + state + " to " + target);
        }
        state = target;
        currentStateTimestamp = nowMs;
    }

    /** Broker time of the last state change, ms (KIP-211: empty groups' offsets expire from here). */
    long currentStateTimestamp() {
        return currentStateTimestamp;
    }

    String protocolType() {
        return protocolType;
    }

    String protocolName() {
        return protocolName;
    }

    int generationId() {
        return generationId;
    }

    String leaderId() {
        return leaderId;
    }

    boolean isLeader(String memberId) {
        return memberId.equals(leaderId);
    }

    /** Restores state read from {@code __consumer_offsets}. */
    void restore(String type, String protocol, int generation, String leader, long stateTimestamp, List<GroupMember> loaded) {
        this.protocolType = type;
        this.protocolName = protocol;
        this.generationId = generation;
        this.leaderId = leader;
        this.currentStateTimestamp = stateTimestamp;
        for (GroupMember m : loaded) {
            members.put(m.memberId(), m);
            if (m.isStatic()) {
                staticMembers.put(m.groupInstanceId(), m.memberId());
            }
        }
        state = members.isEmpty() ? GroupState.EMPTY : GroupState.STABLE;
        subscribedTopics = computeSubscribedTopics();
    }

    Collection<GroupMember> members() {
        return members.values();
    }

    int size() {
        return members.size();
    }

    boolean isEmptyOfMembers() {
        return members.isEmpty();
    }

    boolean has(String memberId) {
        return members.containsKey(memberId);
    }

    GroupMember get(String memberId) {
        return members.get(memberId);
    }

    /** The member id of a static member, if one with this instance id is in the group. */
    Optional<String> staticMemberId(String groupInstanceId) {
        return Optional.ofNullable(staticMembers.get(groupInstanceId));
    }

    void add(GroupMember member) {
        if (members.isEmpty()) {
            this.protocolType = member.protocolType();
        }
        members.put(member.memberId(), member);
        if (member.isStatic()) {
            staticMembers.put(member.groupInstanceId(), member.memberId());
        }
        pendingMembers.remove(member.memberId());
        if (leaderId == null) {
            leaderId = member.memberId();
        }
        if (is(GroupState.PREPARING_REBALANCE)) {
            newMemberAdded = true;
        }
    }

    /** Removes a member; the leadership passes to another member if it held it. */
    GroupMember remove(String memberId) {
        GroupMember removed = members.remove(memberId);
        pendingSyncMembers.remove(memberId);
        if (removed != null && removed.isStatic()) {
            staticMembers.remove(removed.groupInstanceId(), memberId);
        }
        if (memberId.equals(leaderId)) {
            leaderId = members.isEmpty() ? null : members.keySet().iterator().next();
        }
        return removed;
    }

    /** Gives a static member a new member id (it restarted), keeping its place, assignment and leadership. */
    GroupMember replaceStaticMember(String oldMemberId, String newMemberId) {
        GroupMember old = members.remove(oldMemberId);
        GroupMember replacement = old.withMemberId(newMemberId);
        members.put(newMemberId, replacement);
        staticMembers.put(replacement.groupInstanceId(), newMemberId);
        if (oldMemberId.equals(leaderId)) {
            leaderId = newMemberId;
        }
        if (pendingSyncMembers.remove(oldMemberId)) {
            pendingSyncMembers.add(newMemberId);
        }
        old.cancelHeartbeatExpiry();
        return old;
    }

    /** Whether a new member was given its id (KIP-394) and has not joined with it yet. */
    boolean hasPendingMembers() {
        return !pendingMembers.isEmpty();
    }

    /** The member ids handed out with MEMBER_ID_REQUIRED (KIP-394) that have not joined with them yet. */
    Set<String> pendingMembers() {
        return Set.copyOf(pendingMembers);
    }

    boolean isPendingMember(String memberId) {
        return pendingMembers.contains(memberId);
    }

    void addPendingMember(String memberId) {
        pendingMembers.add(memberId);
    }

    boolean removePendingMember(String memberId) {
        return pendingMembers.remove(memberId);
    }

    Set<String> pendingSyncMembers() {
        return Set.copyOf(pendingSyncMembers);
    }

    void removePendingSyncMember(String memberId) {
        pendingSyncMembers.remove(memberId);
    }

    /** Whether every member of the generation has sent its SyncGroup. */
    boolean hasReceivedSyncFromAllMembers() {
        return pendingSyncMembers.isEmpty();
    }

    boolean newMemberAdded() {
        return newMemberAdded;
    }

    void resetNewMemberAdded() {
        newMemberAdded = false;
    }

    /** Whether every member has sent its JoinGroup and no member with a new id is still expected. */
    boolean hasAllMembersJoined() {
        return pendingMembers.isEmpty() && members.values().stream().allMatch(GroupMember::isAwaitingJoin);
    }

    /**
     * Whether a member that is not yet in the group may join, under {@code group.max.size} (Kafka's
     * acceptJoiningMember): while preparing a rebalance the members that rejoined count, otherwise all members.
     */
    boolean canAcceptNewMember(int maxSize) {
        return switch (state) {
            case EMPTY, DEAD -> true;
            case PREPARING_REBALANCE -> members.values().stream().filter(GroupMember::isAwaitingJoin).count() < maxSize;
            case COMPLETING_REBALANCE, STABLE -> members.size() < maxSize;
        };
    }

    /**
     * Makes sure the leader is a member that rejoined: keeps the leader if it did, or passes the
     * leadership to one that did; false when no member rejoined.
     */
    boolean electJoinedLeader() {
        GroupMember leader = leaderId == null ? null : members.get(leaderId);
        if (leader != null && leader.isAwaitingJoin()) {
            return true;
        }
        for (GroupMember m : members.values()) {
            if (m.isAwaitingJoin()) {
                leaderId = m.memberId();
                return true;
            }
        }
        return false;
    }

    /** Members that have not rejoined in this rebalance. */
    List<GroupMember> notYetRejoinedMembers() {
        return members.values().stream().filter(m -> !m.isAwaitingJoin()).toList();
    }

    /** The join phase's bound: the largest rebalance timeout of the members, ms. */
    int rebalanceTimeoutMs() {
        return members.values().stream().mapToInt(GroupMember::rebalanceTimeoutMs).max().orElse(0);
    }

    /** Whether a member may be added to or rebalance this group (not Dead). */
    boolean canRebalance() {
        return state == GroupState.STABLE || state == GroupState.COMPLETING_REBALANCE || state == GroupState.EMPTY;
    }

    /**
     * Whether a member with this protocol type and these protocols can join: an empty group
     * takes any, otherwise the type must match and at least one protocol be supported by all.
     */
    boolean supportsProtocols(String type, List<String> names) {
        if (members.isEmpty()) {
            return type != null && !type.isEmpty() && !names.isEmpty();
        }
        if (!type.equals(protocolType)) {
            return false;
        }
        Set<String> candidates = candidateProtocols();
        return names.stream().anyMatch(candidates::contains);
    }

    /** Protocols every member supports, in the first member's preference order. */
    private Set<String> candidateProtocols() {
        Set<String> candidates = null;
        for (GroupMember m : members.values()) {
            if (candidates == null) {
                candidates = new LinkedHashSet<>(m.protocolNames());
            } else {
                candidates.retainAll(m.protocolNames());
            }
        }
        return candidates == null ? Set.of() : candidates;
    }

    /**
     * The protocol for the next generation: among those every member supports, the one most
     * members prefer (each member votes for its most preferred candidate).
     */
    String selectProtocol() {
        Set<String> candidates = candidateProtocols();
        Map<String, Integer> votes = new LinkedHashMap<>();
        candidates.forEach(c -> votes.put(c, 0));
        for (GroupMember m : members.values()) {
            for (String name : m.protocolNames()) {
                if (candidates.contains(name)) {
                    votes.merge(name, 1, Integer::sum);
                    break;
                }
            }
        }
        return votes.entrySet().stream().max(Map.Entry.comparingByValue())
            .map(Map.Entry::getKey)
            .orElseThrow(() -> new IllegalStateException("Group " + groupId + " has no common protocol"));
    }

    /** Starts the next generation: the members that joined move on with a protocol (CompletingRebalance), else Empty. */
    void initNextGeneration(long nowMs) {
        generationId++;
        if (!members.isEmpty()) {
            protocolName = selectProtocol();
            transitionTo(GroupState.COMPLETING_REBALANCE, nowMs);
            pendingSyncMembers.clear();
            pendingSyncMembers.addAll(members.keySet());
        } else {
            protocolName = null;
            transitionTo(GroupState.EMPTY, nowMs);
        }
        subscribedTopics = computeSubscribedTopics();
        newMemberAdded = false;
    }

    /**
     * The topics the members of the current generation subscribe to with the consumer protocol (else empty), fixed when
     * the generation starts as Kafka keeps it: members that rejoin with other subscriptions meanwhile do not change it.
     */
    Set<String> subscribedTopics() {
        return subscribedTopics;
    }

    private Set<String> computeSubscribedTopics() {
        Set<String> topics = new HashSet<>();
        if (!"consumer".equals(protocolType) || protocolName == null) {
            return topics;
        }
        for (GroupMember m : members.values()) {
            try {
                topics.addAll(ConsumerProtocol
                    .deserializeSubscription(ByteBuffer.wrap(m.metadata(protocolName))).topics());
            } catch (RuntimeException e) {
                // A member whose subscription cannot be read subscribes to nothing we can name.
            }
        }
        return Set.copyOf(topics);
    }

    /** A commit of {@code tp} is being written. */
    void addPendingCommit(TopicPartition tp) {
        pendingOffsetCommits.merge(tp, 1, Integer::sum);
    }

    /** A commit of {@code tp} was written or failed. */
    void removePendingCommit(TopicPartition tp) {
        pendingOffsetCommits.computeIfPresent(tp, (k, n) -> n == 1 ? null : n - 1);
    }

    boolean hasPendingCommit(TopicPartition tp) {
        return pendingOffsetCommits.containsKey(tp);
    }

    /** Partitions with a commit being written. */
    Set<TopicPartition> pendingCommitPartitions() {
        return Set.copyOf(pendingOffsetCommits.keySet());
    }

    Map<TopicPartition, OffsetAndMetadata> offsets() {
        return offsets;
    }

    void commit(TopicPartition tp, OffsetAndMetadata offset) {
        offsets.put(tp, offset);
    }

    void removeOffset(TopicPartition tp) {
        offsets.remove(tp);
    }

    /**
     * Replaces the timer bounding the current join or sync phase, cancelling the previous one; {@code initialDelay}: it is
     * the initial delay of a new group's first rebalance (which completes only when it fires, to let more members join).
     */
    void rebalanceTimer(ScheduledFuture<?> timer, boolean initialDelay) {
        if (rebalanceTimer != null) {
            rebalanceTimer.cancel(false);
        }
        rebalanceTimer = timer;
        initialJoinDelay = initialDelay;
    }

    void cancelRebalanceTimer() {
        rebalanceTimer(null, false);
    }

    boolean inInitialJoinDelay() {
        return initialJoinDelay;
    }

    @Override
    public String toString() {
        return "ClassicGroup(" + groupId + ", " + state + ", generation " + generationId + ", " + members.size()
            + " member(s))";
    }

    /** The KIP-848 membership of this group, or null when it is a classic group. */
    ConsumerGroup consumerGroup() {
        return consumerGroup;
    }

    /**
     * Makes this empty classic group (or group of offsets only) a consumer group of the new protocol, as Kafka does
     * when a new-protocol member joins an empty classic group; IllegalStateException when it has classic members.
     */
    ConsumerGroup becomeConsumerGroup() {
        if (consumerGroup == null) {
            if (!members.isEmpty() || !pendingMembers.isEmpty()) {
                throw new IllegalStateException("Group " + groupId + " has classic members");
            }
            consumerGroup = new ConsumerGroup(groupId);
            protocolType = "consumer";
        }
        return consumerGroup;
    }

    /** The last consumer-protocol member left at {@code nowMs}: the group's offsets expire from then (KIP-211). */
    void consumerGroupEmptied(long nowMs) {
        currentStateTimestamp = nowMs;
    }

    /**
     * Goes back to a classic group once the consumer group has no member left (a classic member joins), or
     * with members when {@code downgrade} (an online downgrade, {@link GroupMigration}: the caller restores them).
     */
    void revertToClassic(boolean downgrade) {
        if (consumerGroup != null && (downgrade || consumerGroup.members().isEmpty())) {
            consumerGroup = null;
        }
    }

    /** Online upgrade ({@link GroupMigration}): the classic members go (moved into {@code converted}); offsets stay. */
    void replaceWithConsumerGroup(ConsumerGroup converted, long nowMs) {
        List.of(members, staticMembers).forEach(Map::clear);
        List.of(pendingMembers, pendingSyncMembers).forEach(Set::clear);
        cancelRebalanceTimer();
        leaderId = null;
        protocolName = null;
        state = GroupState.EMPTY;
        currentStateTimestamp = nowMs;
        consumerGroup = converted;
        protocolType = "consumer";
    }

    /** The share group of this id, or null when it is not a share group. */
    ShareGroup shareGroup() {
        return shareGroup;
    }

    /** Makes this holder a share group's, or replaces its state with the next one. */
    void shareGroup(ShareGroup next) {
        shareGroup = next;
    }
}
