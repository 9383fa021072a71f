package io.tributary.broker;

import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.config.BrokerProperties;
import io.tributary.broker.config.ShareGroupProperties;
import io.tributary.broker.group.ConsumerGroupConfig;
import io.tributary.broker.group.GroupConfigDefaults;
import io.tributary.broker.group.GroupConfigLookup;
import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.group.GroupTopic;
import io.tributary.broker.group.GroupTopics;
import io.tributary.broker.group.ShareGroupMemberListener;
import io.tributary.broker.group.ShareGroupStateClient;
import io.tributary.broker.group.ShareGroupSettings;
import io.tributary.broker.replica.ReplicaManager;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.coordinator.group.ConsumerGroupMigrationPolicy;

/**
 * Builds the group coordinator from the broker's settings (classic {@code group.*}, KIP-848
 * {@code group.consumer.*}, KIP-932 {@code group.share.*}), for {@link BrokerComponentsBuilder}.
 * Stateless.
 */
final class GroupCoordinatorFactory {

    private final BrokerProperties properties;
    private final ShareGroupProperties shareGroups;

    GroupCoordinatorFactory(BrokerProperties properties, ShareGroupProperties shareGroups) {
        this.properties = properties;
        this.shareGroups = shareGroups;
    }

    /** The {@code group.consumer.*} settings of KIP-848 groups. */
    ConsumerGroupConfig consumerGroupConfig() {
        return new ConsumerGroupConfig(properties.groupConsumerSessionTimeoutMs(),
            properties.groupConsumerHeartbeatIntervalMs(), properties.groupConsumerMaxSize(),
            properties.groupConsumerAssignors(),
            ConsumerGroupMigrationPolicy.parse(properties.groupConsumerMigrationPolicy()));
    }

    /** The broker's {@code group.consumer.*} and {@code group.share.*} settings, the values groups fall back to. */
    GroupConfigDefaults groupConfigDefaults() {
        Map<String, Object> settings = new HashMap<>(consumerGroupConfig().kafkaSettings());
        settings.putAll(shareGroups.kafkaSettings());
        return new GroupConfigDefaults(settings);
    }

    /**
     * The coordinator; not started.
     *
     * @param groupConfigs        the per-group configs (GROUP resources)
     * @param shareMemberListener told when a share-group member leaves or is fenced
     * @param shareStates         the share coordinator as this broker reaches it
     */
    GroupCoordinator coordinator(ReplicaManager replicaManager, MetadataCache metadataCache,
                                 GroupConfigLookup groupConfigs, ShareGroupMemberListener shareMemberListener,
                                 ShareGroupStateClient shareStates, Time time) {
        BrokerProperties p = properties;
        GroupCoordinator.Config config = new GroupCoordinator.Config(p.offsetsTopicNumPartitions(),
            p.groupMinSessionTimeoutMs(), p.groupMaxSessionTimeoutMs(), p.groupInitialRebalanceDelayMs(), p.groupMaxSize(),
            p.offsetsCommitTimeoutMs(), p.offsetMetadataMaxBytes(), p.offsetsRetentionMinutes() * 60_000L,
            p.offsetsRetentionCheckIntervalMs());
        ShareGroupSettings share = new ShareGroupSettings(shareGroups.groupShareSessionTimeoutMs(),
            shareGroups.groupShareHeartbeatIntervalMs(), shareGroups.groupShareMaxSize());
        return new GroupCoordinator(replicaManager, config, consumerGroupConfig(), groupConfigs,
            groupTopics(metadataCache), share, shareMemberListener, shareStates, time);
    }

    /** The cluster's topics as KIP-848 and KIP-932 assignments look them up, from the metadata cache without copies. */
    static GroupTopics groupTopics(MetadataCache metadataCache) {
        return new GroupTopics() {
            @Override
            public Optional<GroupTopic> topic(String name) {
                return metadataCache.topic(name).filter(t -> !metadataCache.isPendingDeletion(name))
                    .map(t -> new GroupTopic(t.topicId(), t.replicas().size()));
            }

            @Override
            public Optional<String> name(Uuid topicId) {
                return metadataCache.topicName(topicId);
            }

            @Override
            public Collection<String> names() {
                return metadataCache.topicNames();
            }
        };
    }
}
