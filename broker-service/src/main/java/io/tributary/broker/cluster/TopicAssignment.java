package io.tributary.broker.cluster;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.Uuid;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A topic's id and replica assignment, the node {@code /brokers/topics/{topic}}, in Kafka's JSON
 * (v3, KIP-516):
 * <pre>
 * {"version":3,"topic_id":"7gB3xZQ4S0mN0d1E5vL3aQ","partitions":{"0":[1,2],"1":[2,3]},
 *  "adding_replicas":{},"removing_replicas":{}}
 * </pre>
 * The topic id is created once with the topic and never changes: a changed id tells clients
 * the topic was deleted and recreated. While a partition is reassigned (KIP-455), its replicas
 * are the target replicas followed by the original ones being removed, and
 * {@code adding_replicas} / {@code removing_replicas} say which are which.
 *
 * @param topic            topic name
 * @param topicId          topic id
 * @param replicas         partition to replica broker ids, the first being the preferred leader
 * @param addingReplicas   partitions being reassigned: replicas being added
 * @param removingReplicas partitions being reassigned: replicas being removed
 * @param zkVersion        version of the node, for conditional updates (-1 when not read from ZooKeeper)
 */
public record TopicAssignment(String topic, Uuid topicId, Map<Integer, List<Integer>> replicas,
                              Map<Integer, List<Integer>> addingReplicas, Map<Integer, List<Integer>> removingReplicas,
                              int zkVersion) {

    public TopicAssignment {
        replicas = sortedCopy(replicas);
        addingReplicas = sortedCopy(addingReplicas);
        removingReplicas = sortedCopy(removingReplicas);
    }

    /** An assignment with no reassignment in progress. */
    public TopicAssignment(String topic, Uuid topicId, Map<Integer, List<Integer>> replicas, int zkVersion) {
        this(topic, topicId, replicas, Map.of(), Map.of(), zkVersion);
    }

    private static Map<Integer, List<Integer>> sortedCopy(Map<Integer, List<Integer>> in) {
        TreeMap<Integer, List<Integer>> copy = new TreeMap<>();
        in.forEach((p, r) -> copy.put(p, List.copyOf(r)));
        return Collections.unmodifiableMap(copy);
    }

    /** Whether a partition is being reassigned. */
    public boolean isReassigning(int partition) {
        return !addingReplicas.getOrDefault(partition, List.of()).isEmpty()
            || !removingReplicas.getOrDefault(partition, List.of()).isEmpty();
    }

    /** The replicas a reassigned partition is moving to: its replicas without those being removed. */
    public List<Integer> targetReplicas(int partition) {
        List<Integer> removing = removingReplicas.getOrDefault(partition, List.of());
        return replicas.getOrDefault(partition, List.of()).stream().filter(r -> !removing.contains(r)).toList();
    }

    /** The replicas a reassigned partition had before: its replicas without those being added. */
    public List<Integer> originalReplicas(int partition) {
        List<Integer> adding = addingReplicas.getOrDefault(partition, List.of());
        return replicas.getOrDefault(partition, List.of()).stream().filter(r -> !adding.contains(r)).toList();
    }

    /**
     * This assignment with one partition's replicas replaced.
     *
     * @param adding   replicas being added, empty when no reassignment is in progress
     * @param removing replicas being removed, likewise
     */
    public TopicAssignment withPartition(int partition, List<Integer> newReplicas, List<Integer> adding,
                                         List<Integer> removing) {
        Map<Integer, List<Integer>> r = new TreeMap<>(replicas);
        Map<Integer, List<Integer>> a = new TreeMap<>(addingReplicas);
        Map<Integer, List<Integer>> d = new TreeMap<>(removingReplicas);
        r.put(partition, newReplicas);
        a.remove(partition);
        d.remove(partition);
        if (!adding.isEmpty()) {
            a.put(partition, adding);
        }
        if (!removing.isEmpty()) {
            d.put(partition, removing);
        }
        return new TopicAssignment(topic, topicId, r, a, d, zkVersion);
    }

    public int partitionCount() {
        return replicas.size();
    }

    /** Replication factor (of partition 0; all partitions share it unless assigned by hand). */
    public int replicationFactor() {
        return replicas.isEmpty() ? 0 : replicas.values().iterator().next().size();
    }

    byte[] toJson() {
        ObjectNode node = ZkJson.object();
        node.put("version", 3);
        node.put("topic_id", topicId.toString());
        ObjectNode partitions = node.putObject("partitions");
        replicas.forEach((p, r) -> {
            var array = partitions.putArray(Integer.toString(p));
            r.forEach(array::add);
        });
        writePartitionMap(node.putObject("adding_replicas"), addingReplicas);
        writePartitionMap(node.putObject("removing_replicas"), removingReplicas);
        return ZkJson.bytes(node);
    }

    private static void writePartitionMap(ObjectNode node, Map<Integer, List<Integer>> map) {
        map.forEach((p, r) -> {
            var array = node.putArray(Integer.toString(p));
            r.forEach(array::add);
        });
    }

    private static Map<Integer, List<Integer>> readPartitionMap(JsonNode node) {
        Map<Integer, List<Integer>> out = new TreeMap<>();
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            List<Integer> brokers = new ArrayList<>();
            e.getValue().forEach(b -> brokers.add(b.asInt()));
            out.put(Integer.parseInt(e.getKey()), brokers);
        }
        return out;
    }

    static TopicAssignment fromJson(String topic, byte[] data, int zkVersion) {
        JsonNode node = ZkJson.parse(data, ZkPaths.topic(topic));
        JsonNode id = node.get("topic_id");
        Uuid topicId = id == null || id.isNull() ? Uuid.ZERO_UUID : Uuid.fromString(id.asString());
        return new TopicAssignment(topic, topicId, readPartitionMap(node.path("partitions")),
            readPartitionMap(node.path("adding_replicas")), readPartitionMap(node.path("removing_replicas")), zkVersion);
    }
}
