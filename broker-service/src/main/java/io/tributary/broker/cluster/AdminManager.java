package io.tributary.broker.cluster;

import io.tributary.broker.config.DynamicBrokerConfig;
import io.tributary.broker.config.LogConfig;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidPartitionsException;
import org.apache.kafka.common.errors.InvalidReplicaAssignmentException;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.TopicDeletionDisabledException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiError;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Topic administration written to ZooKeeper by whichever broker receives the request, as
 * Kafka's ZK-mode brokers do: creation (config and assignment; the controller then elects
 * leaders), deletion requests (carried out by the controller), partition additions and config
 * changes. Validation follows Kafka's, with the same error codes.
 *
 * <p>Blocking (ZooKeeper): call off the network threads. Thread-safe.
 */
public final class AdminManager {

    private static final Logger log = LoggerFactory.getLogger(AdminManager.class);

    private final KafkaZkClient zkClient;
    private final MetadataCache metadataCache;
    private final DynamicBrokerConfig dynamicConfig;
    private final BrokerConfigManager brokerConfigs;
    private final int defaultNumPartitions;
    private final short defaultReplicationFactor;
    private final boolean deleteTopicEnable;
    private final ReplicaAssignor assignor;

    /**
     * @param dynamicConfig            the broker's topic config defaults in effect (static and dynamic)
     * @param brokerConfigs            changes of the dynamic broker configs
     * @param defaultNumPartitions     {@code num.partitions}
     * @param defaultReplicationFactor {@code default.replication.factor}
     * @param deleteTopicEnable        {@code delete.topic.enable}
     */
    public AdminManager(KafkaZkClient zkClient, MetadataCache metadataCache, DynamicBrokerConfig dynamicConfig,
                        BrokerConfigManager brokerConfigs, int defaultNumPartitions, short defaultReplicationFactor,
                        boolean deleteTopicEnable, ReplicaAssignor assignor) {
        this.zkClient = zkClient;
        this.metadataCache = metadataCache;
        this.dynamicConfig = dynamicConfig;
        this.brokerConfigs = brokerConfigs;
        this.defaultNumPartitions = defaultNumPartitions;
        this.defaultReplicationFactor = defaultReplicationFactor;
        this.deleteTopicEnable = deleteTopicEnable;
        this.assignor = assignor;
    }

    /** The topic config defaults in effect now and the dynamic broker configs they come from. */
    public DynamicBrokerConfig dynamicConfig() {
        return dynamicConfig;
    }

    /** Changes of the dynamic broker configs (IncrementalAlterConfigs and AlterConfigs on brokers). */
    public BrokerConfigManager brokerConfigs() {
        return brokerConfigs;
    }

    /**
     * A topic to create, as CreateTopics carries it.
     *
     * @param name              topic name
     * @param numPartitions     partitions, or -1 for the broker default
     * @param replicationFactor replicas, or -1 for the broker default
     * @param assignment        explicit replica assignment (partition to brokers), or empty
     * @param configs           topic config overrides
     */
    public record TopicCreation(String name, int numPartitions, short replicationFactor,
                                Map<Integer, List<Integer>> assignment, Map<String, String> configs) {
    }

    /**
     * The outcome of a creation.
     *
     * @param error      NONE or the reason
     * @param assignment the assignment written (or that would be written, when validating only)
     */
    public record CreateTopicResult(ApiError error, TopicAssignment assignment) {
    }

    /**
     * Validates and, unless {@code validateOnly}, creates a topic.
     *
     * @return TOPIC_ALREADY_EXISTS, INVALID_TOPIC_EXCEPTION, INVALID_PARTITIONS,
     *         INVALID_REPLICATION_FACTOR, INVALID_REPLICA_ASSIGNMENT, INVALID_CONFIG or INVALID_REQUEST on failure
     */
    public CreateTopicResult createTopic(TopicCreation creation, boolean validateOnly) {
        try {
            TopicAssignment assignment = validateCreation(creation);
            if (!validateOnly) {
                zkClient.createTopic(assignment, creation.configs());
                log.info("Created topic {} with {} partition(s), replication factor {}, configs {}", creation.name(),
                    assignment.partitionCount(), assignment.replicationFactor(), creation.configs());
            }
            return new CreateTopicResult(ApiError.NONE, assignment);
        } catch (ApiException e) {
            return new CreateTopicResult(ApiError.fromThrowable(e), null);
        }
    }

