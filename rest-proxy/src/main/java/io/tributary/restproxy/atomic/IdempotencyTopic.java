package io.tributary.restproxy.atomic;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The idempotency topic: found, or created with the configured partitions, a replication factor
 * of three (or the number of brokers, if fewer), {@code cleanup.policy=delete} and
 * {@code retention.ms} of the key retention. Its partition count, once created, is the number of
 * slots every replica uses, whatever its own setting says.
 */
final class IdempotencyTopic {

    private static final Logger log = LoggerFactory.getLogger(IdempotencyTopic.class);
    private static final long TIMEOUT_MS = 15_000;

    private IdempotencyTopic() {
    }

    /**
     * @return the topic's partition count
     * @throws TimeoutException when the brokers do not answer in time
     * @throws org.apache.kafka.common.KafkaException as the Admin client fails (e.g. authorization)
     */
    static int ensure(Admin admin, AtomicProduceProperties properties) {
        String topic = properties.idempotencyTopic();
        try {
            for (int attempt = 0; ; attempt++) {
                try {
                    return partitions(admin, topic);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || attempt > 0) {
                        throw e;
                    }
                }
                int brokers = admin.describeCluster().nodes().get(TIMEOUT_MS, TimeUnit.MILLISECONDS).size();
                short replicationFactor = (short) Math.max(1, Math.min(3, brokers));
                NewTopic newTopic = new NewTopic(topic, properties.idempotencyTopicPartitions(), replicationFactor)
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_DELETE,
                        TopicConfig.RETENTION_MS_CONFIG, Long.toString(properties.idempotencyKeyRetention().toMillis())));
                try {
                    admin.createTopics(Set.of(newTopic)).all().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
                    log.info("Created the idempotency topic {} ({} partitions, replication factor {})", topic,
                        properties.idempotencyTopicPartitions(), replicationFactor);
                    return properties.idempotencyTopicPartitions();
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                    // Another replica created it meanwhile: describe it again.
                }
            }
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime
                : new org.apache.kafka.common.KafkaException(e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new TimeoutException("Timed out finding or creating the idempotency topic " + topic);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TimeoutException("Interrupted finding the idempotency topic " + topic);
        }
    }

    private static int partitions(Admin admin, String topic)
            throws ExecutionException, InterruptedException, java.util.concurrent.TimeoutException {
        TopicDescription description = admin.describeTopics(Set.of(topic)).topicNameValues().get(topic)
            .get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        return description.partitions().size();
    }
}
