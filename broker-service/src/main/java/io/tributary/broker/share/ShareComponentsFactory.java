package io.tributary.broker.share;

import io.tributary.broker.cluster.AdminManager;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.config.ShareGroupProperties;
import io.tributary.broker.coordinator.CoordinatorLog;
import io.tributary.broker.group.GroupConfigLookup;
import io.tributary.broker.replica.BrokerBlockingSender;
import io.tributary.broker.replica.InterBrokerSender;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.scheduler.Scheduler;
import io.tributary.broker.share.coordinator.ShareCoordinator;
import io.tributary.broker.share.coordinator.ShareCoordinatorPersister;
import io.tributary.broker.share.coordinator.ShareStateTopic;
import io.tributary.broker.share.dlq.BrokerDeadLetterSink;
import io.tributary.broker.share.dlq.GroupDeadLetterConfig;
import io.tributary.broker.share.dlq.LogOriginalRecords;
import io.tributary.broker.share.dlq.MetadataDeadLetterTopics;
import io.tributary.broker.share.dlq.ShareGroupDeadLetterQueue;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.OptionalInt;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.utils.Time;

/**
 * Builds the {@link ShareComponents} of a broker from its {@code group.share.*} and
 * {@code share.coordinator.*} settings: the share coordinator over {@code __share_group_state} and
 * the persister that reaches it (both told of leadership changes by the replica manager; call before
 * the metadata loads), the share-partition manager, the share session cache, and the share groups'
 * dead-letter queue (KIP-1191, {@code errors.deadletterqueue.*}) the share-partitions report archived records to.
 */
public final class ShareComponentsFactory {

    private static final long RECONNECT_BACKOFF_MS = 100;
    private static final long PERSISTER_RETRY_BACKOFF_MS = 100;

    private ShareComponentsFactory() {
    }

    /**
     * How this broker reaches the others.
     *
     * @param brokerId         this broker
     * @param listener         the inter-broker listener
     * @param clientConfigs    its client security configs
     * @param requestTimeoutMs how long a persister call retries and an inter-broker request waits, ms
     */
    public record InterBroker(int brokerId, String listener, Map<String, Object> clientConfigs, int requestTimeoutMs) {
    }

    /**
     * @param groupConfigs the share groups' own {@code share.*} configs
     * @param scheduler    runs the acquisition lock timers
     * @param adminManager creates {@code __share_group_state} on first use, and dead-letter topics when allowed
     * @param registry     where the dead-letter queue counts its records
     */
    public static ShareComponents create(ShareGroupProperties settings, ReplicaManager replicaManager,
                                         MetadataCache metadataCache, AdminManager adminManager,
                                         GroupConfigLookup groupConfigs, Scheduler scheduler, InterBroker interBroker,
                                         MeterRegistry registry, Time time) {
        ShareCoordinator coordinator = new ShareCoordinator(new ShareCoordinator.Settings(
                settings.shareCoordinatorStateTopicNumPartitions(), settings.shareCoordinatorSnapshotUpdateRecordsPerSnapshot(),
                settings.shareCoordinatorWriteTimeoutMs()),
            CoordinatorLog.of(replicaManager), time, Integer.toString(interBroker.brokerId()));
        replicaManager.addLeadershipListener(coordinator);
        ShareStateTopic topic = new ShareStateTopic(new ShareStateTopic.Settings(
            settings.shareCoordinatorStateTopicNumPartitions(), settings.shareCoordinatorStateTopicReplicationFactor(),
            settings.shareCoordinatorStateTopicMinIsr(), settings.shareCoordinatorStateTopicSegmentBytes()),
            adminManager, metadataCache);
        String listener = interBroker.listener();
        InterBrokerSender sender = new InterBrokerSender("share-state-sender-",
            id -> metadataCache.broker(id).flatMap(b -> b.endPoint(listener)).map(e -> new Node(id, e.host(), e.port())),
            id -> new BrokerBlockingSender("share-state-" + interBroker.brokerId() + "-to-" + id, listener,
                interBroker.clientConfigs(), interBroker.requestTimeoutMs(), RECONNECT_BACKOFF_MS, time));
        ShareCoordinatorPersister persister = new ShareCoordinatorPersister(new ShareCoordinatorPersister.Settings(
                interBroker.brokerId(), PERSISTER_RETRY_BACKOFF_MS, interBroker.requestTimeoutMs()), coordinator,
            partition -> metadataCache.partitionState(new TopicPartition(Topic.SHARE_GROUP_STATE_TOPIC_NAME, partition))
                .filter(s -> s.hasLeader()).map(s -> OptionalInt.of(s.leader())).orElse(OptionalInt.empty()),
            topic::ensureCreated, sender, time);
        ReplicaShareLog shareLog = new ReplicaShareLog(replicaManager);
        InterBrokerSender dlqSender = new InterBrokerSender("share-dlq-sender-",
            id -> metadataCache.broker(id).flatMap(b -> b.endPoint(listener)).map(e -> new Node(id, e.host(), e.port())),
            id -> new BrokerBlockingSender("share-dlq-" + interBroker.brokerId() + "-to-" + id, listener,
                interBroker.clientConfigs(), interBroker.requestTimeoutMs(), RECONNECT_BACKOFF_MS, time));
        ShareGroupDeadLetterQueue.Settings dlqSettings = ShareGroupDeadLetterQueue.Settings.defaults();
        ShareGroupDeadLetterQueue deadLetters = new ShareGroupDeadLetterQueue(dlqSettings,
            GroupDeadLetterConfig.from(groupConfigs),
            new MetadataDeadLetterTopics(metadataCache, adminManager, settings.errorsDeadletterqueueTopicNamePrefix(),
                settings.errorsDeadletterqueueAutoCreateTopicsEnable(), interBroker.requestTimeoutMs()),
            new LogOriginalRecords(shareLog, dlqSettings.maxBatchBytes(), interBroker.requestTimeoutMs()),
            new BrokerDeadLetterSink(interBroker.brokerId(), replicaManager, metadataCache, dlqSender,
                interBroker.requestTimeoutMs()),
            registry, time, "share-group-dlq-" + interBroker.brokerId());
        deadLetters.start();
        SharePartitionManager manager = new SharePartitionManager(shareLog, persister,
            new ShareGroupSettings(settings.groupShareRecordLockDurationMs(), settings.groupShareDeliveryCountLimit(),
                settings.groupSharePartitionMaxRecordLocks(), groupConfigs),
            new AcquisitionLockTimer(scheduler), deadLetters, new SharePartitionMetrics(registry));
        replicaManager.addLeadershipListener(manager);
        // A session idle past the member's session timeout belongs to a member the group has fenced.
        // Sessions are evicted only while serving a ShareFetch, after these components are built.
        java.util.concurrent.atomic.AtomicReference<ShareComponents> built = new java.util.concurrent.atomic.AtomicReference<>();
        ShareSessionCache sessions = new ShareSessionCache(settings.groupShareMaxShareSessions(),
            settings.groupShareSessionTimeoutMs(), time,
            key -> built.get().sessionClosed(key.groupId(), key.memberId()));
        PartitionLatestOffsets latestOffsets = new PartitionLatestOffsets(interBroker.brokerId(), replicaManager,
            metadataCache, sender);
        ShareComponents components = new ShareComponents(manager, sessions, persister, coordinator, topic,
            latestOffsets, task -> scheduler.scheduleOnce("share-session-close", task), () -> {
            deadLetters.close();
            dlqSender.close();
            persister.close();
            coordinator.close();
        });
        built.set(components);
        return components;
    }
}
