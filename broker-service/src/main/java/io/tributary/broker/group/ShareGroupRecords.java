package io.tributary.broker.group;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.coordinator.group.generated.ShareGroupCurrentMemberAssignmentKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupCurrentMemberAssignmentValue;
import org.apache.kafka.coordinator.group.generated.ShareGroupMemberMetadataKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupMemberMetadataValue;
import org.apache.kafka.coordinator.group.generated.ShareGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.ShareGroupStatePartitionMetadataKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupStatePartitionMetadataValue;
import org.apache.kafka.coordinator.group.generated.ShareGroupTargetAssignmentMemberKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupTargetAssignmentMemberValue;
import org.apache.kafka.coordinator.group.generated.ShareGroupTargetAssignmentMetadataKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupTargetAssignmentMetadataValue;

/**
 * The records of share groups (KIP-932) in {@code __consumer_offsets}, in Kafka 4.4's layouts (the
 * generated messages of Kafka's group coordinator module; a key is prefixed with its record type, a
 * value with its version): each member's subscription (type 10), the group epoch and subscribed
 * topics' metadata hash (11), the target assignment's epoch (12) and each member's target (13), and
 * each member's current assignment and epochs (14), and the partitions whose share coordinator state
 * the group has (15: initialized topics, and initializing ones while the group coordinator's
 * InitializeShareGroupState is under way; a coordinator loading the group counts initializing ones as
 * initialized, and a share-partition leader that finds no state initializes it. Tributary writes no
 * deleting topics: deletions complete before the record is written). A removed member's three records and a deleted group's three are tombstoned. {@link Loaded} rebuilds the groups when a
 * coordinator loads a partition.
 *
 * <p>Stateless, except {@link Loaded}, which one loader thread fills.
 */
final class ShareGroupRecords {

    private static final short MEMBER_METADATA = 10;
    private static final short GROUP_METADATA = 11;
    private static final short TARGET_METADATA = 12;
    private static final short TARGET_MEMBER = 13;
    private static final short CURRENT_ASSIGNMENT = 14;
    private static final short STATE_PARTITION_METADATA = 15;

    private ShareGroupRecords() {
    }

    /** Whether a key of {@code __consumer_offsets} is one of a share group. */
    static boolean isShareGroupKey(ByteBuffer key) {
        short type = key.duplicate().getShort();
        return type >= MEMBER_METADATA && type <= STATE_PARTITION_METADATA;
    }

    static SimpleRecord groupEpoch(String groupId, int epoch, long metadataHash, long nowMs) {
        return record(nowMs, new ShareGroupMetadataKey().setGroupId(groupId),
            new ShareGroupMetadataValue().setEpoch(epoch).setMetadataHash(metadataHash),
            ShareGroupMetadataValue.HIGHEST_SUPPORTED_VERSION);
    }

    static SimpleRecord memberSubscription(String groupId, ShareGroupMember m, long nowMs) {
        return record(nowMs, new ShareGroupMemberMetadataKey().setGroupId(groupId).setMemberId(m.memberId()),
            new ShareGroupMemberMetadataValue().setRackId(m.rackId()).setClientId(m.clientId())
                .setClientHost(m.clientHost()).setSubscribedTopicNames(new ArrayList<>(m.subscribedTopicNames())),
            ShareGroupMemberMetadataValue.HIGHEST_SUPPORTED_VERSION);
    }

    static SimpleRecord targetEpoch(String groupId, int assignmentEpoch, long nowMs) {
        return record(nowMs, new ShareGroupTargetAssignmentMetadataKey().setGroupId(groupId),
            new ShareGroupTargetAssignmentMetadataValue().setAssignmentEpoch(assignmentEpoch)
                .setAssignmentTimestamp(nowMs),
            ShareGroupTargetAssignmentMetadataValue.HIGHEST_SUPPORTED_VERSION);
    }

    static SimpleRecord targetMember(String groupId, String memberId, Map<Uuid, Set<Integer>> target, long nowMs) {
        List<ShareGroupTargetAssignmentMemberValue.TopicPartition> partitions = new ArrayList<>();
        target.forEach((topic, ps) -> partitions.add(new ShareGroupTargetAssignmentMemberValue.TopicPartition()
            .setTopicId(topic).setPartitions(new ArrayList<>(ps))));
        return record(nowMs, new ShareGroupTargetAssignmentMemberKey().setGroupId(groupId).setMemberId(memberId),
            new ShareGroupTargetAssignmentMemberValue().setTopicPartitions(partitions),
            ShareGroupTargetAssignmentMemberValue.HIGHEST_SUPPORTED_VERSION);
    }

