package io.tributary.restproxy.v3;

import io.tributary.restproxy.error.InvalidArgumentException;
import io.tributary.restproxy.error.KafkaErrors;
import io.tributary.restproxy.error.KafkaFutures;
import io.tributary.restproxy.error.RestException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.PolicyViolationException;
import org.springframework.stereotype.Service;

/**
 * The Admin client's broker operations behind the v3 broker API: a broker's configs with their
 * sources and synonyms (DescribeConfigs, KIP-226), the cluster-wide defaults (the broker resource
 * named {@code ""}, ZooKeeper's {@code /config/brokers/<default>}), altering either
 * (IncrementalAlterConfigs), the partitions a broker holds a replica of, and its log directories
 * (DescribeLogDirs). Knows nothing of HTTP. Thread-safe.
 */
@Service
public class BrokersAdmin {

    /** A partition and the topic it belongs to. */
    public record TopicPartitionReplica(String topic, TopicPartitionInfo partition) {
    }

    private final Admin admin;

    public BrokersAdmin(Admin admin) {
        this.admin = admin;
    }

    /** The broker's configs (its own when {@code brokerId} is present, else the cluster-wide defaults), by name. */
    public List<ConfigEntry> configs(Optional<Integer> brokerId) {
        ConfigResource resource = resource(brokerId);
        Map<ConfigResource, Config> configs = KafkaFutures.get(admin.describeConfigs(List.of(resource),
            new DescribeConfigsOptions().includeSynonyms(true)).all());
        return configs.get(resource).entries().stream().sorted((x, y) -> x.name().compareTo(y.name())).toList();
    }

    /**
     * Sets ({@code value} present) or deletes (empty: back to the next synonym) dynamic broker configs, on
     * one broker or cluster-wide.
     *
     * @throws InvalidArgumentException for a config the brokers refuse (unknown, read-only, bad value)
     */
    public void alterConfigs(Optional<Integer> brokerId, Map<String, Optional<String>> changes) {
        List<AlterConfigOp> ops = new ArrayList<>();
        changes.forEach((name, value) -> ops.add(value.isPresent()
            ? new AlterConfigOp(new ConfigEntry(name, value.get()), AlterConfigOp.OpType.SET)
            : new AlterConfigOp(new ConfigEntry(name, null), AlterConfigOp.OpType.DELETE)));
        KafkaFutures.get(admin.incrementalAlterConfigs(Map.of(resource(brokerId), ops)).all(), BrokersAdmin::badRequest);
    }

    /** Every partition, of the topics the caller may describe, with a replica on the broker; by topic and partition. */
    public List<TopicPartitionReplica> partitionReplicas(int brokerId) {
        Set<String> names = KafkaFutures.get(admin.listTopics().names());
        Map<String, TopicDescription> topics = KafkaFutures.get(admin.describeTopics(names).allTopicNames());
        List<TopicPartitionReplica> replicas = new ArrayList<>();
        topics.values().stream().sorted((x, y) -> x.name().compareTo(y.name())).forEach(topic ->
            topic.partitions().stream().filter(p -> p.replicas().stream().anyMatch(n -> n.id() == brokerId))
                .forEach(p -> replicas.add(new TopicPartitionReplica(topic.name(), p))));
        return replicas;
    }

    /** The broker's log directories, by path. */
    public Map<String, LogDirDescription> logDirs(int brokerId) {
        return KafkaFutures.get(admin.describeLogDirs(List.of(brokerId)).descriptions().get(brokerId));
    }

    private static ConfigResource resource(Optional<Integer> brokerId) {
        return new ConfigResource(ConfigResource.Type.BROKER, brokerId.map(String::valueOf).orElse(""));
    }

    private static RestException badRequest(Throwable cause) {
        if (cause instanceof InvalidConfigurationException || cause instanceof InvalidRequestException
                || cause instanceof PolicyViolationException) {
            return new InvalidArgumentException(KafkaErrors.describe(cause), cause);
        }
        return null;
    }
}