    private TopicAssignment validateCreation(TopicCreation creation) {
        String name = creation.name();
        Topic.validate(name);
        if (metadataCache.topic(name).isPresent() || metadataCache.isPendingDeletion(name)) {
            throw new TopicExistsException("Topic '" + name + "' already exists.");
        }
        for (String existing : metadataCache.topicNames()) {
            if (Topic.hasCollision(name, existing)) {
                throw new InvalidTopicException("Topic '" + name + "' collides with existing topic: " + existing);
            }
        }
        List<Integer> brokers = metadataCache.aliveBrokers().stream().map(BrokerInfo::id).toList();
        Map<Integer, List<Integer>> replicas;
        if (!creation.assignment().isEmpty()) {
            if (creation.numPartitions() != -1 || creation.replicationFactor() != -1) {
                throw new InvalidRequestException("Both numPartitions or replicationFactor and replicasAssignments were set. "
                    + "Both cannot be used at the same time.");
            }
            replicas = validateAssignment(creation.assignment(), 0, -1, brokers);
        } else {
            int partitions = creation.numPartitions() == -1 ? defaultNumPartitions : creation.numPartitions();
            int rf = creation.replicationFactor() == -1 ? defaultReplicationFactor : creation.replicationFactor();
            if (partitions <= 0) {
                throw new InvalidPartitionsException("Number of partitions was set to an invalid non-positive value.");
            }
            if (rf <= 0) {
                throw new InvalidReplicationFactorException("Replication factor must be larger than 0.");
            }
            replicas = assignor.assign(brokerRacks(), 0, partitions, rf);
        }
        validateConfigs(creation.configs());
        return new TopicAssignment(name, Uuid.randomUuid(), replicas, -1);
    }

    /** The live brokers and their racks ({@code broker.rack}), for rack-aware replica placement. */
    private Map<Integer, Optional<String>> brokerRacks() {
        Map<Integer, Optional<String>> racks = new TreeMap<>();
        for (BrokerInfo broker : metadataCache.aliveBrokers()) {
            racks.put(broker.id(), Optional.ofNullable(broker.rack()));
        }
        return racks;
    }

    private static Map<Integer, List<Integer>> validateAssignment(Map<Integer, List<Integer>> assignment, int firstPartition,
                                                                  int expectedReplicationFactor, Collection<Integer> brokers) {
        Map<Integer, List<Integer>> sorted = new TreeMap<>(assignment);
        int expectedPartition = firstPartition;
        int rf = expectedReplicationFactor;
        for (Map.Entry<Integer, List<Integer>> e : sorted.entrySet()) {
            if (e.getKey() != expectedPartition) {
                throw new InvalidReplicaAssignmentException("Partitions should be a consecutive 0-based integer sequence");
            }
            List<Integer> r = e.getValue();
            if (r.isEmpty()) {
                throw new InvalidReplicaAssignmentException("Replica assignment for partition " + e.getKey() + " is empty");
            }
            if (new HashSet<>(r).size() != r.size()) {
                throw new InvalidReplicaAssignmentException("Duplicate replica assignment found: " + r);
            }
            if (rf == -1) {
                rf = r.size();
            } else if (r.size() != rf) {
                throw new InvalidReplicaAssignmentException("All partitions should have the same number of replicas");
            }
            for (int broker : r) {
                if (!brokers.contains(broker)) {
                    throw new InvalidReplicaAssignmentException("Unknown broker(s) in replica assignment: " + broker);
                }
            }
            expectedPartition++;
        }
        return sorted;
    }

