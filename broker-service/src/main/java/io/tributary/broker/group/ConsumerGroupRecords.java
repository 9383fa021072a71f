package io.tributary.broker.group;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupCurrentMemberAssignmentKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupCurrentMemberAssignmentValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMemberMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMemberMetadataValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMemberKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMemberValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMetadataValue;

/**
 * The records of KIP-848 consumer groups in {@code __consumer_offsets}, in Kafka 4's layouts (the
 * generated messages of Kafka's group coordinator module; a key is prefixed with its record type,
 * a value with its version): the group epoch (type 3), each member's subscription (5), the target
 * assignment's epoch (6) and each member's target (7), and each member's current assignment and
 * reconciliation state (8). A removed member's three records and a deleted group's two are
 * tombstoned. {@link Loaded} rebuilds the groups when a coordinator loads a partition.
 *
 * <p>Stateless, except {@link Loaded}, which one loader thread fills.
 */
final class ConsumerGroupRecords {

    private static final short GROUP_METADATA = 3;
    private static final short PARTITION_METADATA = 4;
    private static final short MEMBER_METADATA = 5;
    private static final short TARGET_METADATA = 6;
    private static final short TARGET_MEMBER = 7;
    private static final short CURRENT_ASSIGNMENT = 8;
    private static final short REGULAR_EXPRESSION = 16;

    private ConsumerGroupRecords() {
    }

    /** Whether a key of {@code __consumer_offsets} is one of a KIP-848 consumer group (or one this broker skips). */
    static boolean isConsumerGroupKey(ByteBuffer key) {
        short type = key.duplicate().getShort();
        return type >= GROUP_METADATA && type <= CURRENT_ASSIGNMENT || type == REGULAR_EXPRESSION;
    }

    static SimpleRecord groupEpoch(String groupId, int epoch, long nowMs) {
        return record(nowMs, new ConsumerGroupMetadataKey().setGroupId(groupId),
            new ConsumerGroupMetadataValue().setEpoch(epoch), ConsumerGroupMetadataValue.HIGHEST_SUPPORTED_VERSION);
    }

    static SimpleRecord memberSubscription(String groupId, ConsumerGroupMember m, long nowMs) {
        return memberSubscription(groupId, m, null, nowMs);
    }

    /** A member's subscription; {@code classic} is the metadata of a member of the classic protocol, or null. */
    static SimpleRecord memberSubscription(String groupId, ConsumerGroupMember m, ClassicMemberMetadata classic,
                                           long nowMs) {
        return record(nowMs, new ConsumerGroupMemberMetadataKey().setGroupId(groupId).setMemberId(m.memberId()),
            new ConsumerGroupMemberMetadataValue().setInstanceId(m.instanceId()).setRackId(m.rackId())
                .setClassicMemberMetadata(classic == null ? null : classic.toRecord())
                .setClientId(m.clientId()).setClientHost(m.clientHost())
                .setSubscribedTopicNames(new ArrayList<>(m.subscribedTopicNames()))
                .setSubscribedTopicRegex(m.subscribedTopicRegex()).setRebalanceTimeoutMs(m.rebalanceTimeoutMs())
                .setServerAssignor(m.serverAssignor()), ConsumerGroupMemberMetadataValue.HIGHEST_SUPPORTED_VERSION);
    }

    static SimpleRecord targetEpoch(String groupId, int assignmentEpoch, long nowMs) {
        return record(nowMs, new ConsumerGroupTargetAssignmentMetadataKey().setGroupId(groupId),
            new ConsumerGroupTargetAssignmentMetadataValue().setAssignmentEpoch(assignmentEpoch),
            ConsumerGroupTargetAssignmentMetadataValue.HIGHEST_SUPPORTED_VERSION);
    }

    static SimpleRecord targetMember(String groupId, String memberId, Map<Uuid, Set<Integer>> target, long nowMs) {
        List<ConsumerGroupTargetAssignmentMemberValue.TopicPartition> partitions = new ArrayList<>();
        target.forEach((topic, ps) -> partitions.add(new ConsumerGroupTargetAssignmentMemberValue.TopicPartition()
            .setTopicId(topic).setPartitions(new ArrayList<>(ps))));
        return record(nowMs, new ConsumerGroupTargetAssignmentMemberKey().setGroupId(groupId).setMemberId(memberId),
            new ConsumerGroupTargetAssignmentMemberValue().setTopicPartitions(partitions),
            ConsumerGroupTargetAssignmentMemberValue.HIGHEST_SUPPORTED_VERSION);
    }

    static SimpleRecord currentAssignment(String groupId, ConsumerGroupMember m, long nowMs) {
        return record(nowMs, new ConsumerGroupCurrentMemberAssignmentKey().setGroupId(groupId).setMemberId(m.memberId()),
            new ConsumerGroupCurrentMemberAssignmentValue().setMemberEpoch(m.memberEpoch())
                .setPreviousMemberEpoch(m.previousMemberEpoch()).setState((byte) m.state().ordinal())
                .setAssignedPartitions(AssignmentEpochs.toRecord(m.assigned(), m.assignmentEpochs()))
                .setPartitionsPendingRevocation(AssignmentEpochs.toRecord(m.pendingRevocation(), m.assignmentEpochs())),
            ConsumerGroupCurrentMemberAssignmentValue.HIGHEST_SUPPORTED_VERSION);
    }

