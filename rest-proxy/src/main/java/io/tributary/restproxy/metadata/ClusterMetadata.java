package io.tributary.restproxy.metadata;

import io.tributary.restproxy.error.KafkaFutures;
import io.tributary.restproxy.error.PartitionNotFoundException;
import io.tributary.restproxy.error.RestException;
import io.tributary.restproxy.error.TopicNotFoundException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.springframework.stereotype.Service;

/**
 * Cluster, topic and partition metadata read with the Admin client. Knows nothing of HTTP.
 * Thread-safe. Failures are the proxy's exceptions: {@link TopicNotFoundException} for an unknown
 * topic, else those {@link KafkaFutures} makes.
 */
@Service
public class ClusterMetadata {

    private final Admin admin;

    public ClusterMetadata(Admin admin) {
        this.admin = admin;
    }

    /** Names of the topics, internal ones ({@code __consumer_offsets}) left out, sorted. */
    public List<String> topicNames() {
        Set<String> names = get(admin.listTopics(new ListTopicsOptions().listInternal(false)).names());
        return names.stream().sorted().toList();
    }

    /** Whether {@code topic} exists (a Metadata request, never creating it). */
    public boolean topicExists(String topic) {
        boolean[] unknown = new boolean[1];
        try {
            KafkaFutures.get(admin.describeTopics(List.of(topic)).allTopicNames(), cause -> {
                unknown[0] = cause instanceof UnknownTopicOrPartitionException;
                return null;
            });
            return true;
        } catch (RestException e) {
            if (unknown[0]) {
                return false;
            }
            throw e;
        }
    }

    /**
     * The topic's partitions, leaders, replicas and ISR.
     *
     * @throws TopicNotFoundException for an unknown topic
     */
    public TopicDescription describeTopic(String topic) {
        return KafkaFutures.get(admin.describeTopics(List.of(topic)).allTopicNames(),
            cause -> cause instanceof UnknownTopicOrPartitionException
                ? new TopicNotFoundException(topic) : null).get(topic);
    }

    /**
     * The topic's partition count.
     *
     * @throws TopicNotFoundException for an unknown topic
     */
    public int partitionCount(String topic) {
        return describeTopic(topic).partitions().size();
    }

    /**
     * Checks that the partitions exist, describing each topic once.
     *
     * @throws TopicNotFoundException for an unknown topic
     * @throws PartitionNotFoundException for a partition the topic lacks
     */
    public void checkPartitions(Collection<TopicPartition> partitions) {
        Map<String, Integer> counts = new HashMap<>();
        for (TopicPartition tp : partitions) {
            int count = counts.computeIfAbsent(tp.topic(), this::partitionCount);
            if (tp.partition() < 0 || tp.partition() >= count) {
                throw new PartitionNotFoundException("Partition " + tp.partition() + " of topic "
                    + tp.topic() + " not found.");
            }
        }
    }

    /** The topic's configs, name to value (sensitive ones have null values), sorted by name. */
    public Map<String, String> topicConfigs(String topic) {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Map<ConfigResource, Config> configs = get(admin.describeConfigs(List.of(resource)).all());
        Map<String, String> result = new TreeMap<>();
        for (ConfigEntry entry : configs.get(resource).entries()) {
            result.put(entry.name(), entry.value());
        }
        return result;
    }

    /** The live brokers. */
    public Collection<Node> brokers() {
        return get(admin.describeCluster().nodes());
    }

    private static <T> T get(org.apache.kafka.common.KafkaFuture<T> future) {
        return KafkaFutures.get(future);
    }
}
