package io.tributary.broker.share.coordinator;

import io.tributary.broker.cluster.AdminManager;
import io.tributary.broker.cluster.MetadataCache;
import java.util.Map;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates {@code __share_group_state} on first use (KIP-932), as FindCoordinator creates
 * {@code __transaction_state}: compacted, {@code share.coordinator.state.topic.num.partitions}
 * partitions, {@code share.coordinator.state.topic.replication.factor} capped by the live brokers
 * (with a warning), {@code min.insync.replicas} {@code share.coordinator.state.topic.min.isr} capped by
 * that, {@code segment.bytes} {@code share.coordinator.state.topic.segment.bytes}, no unclean leader
 * election. Writes to ZooKeeper: call it from a request handler or background thread, never a
 * Netty event loop. Thread-safe.
 */
public final class ShareStateTopic {

    private static final Logger log = LoggerFactory.getLogger(ShareStateTopic.class);

    /**
     * @param numPartitions     {@code share.coordinator.state.topic.num.partitions}
     * @param replicationFactor {@code share.coordinator.state.topic.replication.factor}
     * @param minIsr            {@code share.coordinator.state.topic.min.isr}
     * @param segmentBytes      {@code share.coordinator.state.topic.segment.bytes}
     */
    public record Settings(int numPartitions, short replicationFactor, int minIsr, int segmentBytes) {
    }

    private final Settings settings;
    private final AdminManager adminManager;
    private final MetadataCache metadataCache;

    public ShareStateTopic(Settings settings, AdminManager adminManager, MetadataCache metadataCache) {
        this.settings = settings;
        this.adminManager = adminManager;
        this.metadataCache = metadataCache;
    }

    /** {@code share.coordinator.state.topic.num.partitions}: the partitions share-partition keys map to. */
    public int numPartitions() {
        return settings.numPartitions();
    }

    /** Whether the topic exists in the metadata. */
    public boolean exists() {
        return metadataCache.topic(Topic.SHARE_GROUP_STATE_TOPIC_NAME).isPresent();
    }

    /** Creates the topic unless it exists; a failure is logged, and the next use tries again. */
    public void ensureCreated() {
        if (exists()) {
            return;
        }
        int liveBrokers = metadataCache.aliveBrokers().size();
        short replicationFactor = (short) Math.max(1, Math.min(settings.replicationFactor(), liveBrokers));
        if (replicationFactor < settings.replicationFactor()) {
            log.warn("Creating {} with replication factor {}: only {} broker(s) are live, below "
                    + "broker.share-coordinator-state-topic-replication-factor {}", Topic.SHARE_GROUP_STATE_TOPIC_NAME,
                replicationFactor, liveBrokers, settings.replicationFactor());
        }
        int minIsr = Math.min(settings.minIsr(), replicationFactor);
        AdminManager.CreateTopicResult result = adminManager.createTopic(new AdminManager.TopicCreation(
            Topic.SHARE_GROUP_STATE_TOPIC_NAME, settings.numPartitions(), replicationFactor, Map.of(), Map.of(
                TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                TopicConfig.SEGMENT_BYTES_CONFIG, Integer.toString(settings.segmentBytes()),
                TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Integer.toString(minIsr),
                TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG, "false",
                TopicConfig.COMPRESSION_TYPE_CONFIG, "producer")), false);
        Errors error = result.error().error();
        if (error != Errors.NONE && error != Errors.TOPIC_ALREADY_EXISTS) {
            log.warn("Could not create {}: {} {}", Topic.SHARE_GROUP_STATE_TOPIC_NAME, error, result.error().message());
        }
    }
}