    private void validateConfigs(Map<String, String> configs) {
        for (Map.Entry<String, String> e : configs.entrySet()) {
            if (e.getValue() == null) {
                throw new InvalidConfigurationException("Null value not supported for topic configs: " + e.getKey());
            }
        }
        LogConfig.validate(dynamicConfig.logConfigDefaults(), configs);
    }

    /**
     * A topic's config overrides as stored in ZooKeeper now (read-your-writes after
     * IncrementalAlterConfigs), or empty when the topic does not exist.
     */
    public java.util.Optional<Map<String, String>> topicConfigOverrides(String topic) {
        if (zkClient.getTopicAssignment(topic).isEmpty() || metadataCache.isPendingDeletion(topic)) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(zkClient.getTopicConfig(topic).config());
    }

    /**
     * Marks a topic for deletion; the controller deletes it.
     *
     * @return UNKNOWN_TOPIC_OR_PARTITION or TOPIC_DELETION_DISABLED on failure
     */
    public ApiError deleteTopic(String name) {
        if (!deleteTopicEnable) {
            return ApiError.fromThrowable(new TopicDeletionDisabledException("Topic deletion is disabled."));
        }
        if (metadataCache.topic(name).isEmpty()) {
            return new ApiError(Errors.UNKNOWN_TOPIC_OR_PARTITION, "Topic '" + name + "' does not exist.");
        }
        zkClient.markTopicForDeletion(name);
        log.info("Marked topic {} for deletion", name);
        return ApiError.NONE;
    }

    /**
     * Adds partitions to a topic.
     *
     * @param newCount   the new total partition count
     * @param assignment replicas of the new partitions, in order, or null for automatic placement
     * @return UNKNOWN_TOPIC_OR_PARTITION, INVALID_PARTITIONS or INVALID_REPLICA_ASSIGNMENT on failure
     */
    public ApiError createPartitions(String topic, int newCount, List<List<Integer>> assignment, boolean validateOnly) {
        try {
            TopicAssignment current = zkClient.getTopicAssignment(topic)
                .filter(a -> !metadataCache.isPendingDeletion(topic))
                .orElseThrow(() -> new UnknownTopicOrPartitionException("The topic '" + topic + "' does not exist."));
            int existing = current.partitionCount();
            if (newCount < existing) {
                throw new InvalidPartitionsException("Topic currently has " + existing + " partitions, which is higher "
                    + "than the requested " + newCount + ".");
            }
            if (newCount == existing) {
                throw new InvalidPartitionsException("Topic already has " + existing + " partitions.");
            }
            List<Integer> brokers = metadataCache.aliveBrokers().stream().map(BrokerInfo::id).toList();
            Map<Integer, List<Integer>> added;
            if (assignment != null) {
                if (assignment.size() != newCount - existing) {
                    throw new InvalidReplicaAssignmentException("Increasing the number of partitions by "
                        + (newCount - existing) + " but " + assignment.size() + " assignments provided.");
                }
                Map<Integer, List<Integer>> byPartition = new LinkedHashMap<>();
                for (int i = 0; i < assignment.size(); i++) {
                    byPartition.put(existing + i, assignment.get(i));
                }
                added = validateAssignment(byPartition, existing, current.replicationFactor(), brokers);
            } else {
                added = assignor.assign(brokerRacks(), existing, newCount - existing, current.replicationFactor());
            }
            if (!validateOnly) {
                Map<Integer, List<Integer>> all = new TreeMap<>(current.replicas());
                all.putAll(added);
                zkClient.setTopicAssignment(new TopicAssignment(topic, current.topicId(), all, current.addingReplicas(),
                    current.removingReplicas(), current.zkVersion()));
                log.info("Added partitions {} to topic {}", added.keySet(), topic);
            }
            return ApiError.NONE;
        } catch (ApiException e) {
            return ApiError.fromThrowable(e);
        } catch (ZooKeeperClientException e) {
            if (e.isBadVersion()) {
                return new ApiError(Errors.REASSIGNMENT_IN_PROGRESS, "The topic changed concurrently; retry");
            }
            throw e;
        }
    }