    /** A member's current assignment; its state is always 0 (STABLE: share groups do not revoke). */
    static SimpleRecord currentAssignment(String groupId, ShareGroupMember m, long nowMs) {
        List<ShareGroupCurrentMemberAssignmentValue.TopicPartitions> partitions = new ArrayList<>();
        m.assigned().forEach((topic, ps) -> partitions.add(new ShareGroupCurrentMemberAssignmentValue.TopicPartitions()
            .setTopicId(topic).setPartitions(new ArrayList<>(ps))));
        return record(nowMs, new ShareGroupCurrentMemberAssignmentKey().setGroupId(groupId).setMemberId(m.memberId()),
            new ShareGroupCurrentMemberAssignmentValue().setMemberEpoch(m.memberEpoch())
                .setPreviousMemberEpoch(m.previousMemberEpoch()).setState((byte) 0).setAssignedPartitions(partitions),
            ShareGroupCurrentMemberAssignmentValue.HIGHEST_SUPPORTED_VERSION);
    }

    /** The tombstones of a removed member's current assignment, target and subscription. */
    static List<SimpleRecord> memberTombstones(String groupId, String memberId, long nowMs) {
        return List.of(
            tombstone(nowMs, new ShareGroupCurrentMemberAssignmentKey().setGroupId(groupId).setMemberId(memberId)),
            tombstone(nowMs, new ShareGroupTargetAssignmentMemberKey().setGroupId(groupId).setMemberId(memberId)),
            tombstone(nowMs, new ShareGroupMemberMetadataKey().setGroupId(groupId).setMemberId(memberId)));
    }

    /** The tombstones of a deleted group's state partitions, target epoch and group epoch. */
    static List<SimpleRecord> groupTombstones(String groupId, long nowMs) {
        return List.of(tombstone(nowMs, new ShareGroupStatePartitionMetadataKey().setGroupId(groupId)),
            tombstone(nowMs, new ShareGroupTargetAssignmentMetadataKey().setGroupId(groupId)),
            tombstone(nowMs, new ShareGroupMetadataKey().setGroupId(groupId)));
    }

    /**
     * The partitions whose share state the group may have (type 15), all of them, as initialized topics.
     *
     * @param names a topic's name by id (empty for a topic deleted since)
     */
    static SimpleRecord statePartitions(String groupId, Map<Uuid, Set<Integer>> partitions,
                                        java.util.function.Function<Uuid, String> names, long nowMs) {
        return statePartitions(groupId, partitions, Map.of(), names, nowMs);
    }

    /**
     * The partitions whose share state the group has (type 15): {@code initialized}, and those whose
     * InitializeShareGroupState the group coordinator sent and awaits ({@code initializing}).
     *
     * @param names a topic's name by id (empty for a topic deleted since)
     */
    static SimpleRecord statePartitions(String groupId, Map<Uuid, Set<Integer>> initialized,
                                        Map<Uuid, Set<Integer>> initializing,
                                        java.util.function.Function<Uuid, String> names, long nowMs) {
        return record(nowMs, new ShareGroupStatePartitionMetadataKey().setGroupId(groupId),
            new ShareGroupStatePartitionMetadataValue().setInitializedTopics(topicInfos(initialized, names))
                .setInitializingTopics(topicInfos(initializing, names)),
            ShareGroupStatePartitionMetadataValue.HIGHEST_SUPPORTED_VERSION);
    }

    private static List<ShareGroupStatePartitionMetadataValue.TopicPartitionsInfo> topicInfos(
            Map<Uuid, Set<Integer>> partitions, java.util.function.Function<Uuid, String> names) {
        List<ShareGroupStatePartitionMetadataValue.TopicPartitionsInfo> infos = new ArrayList<>();
        partitions.forEach((topic, ps) -> infos.add(new ShareGroupStatePartitionMetadataValue.TopicPartitionsInfo()
            .setTopicId(topic).setTopicName(names.apply(topic)).setPartitions(new ArrayList<>(new java.util.TreeSet<>(ps)))));
        return infos;
    }

    private static SimpleRecord record(long nowMs, ApiMessage key, ApiMessage value, short valueVersion) {
        return new SimpleRecord(nowMs, MessageUtil.toCoordinatorTypePrefixedBytes(key),
            MessageUtil.toVersionPrefixedBytes(valueVersion, value));
    }

    private static SimpleRecord tombstone(long nowMs, ApiMessage key) {
        return new SimpleRecord(nowMs, MessageUtil.toCoordinatorTypePrefixedBytes(key), null);
    }

    /** The share groups of one partition as its records leave them, read in order; a tombstone removes. */
    static final class Loaded {

        private static final class Group {
            int epoch = -1;
            long metadataHash;
            int assignmentEpoch;
            final Map<String, ShareGroupMemberMetadataValue> subscriptions = new LinkedHashMap<>();
            final Map<String, ShareGroupCurrentMemberAssignmentValue> current = new HashMap<>();
            final Map<String, Map<Uuid, Set<Integer>>> targets = new HashMap<>();
            final Map<Uuid, Set<Integer>> statePartitions = new HashMap<>();
        }

        private final Map<String, Group> groups = new HashMap<>();

