package io.tributary.broker.share.dlq;

import io.tributary.broker.cluster.AdminManager;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.cluster.TopicAssignment;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.protocol.Errors;

/**
 * {@link DeadLetterTopics} over the broker's metadata: checks a group's dead-letter topic with
 * {@link DeadLetterTopicRules}; with {@code errors.deadletterqueue.auto.create.topics.enable} creates a
 * missing one as Kafka 4.4 does (the broker's default partitions and replication factor,
 * {@code errors.deadletterqueue.group.enable=true}, {@code message.timestamp.type=CreateTime}) and waits
 * up to {@code metadataWaitMs} for its leaders. Blocks (ZooKeeper writes): call on the dead-letter thread.
 */
public final class MetadataDeadLetterTopics implements DeadLetterTopics {

    private final MetadataCache metadataCache;
    private final AdminManager adminManager;
    private final String prefix;
    private final boolean autoCreate;
    private final long metadataWaitMs;

    /**
     * @param prefix     {@code errors.deadletterqueue.topic.name.prefix}
     * @param autoCreate {@code errors.deadletterqueue.auto.create.topics.enable}
     */
    public MetadataDeadLetterTopics(MetadataCache metadataCache, AdminManager adminManager, String prefix,
                                    boolean autoCreate, long metadataWaitMs) {
        this.metadataCache = metadataCache;
        this.adminManager = adminManager;
        this.prefix = prefix;
        this.autoCreate = autoCreate;
        this.metadataWaitMs = metadataWaitMs;
    }

    @Override
    public DeadLetterTarget resolve(String groupId, String topic) {
        Optional<TopicAssignment> existing = metadataCache.topic(topic);
        boolean enabled = Boolean.parseBoolean(metadataCache.topicConfig(topic)
            .getOrDefault(TopicConfig.ERRORS_DEADLETTERQUEUE_GROUP_ENABLE_CONFIG, "false").trim());
        Optional<String> refusal = DeadLetterTopicRules.refusal(groupId, topic, prefix, existing.isPresent(), enabled,
            autoCreate);
        if (refusal.isPresent()) {
            throw new DeadLetterException(refusal.get(), false);
        }
        if (existing.isEmpty()) {
            create(topic);
            existing = metadataCache.topic(topic);
        }
        if (existing.isEmpty() || !metadataCache.allPartitionsHaveLeaders(topic)) {
            throw new DeadLetterException("DLQ topic " + topic + " of share group " + groupId + " has no leaders yet", true);
        }
        TopicAssignment assignment = existing.get();
        return new DeadLetterTarget(topic, assignment.topicId(), assignment.partitionCount());
    }

    private void create(String topic) {
        AdminManager.CreateTopicResult result = adminManager.createTopic(new AdminManager.TopicCreation(topic, -1, (short) -1,
            Map.of(), Map.of(TopicConfig.ERRORS_DEADLETTERQUEUE_GROUP_ENABLE_CONFIG, "true",
                TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "CreateTime")), false);
        Errors error = result.error().error();
        if (error != Errors.NONE && error != Errors.TOPIC_ALREADY_EXISTS) {
            throw new DeadLetterException("Unable to create DLQ topic " + topic + ": " + error + " "
                + result.error().message(), true);
        }
        try {
            metadataCache.waitFor(() -> metadataCache.topic(topic).isPresent() && metadataCache.allPartitionsHaveLeaders(topic),
                metadataWaitMs).get(metadataWaitMs + 1_000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DeadLetterException("Interrupted while DLQ topic " + topic + " was created", false);
        } catch (ExecutionException | TimeoutException e) {
            throw new DeadLetterException("DLQ topic " + topic + " created but not in the metadata yet", true);
        }
    }
}