    /**
     * Applies incremental config changes to a topic (IncrementalAlterConfigs): SET, DELETE, and
     * APPEND / SUBTRACT for list-valued configs.
     *
     * @return UNKNOWN_TOPIC_OR_PARTITION, INVALID_CONFIG or INVALID_REQUEST on failure
     */
    public ApiError alterTopicConfig(String topic, List<ConfigChange> changes, boolean validateOnly) {
        return updateTopicConfig(topic, current -> ConfigChanges.apply(current, changes, LogConfig.CONFIG_DEF, "topic"), validateOnly);
    }

    /**
     * Replaces a topic's whole set of config overrides (AlterConfigs, as Kafka's ZooKeeper-mode
     * {@code ZkAdminManager.alterConfigs}): a key not in {@code configs} goes back to the broker
     * default. Validated as CreateTopics validates configs; stored in ZooKeeper, from where every
     * broker applies it.
     *
     * @param configs the new overrides, no null values
     * @return NONE, or UNKNOWN_TOPIC_OR_PARTITION, INVALID_CONFIG (an unknown name or a bad value)
     */
    public ApiError replaceTopicConfig(String topic, Map<String, String> configs, boolean validateOnly) {
        return updateTopicConfig(topic, current -> new HashMap<>(configs), validateOnly);
    }

    private ApiError updateTopicConfig(String topic, java.util.function.UnaryOperator<Map<String, String>> change,
                                       boolean validateOnly) {
        for (int attempt = 0; attempt < 5; attempt++) {
            try {
                if (metadataCache.topic(topic).isEmpty()) {
                    throw new UnknownTopicOrPartitionException("The topic '" + topic + "' does not exist.");
                }
                KafkaZkClient.VersionedConfig current = zkClient.getTopicConfig(topic);
                Map<String, String> updated = change.apply(current.config());
                validateConfigs(updated);
                if (!validateOnly) {
                    zkClient.setTopicConfig(topic, updated, current.version());
                    log.info("Changed the config of topic {} to {}", topic, updated);
                }
                return ApiError.NONE;
            } catch (ApiException e) {
                return ApiError.fromThrowable(e);
            } catch (ZooKeeperClientException e) {
                if (!e.isBadVersion() && !e.isNodeExists()) {
                    throw e;
                }
            }
        }
        return new ApiError(Errors.REQUEST_TIMED_OUT, "The config of topic " + topic + " kept changing concurrently");
    }

    /** One change of an IncrementalAlterConfigs request. */
    public record ConfigChange(String name, AlterConfigOp.OpType op, String value) {

        /**
         * An APPEND or SUBTRACT of this change's comma-separated values on a list-valued config.
         *
         * @param existing     the config's current value, or null when unset
         * @param defaultValue the list an unset config stands for (a {@link List}), or null
         * @return the new value, comma-separated
         */
        String appliedToList(String existing, Object defaultValue) {
            List<String> values = new ArrayList<>();
            if (existing == null && defaultValue instanceof List<?> defaults) {
                defaults.forEach(d -> values.add(d.toString()));
            } else if (existing != null && !existing.isBlank()) {
                for (String v : existing.split(",")) {
                    values.add(v.trim());
                }
            }
            for (String v : value == null ? new String[0] : value.split(",")) {
                String trimmed = v.trim();
                if (op == AlterConfigOp.OpType.APPEND && !values.contains(trimmed)) {
                    values.add(trimmed);
                } else if (op == AlterConfigOp.OpType.SUBTRACT) {
                    values.remove(trimmed);
                }
            }
            return String.join(",", values);
        }
    }
}
