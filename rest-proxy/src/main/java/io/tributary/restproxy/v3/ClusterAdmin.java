package io.tributary.restproxy.v3;

import io.tributary.restproxy.error.ClusterNotFoundException;
import io.tributary.restproxy.error.ConsumerGroupNotEmptyException;
import io.tributary.restproxy.error.ConsumerGroupNotFoundException;
import io.tributary.restproxy.error.InvalidArgumentException;
import io.tributary.restproxy.error.KafkaErrors;
import io.tributary.restproxy.error.KafkaFutures;
import io.tributary.restproxy.error.KafkaOperationException;
import io.tributary.restproxy.error.RestException;
import io.tributary.restproxy.error.TopicAlreadyExistsException;
import io.tributary.restproxy.error.TopicNotFoundException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidPartitionsException;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.PolicyViolationException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownMemberIdException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.springframework.stereotype.Service;

/**
 * The Admin client operations behind the v3 API: cluster, brokers, topics, configs, partitions
 * with their log sizes, consumer groups with their offsets and lag. Knows nothing of HTTP;
 * failures are the proxy's exceptions ({@link TopicNotFoundException},
 * {@link ConsumerGroupNotFoundException}, {@link TopicAlreadyExistsException},
 * {@link ConsumerGroupNotEmptyException}, {@link InvalidArgumentException} for arguments the
 * brokers refuse, else those {@link KafkaFutures} makes). Thread-safe.
 */
@Service
public class ClusterAdmin {

    /** The cluster id, controller and brokers. */
    public record ClusterInfo(String clusterId, Node controller, Collection<Node> brokers) {
    }

    /** A partition's committed offset in a group, log end offset and lag, with the member holding it. */
    public record PartitionLag(TopicPartition partition, long currentOffset, long logEndOffset, long lag,
            String consumerId, String instanceId, String clientId) {
    }

    private final Admin admin;

    public ClusterAdmin(Admin admin) {
        this.admin = admin;
    }

    public ClusterInfo cluster() {
        DescribeClusterResult result = admin.describeCluster();
        return new ClusterInfo(get(result.clusterId()), get(result.controller()), get(result.nodes()));
    }

    /**
     * The cluster operations the caller may do, as the brokers compute them from their ACLs
     * (DescribeCluster with {@code includeClusterAuthorizedOperations}); every cluster operation
     * when the brokers authorize nothing.
     */
    public Set<AclOperation> clusterAuthorizedOperations() {
        Set<AclOperation> operations = get(admin.describeCluster(new DescribeClusterOptions()
            .includeAuthorizedOperations(true)).authorizedOperations());
        return operations == null ? Set.of() : operations;
    }

    /**
     * Checks the path's cluster id.
     *
     * @throws ClusterNotFoundException when it is not this cluster's
     */
    public void checkCluster(String clusterId) {
        String actual = get(admin.describeCluster().clusterId());
        if (!actual.equals(clusterId)) {
            throw new ClusterNotFoundException(clusterId, actual);
        }
    }

    public List<TopicDescription> topics() {
        return topics(false);
    }

    /**
     * Every topic the caller may describe, internal ones included, sorted by name; with
     * {@code includeAuthorizedOperations}, each description carries the topic operations the caller
     * may do (else they are null).
     */
    public List<TopicDescription> topics(boolean includeAuthorizedOperations) {
        Set<String> names = get(admin.listTopics(new ListTopicsOptions().listInternal(true)).names());
        return get(admin.describeTopics(names, describeOptions(includeAuthorizedOperations)).allTopicNames()).values()
            .stream().sorted((x, y) -> x.name().compareTo(y.name())).toList();
    }

    public TopicDescription topic(String topic) {
        return topic(topic, false);
    }

    /** One topic; with {@code includeAuthorizedOperations}, the topic operations the caller may do too. */
    public TopicDescription topic(String topic, boolean includeAuthorizedOperations) {
        return topicNamed(topic, admin.describeTopics(List.of(topic), describeOptions(includeAuthorizedOperations))
            .allTopicNames());
    }