        /** Applies one record (key and value as stored; a null value is a tombstone). */
        void apply(ByteBuffer key, ByteBuffer value) {
            ByteBuffer k = key.duplicate();
            short type = k.getShort();
            ByteBufferAccessor keyReader = new ByteBufferAccessor(k);
            ByteBufferAccessor valueReader = null;
            short version = 0;
            if (value != null) {
                ByteBuffer v = value.duplicate();
                version = v.getShort();
                valueReader = new ByteBufferAccessor(v);
            }
            switch (type) {
                case GROUP_METADATA -> {
                    String groupId = new ShareGroupMetadataKey(keyReader, (short) 0).groupId();
                    if (valueReader == null) {
                        groups.remove(groupId);
                    } else {
                        ShareGroupMetadataValue v = new ShareGroupMetadataValue(valueReader, version);
                        group(groupId).epoch = v.epoch();
                        group(groupId).metadataHash = v.metadataHash();
                    }
                }
                case MEMBER_METADATA -> {
                    ShareGroupMemberMetadataKey mk = new ShareGroupMemberMetadataKey(keyReader, (short) 0);
                    if (valueReader == null) {
                        ifPresent(mk.groupId(), g -> g.subscriptions.remove(mk.memberId()));
                    } else {
                        group(mk.groupId()).subscriptions.put(mk.memberId(),
                            new ShareGroupMemberMetadataValue(valueReader, version));
                    }
                }
                case TARGET_METADATA -> {
                    String groupId = new ShareGroupTargetAssignmentMetadataKey(keyReader, (short) 0).groupId();
                    if (valueReader != null) {
                        group(groupId).assignmentEpoch =
                            new ShareGroupTargetAssignmentMetadataValue(valueReader, version).assignmentEpoch();
                    }
                }
                case TARGET_MEMBER -> {
                    ShareGroupTargetAssignmentMemberKey tk = new ShareGroupTargetAssignmentMemberKey(keyReader, (short) 0);
                    if (valueReader == null) {
                        ifPresent(tk.groupId(), g -> g.targets.remove(tk.memberId()));
                    } else {
                        Map<Uuid, Set<Integer>> target = new HashMap<>();
                        new ShareGroupTargetAssignmentMemberValue(valueReader, version).topicPartitions()
                            .forEach(tp -> target.put(tp.topicId(), Set.copyOf(tp.partitions())));
                        group(tk.groupId()).targets.put(tk.memberId(), target);
                    }
                }
                case CURRENT_ASSIGNMENT -> {
                    ShareGroupCurrentMemberAssignmentKey ck = new ShareGroupCurrentMemberAssignmentKey(keyReader, (short) 0);
                    if (valueReader == null) {
                        ifPresent(ck.groupId(), g -> g.current.remove(ck.memberId()));
                    } else {
                        group(ck.groupId()).current.put(ck.memberId(),
                            new ShareGroupCurrentMemberAssignmentValue(valueReader, version));
                    }
                }
                case STATE_PARTITION_METADATA -> {
                    String groupId = new ShareGroupStatePartitionMetadataKey(keyReader, (short) 0).groupId();
                    if (valueReader == null) {
                        ifPresent(groupId, g -> g.statePartitions.clear());
                    } else {
                        ShareGroupStatePartitionMetadataValue v = new ShareGroupStatePartitionMetadataValue(valueReader, version);
                        Map<Uuid, Set<Integer>> partitions = group(groupId).statePartitions;
                        partitions.clear();
                        v.initializingTopics().forEach(t -> partitions.computeIfAbsent(t.topicId(), id -> new HashSet<>())
                            .addAll(t.partitions()));
                        v.initializedTopics().forEach(t -> partitions.computeIfAbsent(t.topicId(), id -> new HashSet<>())
                            .addAll(t.partitions()));
                    }
                }
                default -> {
                }
            }
        }

        private Group group(String groupId) {
            return groups.computeIfAbsent(groupId, id -> new Group());
        }

        private void ifPresent(String groupId, java.util.function.Consumer<Group> change) {
            Group g = groups.get(groupId);
            if (g != null) {
                change.accept(g);
            }
        }

        /** The ids of the groups loaded. */
        Set<String> groupIds() {
            return groups.keySet();
        }

        /** Restores a loaded share group into its holder (a new, empty classic group of the same id). */
        void restoreInto(ClassicGroup holder) {
            Group g = groups.get(holder.groupId());
            if (g == null || g.epoch < 0) {
                return;
            }
            Map<String, ShareGroupMember> members = new LinkedHashMap<>();
            g.subscriptions.forEach((memberId, s) -> {
                ShareGroupCurrentMemberAssignmentValue c = g.current.get(memberId);
                Map<Uuid, Set<Integer>> assigned = new HashMap<>();
                if (c != null) {
                    c.assignedPartitions().forEach(tp -> assigned.put(tp.topicId(), Set.copyOf(tp.partitions())));
                }
                members.put(memberId, new ShareGroupMember(memberId, s.rackId(), s.clientId(), s.clientHost(),
                    s.subscribedTopicNames(), c == null ? 0 : c.memberEpoch(), c == null ? 0 : c.previousMemberEpoch(),
                    assigned));
            });
            Map<String, Map<Uuid, Set<Integer>>> targets = new HashMap<>(g.targets);
            targets.keySet().retainAll(members.keySet());
            holder.shareGroup(new ShareGroup(holder.groupId(), g.epoch, g.metadataHash, g.assignmentEpoch, members,
                targets, g.statePartitions));
        }
    }
}