    /** The tombstones of a removed member's subscription, target and current assignment. */
    static List<SimpleRecord> memberTombstones(String groupId, String memberId, long nowMs) {
        return List.of(
            tombstone(nowMs, new ConsumerGroupCurrentMemberAssignmentKey().setGroupId(groupId).setMemberId(memberId)),
            tombstone(nowMs, new ConsumerGroupTargetAssignmentMemberKey().setGroupId(groupId).setMemberId(memberId)),
            tombstone(nowMs, new ConsumerGroupMemberMetadataKey().setGroupId(groupId).setMemberId(memberId)));
    }

    /**
     * The records that create a whole group (a classic group converted online, KIP-848), in Kafka's
     * order: every member's subscription, the group epoch, every member's target, the target epoch,
     * every member's current assignment.
     */
    static List<SimpleRecord> wholeGroup(ConsumerGroup group, long nowMs) {
        List<SimpleRecord> records = new ArrayList<>();
        group.members().forEach(m -> records.add(memberSubscription(group.groupId(), m,
            group.classicMember(m.memberId()), nowMs)));
        records.add(groupEpoch(group.groupId(), group.groupEpoch(), nowMs));
        group.members().forEach(m -> records.add(targetMember(group.groupId(), m.memberId(),
            group.targetOf(m.memberId()), nowMs)));
        records.add(targetEpoch(group.groupId(), group.assignmentEpoch(), nowMs));
        group.members().forEach(m -> records.add(currentAssignment(group.groupId(), m, nowMs)));
        return records;
    }

    /** The tombstones of a whole group: each member's three records, then the group's two (a group converted to classic). */
    static List<SimpleRecord> wholeGroupTombstones(ConsumerGroup group, long nowMs) {
        List<SimpleRecord> records = new ArrayList<>();
        group.memberIds().forEach(id -> records.addAll(memberTombstones(group.groupId(), id, nowMs)));
        records.addAll(groupTombstones(group.groupId(), nowMs));
        return records;
    }

    /** The tombstones of a deleted group's epoch and target epoch. */
    static List<SimpleRecord> groupTombstones(String groupId, long nowMs) {
        return List.of(tombstone(nowMs, new ConsumerGroupTargetAssignmentMetadataKey().setGroupId(groupId)),
            tombstone(nowMs, new ConsumerGroupMetadataKey().setGroupId(groupId)));
    }

    private static SimpleRecord record(long nowMs, ApiMessage key, ApiMessage value, short valueVersion) {
        return new SimpleRecord(nowMs, MessageUtil.toCoordinatorTypePrefixedBytes(key),
            MessageUtil.toVersionPrefixedBytes(valueVersion, value));
    }

    private static SimpleRecord tombstone(long nowMs, ApiMessage key) {
        return new SimpleRecord(nowMs, MessageUtil.toCoordinatorTypePrefixedBytes(key), null);
    }

    /** The consumer groups of one partition as its records leave them, read in order; a tombstone removes. */
    static final class Loaded {

        private static final class Group {
            int epoch = -1;
            int assignmentEpoch;
            final Map<String, ConsumerGroupMemberMetadataValue> subscriptions = new LinkedHashMap<>();
            final Map<String, ConsumerGroupCurrentMemberAssignmentValue> current = new HashMap<>();
            final Map<String, Map<Uuid, Set<Integer>>> targets = new HashMap<>();
        }

        private final Map<String, Group> groups = new HashMap<>();

