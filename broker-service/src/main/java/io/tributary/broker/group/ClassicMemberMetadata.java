package io.tributary.broker.group;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMemberMetadataValue;

/**
 * What a consumer group (KIP-848) keeps of a member that speaks the classic protocol
 * (JoinGroup/SyncGroup/Heartbeat), as Kafka's {@code ConsumerGroupMember.classicMemberMetadata}:
 * its own session timeout and the protocols it joined with (assignor names, each with its
 * subscription encoded with {@link ConsumerProtocol}). Stored in the member's
 * {@code ConsumerGroupMemberMetadataValue.ClassicMemberMetadata}, so a new coordinator knows the
 * member is classic.
 *
 * @param sessionTimeoutMs the member's {@code session.timeout.ms} from its JoinGroup, ms
 * @param protocols        its protocols in preference order; the first names the group's protocol in its answers
 */
record ClassicMemberMetadata(int sessionTimeoutMs, List<GroupMember.Protocol> protocols) {

    ClassicMemberMetadata {
        protocols = List.copyOf(protocols);
    }

    /** The protocol name the member is answered with: its first (Kafka's choice for classic members of a consumer group). */
    String protocolName() {
        return protocols.get(0).name();
    }

    /**
     * The member's subscription, decoded from its first protocol's metadata.
     *
     * @throws org.apache.kafka.common.protocol.types.SchemaException when it is not a consumer protocol subscription
     */
    ConsumerPartitionAssignor.Subscription subscription() {
        return ConsumerProtocol.deserializeSubscription(ByteBuffer.wrap(protocols.get(0).metadata()));
    }

    /** Whether the member supports a protocol of that name. */
    boolean supports(String name) {
        return protocols.stream().anyMatch(p -> p.name().equals(name));
    }

    /**
     * The partitions, by topic id, encoded as a SyncGroup assignment with {@link ConsumerProtocol} in the
     * version of the member's subscription for {@code protocol}; partitions of topics that no longer exist are left out.
     */
    byte[] encodeAssignment(Map<Uuid, Set<Integer>> partitions, GroupTopics topics, String protocol) {
        List<TopicPartition> assigned = new ArrayList<>();
        partitions.forEach((topicId, ps) -> topics.name(topicId)
            .ifPresent(name -> ps.forEach(p -> assigned.add(new TopicPartition(name, p)))));
        byte[] subscription = protocols.stream().filter(p -> p.name().equals(protocol)).findFirst()
            .orElse(protocols.get(0)).metadata();
        short version = ConsumerProtocol.deserializeVersion(ByteBuffer.wrap(subscription));
        return Utils.toArray(ConsumerProtocol.serializeAssignment(new ConsumerPartitionAssignor.Assignment(assigned),
            version));
    }

    /** Partitions named by topic, by topic id; those of unknown topics are left out. */
    static Map<Uuid, Set<Integer>> byTopicId(List<TopicPartition> partitions, GroupTopics topics) {
        Map<Uuid, Set<Integer>> out = new HashMap<>();
        partitions.forEach(tp -> topics.topic(tp.topic())
            .ifPresent(t -> out.computeIfAbsent(t.topicId(), id -> new HashSet<>()).add(tp.partition())));
        return Assignments.copy(out);
    }

    /** As stored in {@code ConsumerGroupMemberMetadataValue}. */
    ConsumerGroupMemberMetadataValue.ClassicMemberMetadata toRecord() {
        List<ConsumerGroupMemberMetadataValue.ClassicProtocol> stored = new ArrayList<>();
        protocols.forEach(p -> stored.add(new ConsumerGroupMemberMetadataValue.ClassicProtocol().setName(p.name())
            .setMetadata(p.metadata())));
        return new ConsumerGroupMemberMetadataValue.ClassicMemberMetadata().setSessionTimeoutMs(sessionTimeoutMs)
            .setSupportedProtocols(stored);
    }

    /** Read back from a stored member; null when the member uses the consumer protocol. */
    static ClassicMemberMetadata fromRecord(ConsumerGroupMemberMetadataValue.ClassicMemberMetadata stored) {
        if (stored == null) {
            return null;
        }
        List<GroupMember.Protocol> protocols = new ArrayList<>();
        stored.supportedProtocols().forEach(p -> protocols.add(new GroupMember.Protocol(p.name(), p.metadata())));
        return protocols.isEmpty() ? null : new ClassicMemberMetadata(stored.sessionTimeoutMs(), protocols);
    }
}
