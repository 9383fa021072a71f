package io.tributary.broker.group;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.coordinator.group.ConsumerGroupMigrationPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Online migration of a group between the classic protocol and the consumer protocol (KIP-848), as
 * Kafka 4 does it under {@code group.consumer.migration.policy}:
 * <ul>
 *   <li><b>upgrade</b>: the first ConsumerGroupHeartbeat to a classic group with members that uses
 *       the {@code consumer} protocol type converts it into a consumer group (Kafka's
 *       {@code convertToConsumerGroup}): every classic member becomes a classic member of the
 *       consumer group at the classic generation as its epoch, owning (and targeted with) what its
 *       last SyncGroup gave it, decoded with {@link ConsumerProtocol}. The classic group's metadata
 *       record is tombstoned and the consumer group's records written; committed offsets stay.</li>
 *   <li><b>downgrade</b>: when the last member of the consumer protocol leaves (or is fenced) and the
 *       members left all speak the classic protocol, the group becomes a classic group again
 *       (Kafka's {@code convertToClassicGroup}): its members at the group epoch as generation, each
 *       with its target assignment encoded with {@link ConsumerProtocol}, and a rebalance starts.
 *       The consumer group's records are tombstoned and the classic group's record written.</li>
 * </ul>
 *
 * <p>Not thread-safe: callers hold the monitor of the group's {@link ClassicGroup} holder.
 */
final class GroupMigration {

    private static final Logger log = LoggerFactory.getLogger(GroupMigration.class);

    private final ConsumerGroupMigrationPolicy policy;
    private final JoinPhase joinPhase;
    private final GroupTopics topics;
    private final int consumerGroupMaxSize;
    private final int classicGroupMaxSize;
    private final Time time;

    /**
     * @param policy               {@code group.consumer.migration.policy}
     * @param consumerGroupMaxSize {@code group.consumer.max.size}: a larger classic group is not upgraded
     * @param classicGroupMaxSize  {@code group.max.size}: a larger consumer group is not downgraded
     */
    GroupMigration(ConsumerGroupMigrationPolicy policy, JoinPhase joinPhase, GroupTopics topics, int consumerGroupMaxSize,
                   int classicGroupMaxSize, Time time) {
        this.policy = policy;
        this.joinPhase = joinPhase;
        this.topics = topics;
        this.consumerGroupMaxSize = consumerGroupMaxSize;
        this.classicGroupMaxSize = classicGroupMaxSize;
        this.time = time;
    }

    /**
     * Why a classic group with members cannot be upgraded now (Kafka's {@code validateOnlineUpgrade}),
     * as the message of the GROUP_ID_NOT_FOUND the joining member gets; null when it can.
     */
    String upgradeRefusal(ClassicGroup classic) {
        String notConsumer = "Group " + classic.groupId() + " is not a consumer group";
        if (!policy.isUpgradeEnabled()) {
            log.info("Cannot upgrade classic group {} to consumer group because the online upgrade is disabled.",
                classic.groupId());
            return notConsumer;
        }
        if (!ConsumerProtocol.PROTOCOL_TYPE.equals(classic.protocolType()) || classic.protocolName() == null) {
            log.info("Cannot upgrade classic group {} to consumer group because the group does not use the consumer "
                + "embedded protocol.", classic.groupId());
            return notConsumer;
        }
        if (classic.size() > consumerGroupMaxSize) {
            log.info("Cannot upgrade classic group {} to consumer group because the group size exceeds the consumer "
                + "group maximum size.", classic.groupId());
            return notConsumer;
        }
        try {
            convertedMembers(classic);
        } catch (RuntimeException e) {
            log.warn("Cannot upgrade classic group {}: its embedded consumer protocol is malformed: {}",
                classic.groupId(), e.toString());
            return "Cannot upgrade the classic group " + classic.groupId()
                + " to consumer group because the embedded consumer protocol is malformed.";
        }
        return null;
    }

    /**
     * Converts a classic group that passed {@link #upgradeRefusal} into a consumer group, in place
     * in its holder; pending JoinGroup and SyncGroup answers get REBALANCE_IN_PROGRESS, classic
     * session timers stop (the caller arms the consumer group's). The records to write (the classic
     * metadata's tombstone, then the whole consumer group) are appended to {@code records}.
     *
     * @return the consumer group, its members all classic, stable at the classic generation
     */
    ConsumerGroup upgrade(ClassicGroup classic, List<SimpleRecord> records) {
        long now = time.milliseconds();
        int epoch = classic.generationId();
        Map<ConsumerGroupMember, ClassicMemberMetadata> members = convertedMembers(classic);
        ConsumerGroup group = new ConsumerGroup(classic.groupId());
        Map<String, Map<Uuid, Set<Integer>>> targets = new HashMap<>();
        members.keySet().forEach(m -> targets.put(m.memberId(), m.assigned()));
        group.restore(epoch, epoch, members.keySet(), targets);
        members.forEach((m, metadata) -> group.classicMember(m.memberId(), metadata));
        for (GroupMember m : classic.members()) {
            m.cancelHeartbeatExpiry();
            m.completeJoin(JoinPhase.joinError(m.memberId(), Errors.REBALANCE_IN_PROGRESS));
            m.completeSync(new SyncGroupResponseData().setErrorCode(Errors.REBALANCE_IN_PROGRESS.code()));
        }
        records.add(new SimpleRecord(now, GroupRecords.groupKey(classic.groupId()), null));
        records.addAll(ConsumerGroupRecords.wholeGroup(group, now));
        classic.replaceWithConsumerGroup(group, now);
        log.info("Upgraded classic group {} at generation {} with {} member(s) to a consumer group", group.groupId(),
            epoch, members.size());
        return group;
    }

    /** The classic members as members of a consumer group; throws when a subscription or assignment cannot be read. */
    private Map<ConsumerGroupMember, ClassicMemberMetadata> convertedMembers(ClassicGroup classic) {
        Map<ConsumerGroupMember, ClassicMemberMetadata> converted = new LinkedHashMap<>();
        int epoch = classic.generationId();
        for (GroupMember m : classic.members()) {
            ConsumerPartitionAssignor.Subscription subscription = ConsumerProtocol.deserializeSubscription(
                ByteBuffer.wrap(m.metadata(classic.protocolName())));
            Map<Uuid, Set<Integer>> assigned = m.assignment().length == 0 ? Assignments.EMPTY
                : ClassicMemberMetadata.byTopicId(ConsumerProtocol.deserializeAssignment(ByteBuffer.wrap(m.assignment()))
                    .partitions(), topics);
            converted.put(new ConsumerGroupMember(m.memberId(), m.groupInstanceId(),
                subscription.rackId().orElse(null), m.clientId(), m.clientHost(), subscription.topics(), null, null,
                m.rebalanceTimeoutMs(), epoch, epoch, ConsumerGroupMember.State.STABLE, assigned, Assignments.EMPTY),
                new ClassicMemberMetadata(m.sessionTimeoutMs(), m.protocols()));
        }
        return converted;
    }

    /**
     * Whether removing {@code leavingMemberId} should convert the group back to a classic group
     * (Kafka's {@code validateOnlineDowngradeWithFencedMember}): every other member is classic, some
     * are left, the policy allows downgrades and they fit in {@code group.max.size}.
     */
    boolean canDowngrade(ConsumerGroup group, String leavingMemberId) {
        if (!group.allClassicExcept(leavingMemberId) || group.members().size() <= 1) {
            return false;
        }
        if (!policy.isDowngradeEnabled()) {
            log.info("Cannot downgrade consumer group {} to classic group because the online downgrade is disabled.",
                group.groupId());
            return false;
        }
        if (group.members().size() - 1 > classicGroupMaxSize) {
            log.info("Cannot downgrade consumer group {} to classic group because its group size is greater than "
                + "classic group max size.", group.groupId());
            return false;
        }
        return true;
    }

    /**
     * Whether a classic static member taking over the instance id of {@code replacedMemberId}, a
     * member of the consumer protocol, should convert the group back to a classic group (Kafka's
     * {@code validateOnlineDowngradeWithReplacedMemberId}): every other member is classic, the policy
     * allows downgrades and the members fit in {@code group.max.size}.
     */
    boolean canDowngradeReplacing(ConsumerGroup group, String replacedMemberId) {
        if (!group.allClassicExcept(replacedMemberId) || group.classicMember(replacedMemberId) != null) {
            return false;
        }
        if (!policy.isDowngradeEnabled()) {
            log.info("Cannot downgrade consumer group {} to classic group because the online downgrade is disabled.",
                group.groupId());
            return false;
        }
        return group.members().size() <= classicGroupMaxSize;
    }

    /**
     * Converts the consumer group back into a classic group without {@code leavingMemberId}, in place
     * in its holder, and starts a rebalance (if members are left); the caller forgot the consumer group's timers.
     *
     * @return the records to write: the consumer group's tombstones, then the classic group's metadata
     */
    List<SimpleRecord> downgrade(ClassicGroup holder, ConsumerGroup group, String leavingMemberId) {
        long now = time.milliseconds();
        List<SimpleRecord> records = new ArrayList<>(ConsumerGroupRecords.wholeGroupTombstones(group, now));
        List<GroupMember> members = new ArrayList<>();
        for (ConsumerGroupMember m : group.members()) {
            ClassicMemberMetadata classic = group.classicMember(m.memberId());
            if (!m.memberId().equals(leavingMemberId)) {
                members.add(new GroupMember(m.memberId(), m.instanceId(), m.clientId(), m.clientHost(),
                    m.rebalanceTimeoutMs(), classic.sessionTimeoutMs(), ConsumerProtocol.PROTOCOL_TYPE,
                    classic.protocols()));
            }
        }
        String protocol = members.isEmpty() ? null : commonProtocol(members);
        for (GroupMember m : members) {
            m.assignment(group.classicMember(m.memberId()).encodeAssignment(group.targetOf(m.memberId()), topics,
                protocol));
        }
        holder.revertToClassic(true);
        holder.restore(ConsumerProtocol.PROTOCOL_TYPE, protocol, group.groupEpoch(),
            members.isEmpty() ? null : members.get(0).memberId(), now, members);
        records.add(new SimpleRecord(now, GroupRecords.groupKey(holder.groupId()),
            GroupRecords.groupValue(GroupMetadataManager.snapshot(holder))));
        holder.members().forEach(m -> joinPhase.scheduleHeartbeat(holder, m));
        log.info("Downgraded consumer group {} at epoch {} to a classic group with {} member(s)", group.groupId(),
            group.groupEpoch(), members.size());
        if (!members.isEmpty()) {
            joinPhase.prepareRebalance(holder, "Downgrade group " + holder.groupId() + " from consumer to classic.");
        }
        return records;
    }

    /** The first protocol of the first member that every member supports (classic members of one group share one). */
    private static String commonProtocol(List<GroupMember> members) {
        for (String name : members.get(0).protocolNames()) {
            if (members.stream().allMatch(m -> m.protocolNames().contains(name))) {
                return name;
            }
        }
        return members.get(0).protocolNames().get(0);
    }
}