        /** Applies one record (key and value as stored; a null value is a tombstone). */
        void apply(ByteBuffer key, ByteBuffer value) {
            ByteBuffer k = key.duplicate();
            short type = k.getShort();
            ByteBufferAccessor keyReader = new ByteBufferAccessor(k);
            ByteBufferAccessor valueReader = null;
            short valueVersion = 0;
            if (value != null) {
                ByteBuffer v = value.duplicate();
                valueVersion = v.getShort();
                valueReader = new ByteBufferAccessor(v);
            }
            switch (type) {
                case GROUP_METADATA -> {
                    String groupId = new ConsumerGroupMetadataKey(keyReader, (short) 0).groupId();
                    if (valueReader == null) {
                        groups.remove(groupId);
                    } else {
                        group(groupId).epoch = new ConsumerGroupMetadataValue(valueReader, valueVersion).epoch();
                    }
                }
                case MEMBER_METADATA -> {
                    ConsumerGroupMemberMetadataKey mk = new ConsumerGroupMemberMetadataKey(keyReader, (short) 0);
                    if (valueReader == null) {
                        Group g = groups.get(mk.groupId());
                        if (g != null) {
                            g.subscriptions.remove(mk.memberId());
                        }
                    } else {
                        group(mk.groupId()).subscriptions.put(mk.memberId(),
                            new ConsumerGroupMemberMetadataValue(valueReader, valueVersion));
                    }
                }
                case TARGET_METADATA -> {
                    String groupId = new ConsumerGroupTargetAssignmentMetadataKey(keyReader, (short) 0).groupId();
                    if (valueReader != null) {
                        group(groupId).assignmentEpoch =
                            new ConsumerGroupTargetAssignmentMetadataValue(valueReader, valueVersion).assignmentEpoch();
                    }
                }
                case TARGET_MEMBER -> {
                    ConsumerGroupTargetAssignmentMemberKey tk = new ConsumerGroupTargetAssignmentMemberKey(keyReader,
                        (short) 0);
                    if (valueReader == null) {
                        Group g = groups.get(tk.groupId());
                        if (g != null) {
                            g.targets.remove(tk.memberId());
                        }
                    } else {
                        Map<Uuid, Set<Integer>> target = new HashMap<>();
                        new ConsumerGroupTargetAssignmentMemberValue(valueReader, valueVersion).topicPartitions()
                            .forEach(tp -> target.put(tp.topicId(), Set.copyOf(tp.partitions())));
                        group(tk.groupId()).targets.put(tk.memberId(), target);
                    }
                }
                case CURRENT_ASSIGNMENT -> {
                    ConsumerGroupCurrentMemberAssignmentKey ck = new ConsumerGroupCurrentMemberAssignmentKey(keyReader,
                        (short) 0);
                    if (valueReader == null) {
                        Group g = groups.get(ck.groupId());
                        if (g != null) {
                            g.current.remove(ck.memberId());
                        }
                    } else {
                        group(ck.groupId()).current.put(ck.memberId(),
                            new ConsumerGroupCurrentMemberAssignmentValue(valueReader, valueVersion));
                    }
                }
                default -> {
                    // Partition metadata (type 4, deprecated) and regular expressions (16): recomputed here.
                }
            }
        }

        private Group group(String groupId) {
            return groups.computeIfAbsent(groupId, id -> new Group());
        }

        /** The ids of the groups loaded. */
        Set<String> groupIds() {
            return groups.keySet();
        }

        /** Restores a loaded group into its holder (a new, empty classic group of the same id). */
        void restoreInto(ClassicGroup holder) {
            Group g = groups.get(holder.groupId());
            if (g == null || g.epoch < 0) {
                return;
            }
            ConsumerGroup group = holder.becomeConsumerGroup();
            Map<String, ConsumerGroupMember> members = new LinkedHashMap<>();
            g.subscriptions.forEach((memberId, s) -> {
                ConsumerGroupCurrentMemberAssignmentValue c = g.current.get(memberId);
                ConsumerGroupMember.State state = c == null || c.state() < 0
                    || c.state() >= ConsumerGroupMember.State.values().length
                    ? ConsumerGroupMember.State.STABLE : ConsumerGroupMember.State.values()[c.state()];
                members.put(memberId, new ConsumerGroupMember(memberId, s.instanceId(), s.rackId(), s.clientId(),
                    s.clientHost(), s.subscribedTopicNames(), s.subscribedTopicRegex(), s.serverAssignor(),
                    s.rebalanceTimeoutMs(), c == null ? 0 : c.memberEpoch(), c == null ? 0 : c.previousMemberEpoch(),
                    state, c == null ? Map.of() : partitions(c.assignedPartitions()),
                    c == null ? Map.of() : partitions(c.partitionsPendingRevocation()),
                    c == null ? Map.of() : epochs(c)));
            });
            group.restore(g.epoch, g.assignmentEpoch, members.values(), g.targets);
            g.subscriptions.forEach((memberId, s) -> group.classicMember(memberId,
                ClassicMemberMetadata.fromRecord(s.classicMemberMetadata())));
        }

        /** The assignment epochs stored with the assigned and revoking partitions (KIP-1251), where stored. */
        private static Map<Uuid, Map<Integer, Integer>> epochs(ConsumerGroupCurrentMemberAssignmentValue c) {
            Map<Uuid, Map<Integer, Integer>> out = new HashMap<>(AssignmentEpochs.fromRecord(c.assignedPartitions()));
            AssignmentEpochs.fromRecord(c.partitionsPendingRevocation()).forEach((topic, of) ->
                out.merge(topic, of, (a, b) -> {
                    Map<Integer, Integer> both = new HashMap<>(a);
                    both.putAll(b);
                    return both;
                }));
            return out;
        }

        private static Map<Uuid, Set<Integer>> partitions(List<ConsumerGroupCurrentMemberAssignmentValue.TopicPartitions> l) {
            Map<Uuid, Set<Integer>> out = new HashMap<>();
            l.forEach(tp -> out.put(tp.topicId(), Set.copyOf(tp.partitions())));
            return out;
        }
    }
}
