package io.tributary.restproxy.v3;

import io.tributary.restproxy.error.KafkaFutures;
import io.tributary.restproxy.error.KafkaOperationException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.AuthorizationException;
import org.springframework.stereotype.Service;

/**
 * How much each topic holds, for lists that sort topics by it: bytes on disk of the leader replicas
 * (one DescribeLogDirs to every broker) and records between each partition's start and end offsets
 * (two ListOffsets rounds), for many topics at once. Partitions without a leader count for neither.
 * Knows nothing of HTTP. Thread-safe.
 */
@Service
public class TopicUsage {

    /**
     * One topic's usage.
     *
     * @param sizeBytes    bytes of the leader replicas' logs (segments and indexes as DescribeLogDirs
     *                     reports them); null when the caller may not describe log directories (DESCRIBE
     *                     on the cluster)
     * @param messageCount the sum over partitions of end offset minus start offset: the record count of a
     *                     plain topic, more than that for a compacted one (removed records leave gaps) or
     *                     one written in transactions (commit and abort markers take offsets)
     * @param offlinePartitions partitions without a leader, counted in neither figure
     */
    public record Usage(String topic, Long sizeBytes, long messageCount, int offlinePartitions) {
    }

    private final Admin admin;

    /** @param admin the proxy's Admin client */
    public TopicUsage(Admin admin) {
        this.admin = admin;
    }

    /** The usage of each of {@code topics}, in their order; {@code brokers} are asked for their log directories. */
    public List<Usage> of(Collection<TopicDescription> topics, Collection<Node> brokers) {
        Map<TopicPartition, Integer> leaders = new HashMap<>();
        Map<String, Integer> offline = new HashMap<>();
        for (TopicDescription topic : topics) {
            for (TopicPartitionInfo partition : topic.partitions()) {
                if (partition.leader() == null || partition.leader().isEmpty()) {
                    offline.merge(topic.name(), 1, Integer::sum);
                } else {
                    leaders.put(new TopicPartition(topic.name(), partition.partition()), partition.leader().id());
                }
            }
        }
        Map<TopicPartition, Long> sizes = leaderSizes(leaders, brokers);
        Map<TopicPartition, Long> counts = messageCounts(leaders.keySet());
        Map<String, Long> bytesByTopic = new HashMap<>();
        Map<String, Long> countByTopic = new HashMap<>();
        for (TopicPartition tp : leaders.keySet()) {
            countByTopic.merge(tp.topic(), counts.getOrDefault(tp, 0L), Long::sum);
            if (sizes != null) {
                bytesByTopic.merge(tp.topic(), sizes.getOrDefault(tp, 0L), Long::sum);
            }
        }
        List<Usage> usage = new ArrayList<>();
        for (TopicDescription topic : topics) {
            usage.add(new Usage(topic.name(), sizes == null ? null : bytesByTopic.getOrDefault(topic.name(), 0L),
                countByTopic.getOrDefault(topic.name(), 0L), offline.getOrDefault(topic.name(), 0)));
        }
        return usage;
    }

    /**
     * Size of each partition's leader replica, from the log directories of the brokers; null when the
     * caller may not describe them.
     */
    private Map<TopicPartition, Long> leaderSizes(Map<TopicPartition, Integer> leaders, Collection<Node> brokers) {
        if (leaders.isEmpty()) {
            return Map.of();
        }
        Map<Integer, Map<String, LogDirDescription>> dirs;
        try {
            dirs = KafkaFutures.get(admin.describeLogDirs(brokers.stream().map(Node::id).toList()).allDescriptions());
        } catch (KafkaOperationException e) {
            if (e.getCause() instanceof AuthorizationException) {
                return null;
            }
            throw e;
        }
        Map<TopicPartition, Long> sizes = new HashMap<>();
        dirs.forEach((broker, byDir) -> byDir.values().forEach(dir -> {
            for (Map.Entry<TopicPartition, ReplicaInfo> replica : dir.replicaInfos().entrySet()) {
                if (broker.equals(leaders.get(replica.getKey())) && !replica.getValue().isFuture()) {
                    sizes.merge(replica.getKey(), replica.getValue().size(), Long::sum);
                }
            }
        }));
        return sizes;
    }

    /** End offset minus start offset of each partition. */
    private Map<TopicPartition, Long> messageCounts(Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return Map.of();
        }
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (TopicPartition tp : partitions) {
            earliest.put(tp, OffsetSpec.earliest());
            latest.put(tp, OffsetSpec.latest());
        }
        Map<TopicPartition, ListOffsetsResultInfo> start = KafkaFutures.get(admin.listOffsets(earliest).all());
        Map<TopicPartition, ListOffsetsResultInfo> end = KafkaFutures.get(admin.listOffsets(latest).all());
        Map<TopicPartition, Long> counts = new HashMap<>();
        for (TopicPartition tp : partitions) {
            counts.put(tp, Math.max(0, end.get(tp).offset() - start.get(tp).offset()));
        }
        return counts;
    }
}