    private static DescribeTopicsOptions describeOptions(boolean includeAuthorizedOperations) {
        return new DescribeTopicsOptions().includeAuthorizedOperations(includeAuthorizedOperations);
    }

    /**
     * Creates a topic.
     *
     * @throws TopicAlreadyExistsException when it exists
     * @throws InvalidArgumentException for a name, count, factor or config the brokers refuse
     */
    public TopicDescription createTopic(String topic, Optional<Integer> partitions, Optional<Short> replicationFactor,
            Map<String, String> configs) {
        NewTopic newTopic = new NewTopic(topic, partitions, replicationFactor).configs(configs);
        get(admin.createTopics(List.of(newTopic)).all(), cause -> cause instanceof TopicExistsException
            ? new TopicAlreadyExistsException(topic) : badRequest(cause));
        return topic(topic);
    }

    public void deleteTopic(String topic) {
        get(admin.deleteTopics(List.of(topic)).all(), cause -> unknownTopic(cause, topic));
    }

    /** Raises the topic's partition count to {@code count}. */
    public void addPartitions(String topic, int count) {
        get(admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(count))).all(), cause -> {
            RestException unknown = unknownTopic(cause, topic);
            return unknown != null ? unknown : badRequest(cause);
        });
    }

    /** The topic's config entries, by name. */
    public List<ConfigEntry> topicConfigs(String topic) {
        topic(topic);
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Map<ConfigResource, Config> configs = get(admin.describeConfigs(List.of(resource)).all());
        return configs.get(resource).entries().stream().sorted((x, y) -> x.name().compareTo(y.name())).toList();
    }

    /** Sets ({@code value} non-null) or deletes (null: back to the default) topic configs. */
    public void alterTopicConfigs(String topic, Map<String, Optional<String>> changes) {
        topic(topic);
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        List<AlterConfigOp> ops = new ArrayList<>();
        changes.forEach((name, value) -> ops.add(value.isPresent()
            ? new AlterConfigOp(new ConfigEntry(name, value.get()), AlterConfigOp.OpType.SET)
            : new AlterConfigOp(new ConfigEntry(name, null), AlterConfigOp.OpType.DELETE)));
        get(admin.incrementalAlterConfigs(Map.of(resource, ops)).all(), ClusterAdmin::badRequest);
    }

    /**
     * Bytes on disk of each partition of the topic (its largest replica), by partition; empty when the
     * caller may not describe the brokers' log directories (DESCRIBE on the cluster), so a user who may
     * read a topic still gets its partitions, without sizes.
     */
    public Map<Integer, Long> partitionSizes(String topic, Collection<Node> brokers) {
        Map<Integer, Long> sizes = new HashMap<>();
        List<Integer> ids = brokers.stream().map(Node::id).toList();
        Map<Integer, Map<String, LogDirDescription>> dirs;
        try {
            dirs = get(admin.describeLogDirs(ids).allDescriptions());
        } catch (KafkaOperationException e) {
            if (e.getCause() instanceof AuthorizationException) {
                return sizes;
            }
            throw e;
        }
        for (Map<String, LogDirDescription> byDir : dirs.values()) {
            for (LogDirDescription dir : byDir.values()) {
                for (Map.Entry<TopicPartition, ReplicaInfo> replica : dir.replicaInfos().entrySet()) {
                    if (replica.getKey().topic().equals(topic)) {
                        sizes.merge(replica.getKey().partition(), replica.getValue().size(), Math::max);
                    }
                }
            }
        }
        return sizes;
    }

    /** Earliest and latest offsets of each partition. */
    public Map<TopicPartition, long[]> offsets(Collection<TopicPartition> partitions) {
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (TopicPartition tp : partitions) {
            earliest.put(tp, OffsetSpec.earliest());
            latest.put(tp, OffsetSpec.latest());
        }
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> start = get(admin.listOffsets(earliest).all());
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> end = get(admin.listOffsets(latest).all());
        Map<TopicPartition, long[]> result = new HashMap<>();
        for (TopicPartition tp : partitions) {
            result.put(tp, new long[] {start.get(tp).offset(), end.get(tp).offset()});
        }
        return result;
    }

    /** The classic consumer groups. */
    public Collection<GroupListing> groups() {
        return get(admin.listGroups(ListGroupsOptions.forConsumerGroups()).all());
    }

    /**
     * The descriptions of {@code groups}, asked in one DescribeGroups round (batched per
     * coordinator by the Admin client) rather than one request per group; a group that went away
     * since it was listed (not found, or DEAD) is left out. Sorted by group id.
     */
    public List<ConsumerGroupDescription> groups(Collection<String> groups) {
        if (groups.isEmpty()) {
            return List.of();
        }
        Map<String, KafkaFuture<ConsumerGroupDescription>> futures = admin.describeConsumerGroups(groups).describedGroups();
        List<ConsumerGroupDescription> descriptions = new ArrayList<>();
        for (Map.Entry<String, KafkaFuture<ConsumerGroupDescription>> e : new java.util.TreeMap<>(futures).entrySet()) {
            ConsumerGroupDescription description;
            try {
                description = get(e.getValue(), cause -> cause instanceof GroupIdNotFoundException
                    ? new ConsumerGroupNotFoundException(e.getKey()) : null);
            } catch (ConsumerGroupNotFoundException gone) {
                continue;
            }
            if (description.groupState() != GroupState.DEAD) {
                descriptions.add(description);
            }
        }
        return descriptions;
    }

    /**
     * A consumer group's state, members and assignments.
     *
     * @throws ConsumerGroupNotFoundException when the group does not exist
     */
    public ConsumerGroupDescription group(String group) {
        ConsumerGroupDescription description = get(admin.describeConsumerGroups(List.of(group)).all(),
            cause -> cause instanceof GroupIdNotFoundException ? new ConsumerGroupNotFoundException(group) : null)
            .get(group);
        if (description.groupState() == GroupState.DEAD) {
            throw new ConsumerGroupNotFoundException(group);
        }
        return description;
    }

    /** A group's committed offsets. */
    public Map<TopicPartition, OffsetAndMetadata> committedOffsets(String group) {
        Map<TopicPartition, OffsetAndMetadata> offsets = get(admin.listConsumerGroupOffsets(group)
            .partitionsToOffsetAndMetadata());
        Map<TopicPartition, OffsetAndMetadata> present = new HashMap<>();
        offsets.forEach((tp, offset) -> {
            if (offset != null) {
                present.put(tp, offset);
            }
        });
        return present;
    }

    /**
     * Lag of every partition the group has a committed offset for or is assigned, but those of topics that
     * do not exist (deleted since the group committed) or that the caller may not describe: they have no
     * log end offset, and asking for one would wait out the admin client's timeout.
     */
    public List<PartitionLag> lags(String group) {
        ConsumerGroupDescription description = group(group);
        Map<TopicPartition, OffsetAndMetadata> committed = committedOffsets(group);
        Map<TopicPartition, String[]> owners = new HashMap<>();
        description.members().forEach(member -> member.assignment().topicPartitions().forEach(tp ->
            owners.put(tp, new String[] {member.consumerId(), member.groupInstanceId().orElse(null),
                member.clientId()})));
        Set<TopicPartition> partitions = new java.util.TreeSet<>((x, y) -> x.topic().equals(y.topic())
            ? Integer.compare(x.partition(), y.partition()) : x.topic().compareTo(y.topic()));
        partitions.addAll(committed.keySet());
        partitions.addAll(owners.keySet());
        Set<String> topics = get(admin.listTopics(new ListTopicsOptions().listInternal(true)).names());
        partitions.removeIf(tp -> !topics.contains(tp.topic()));
        Map<TopicPartition, long[]> ends = offsets(partitions);
        List<PartitionLag> lags = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            long end = ends.get(tp)[1];
            OffsetAndMetadata offset = committed.get(tp);
            long current = offset == null ? -1 : offset.offset();
            long lag = current < 0 ? end - ends.get(tp)[0] : Math.max(0, end - current);
            String[] owner = owners.getOrDefault(tp, new String[3]);
            lags.add(new PartitionLag(tp, current, end, lag, owner[0], owner[1], owner[2]));
        }
        return lags;
    }

    /**
     * Deletes a group and its committed offsets.
     *
     * @throws ConsumerGroupNotFoundException when the group does not exist
     * @throws ConsumerGroupNotEmptyException when it still has members
     */
    public void deleteGroup(String group) {
        group(group);
        get(admin.deleteConsumerGroups(List.of(group)).all(), cause -> cause instanceof GroupNotEmptyException
            ? new ConsumerGroupNotEmptyException("Group " + group + " has members: it can only be deleted when empty.")
            : null);
    }

    /**
     * Sets a group's committed offsets, as {@code kafka-consumer-groups --reset-offsets} does: only
     * while the group has no members.
     *
     * @throws ConsumerGroupNotEmptyException when the group has members
     */
    public void resetOffsets(String group, Map<TopicPartition, Long> offsets) {
        ConsumerGroupDescription description = group(group);
        if (!description.members().isEmpty()) {
            throw new ConsumerGroupNotEmptyException("Group " + group + " has " + description.members().size()
                + " members (state " + description.groupState() + "): offsets can only be reset when it is empty.");
        }
        Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
        offsets.forEach((tp, offset) -> commit.put(tp, new OffsetAndMetadata(offset)));
        get(admin.alterConsumerGroupOffsets(group, commit).all(), cause -> cause instanceof UnknownMemberIdException
            ? new ConsumerGroupNotEmptyException("Group " + group + " is not empty: offsets can only be reset when "
                + "it is empty.")
            : null);
    }

    /** Offsets of partitions for a reset: earliest, latest, or the first at or after a timestamp. */
    public Map<TopicPartition, Long> resolve(Collection<TopicPartition> partitions, OffsetSpec spec) {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(tp -> request.put(tp, spec));
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> found = get(admin.listOffsets(request).all());
        Map<TopicPartition, long[]> ends = spec instanceof OffsetSpec.TimestampSpec ? offsets(partitions) : Map.of();
        Map<TopicPartition, Long> result = new HashMap<>();
        for (TopicPartition tp : partitions) {
            long offset = found.get(tp).offset();
            result.put(tp, offset >= 0 ? offset : ends.get(tp)[1]);
        }
        return result;
    }

    private static TopicDescription topicNamed(String topic, KafkaFuture<Map<String, TopicDescription>> future) {
        return get(future, cause -> unknownTopic(cause, topic)).get(topic);
    }

    private static RestException unknownTopic(Throwable cause, String topic) {
        return cause instanceof UnknownTopicOrPartitionException ? new TopicNotFoundException(topic) : null;
    }

    /** An {@link InvalidArgumentException} for the Kafka errors that mean the arguments were wrong, else null. */
    private static RestException badRequest(Throwable cause) {
        if (cause instanceof InvalidTopicException || cause instanceof InvalidPartitionsException
                || cause instanceof InvalidReplicationFactorException
                || cause instanceof InvalidConfigurationException
                || cause instanceof InvalidRequestException
                || cause instanceof PolicyViolationException) {
            return new InvalidArgumentException(KafkaErrors.describe(cause), cause);
        }
        return null;
    }

    private static <T> T get(KafkaFuture<T> future) {
        return KafkaFutures.get(future);
    }

    private static <T> T get(KafkaFuture<T> future, Function<Throwable, RestException> translate) {
        return KafkaFutures.get(future, translate);
    }
}
