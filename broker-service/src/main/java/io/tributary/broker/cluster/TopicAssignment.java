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
 * the topic was deleted and recreated.
 *
 * @param topic     topic name
 * @param topicId   topic id
 * @param replicas  partition to replica broker ids, the first being the preferred leader
 * @param zkVersion version of the node, for conditional updates (-1 when not read from ZooKeeper)
 */
public record TopicAssignment(String topic, Uuid topicId, Map<Integer, List<Integer>> replicas, int zkVersion) {

    public TopicAssignment {
        TreeMap<Integer, List<Integer>> copy = new TreeMap<>();
        replicas.forEach((p, r) -> copy.put(p, List.copyOf(r)));
        replicas = Collections.unmodifiableMap(copy);
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
        node.putObject("adding_replicas");
        node.putObject("removing_replicas");
        return ZkJson.bytes(node);
    }

    static TopicAssignment fromJson(String topic, byte[] data, int zkVersion) {
        JsonNode node = ZkJson.parse(data, ZkPaths.topic(topic));
        JsonNode id = node.get("topic_id");
        Uuid topicId = id == null || id.isNull() ? Uuid.ZERO_UUID : Uuid.fromString(id.asString());
        Map<Integer, List<Integer>> replicas = new TreeMap<>();
        for (Map.Entry<String, JsonNode> e : node.path("partitions").properties()) {
            List<Integer> brokers = new ArrayList<>();
            e.getValue().forEach(b -> brokers.add(b.asInt()));
            replicas.put(Integer.parseInt(e.getKey()), brokers);
        }
        return new TopicAssignment(topic, topicId, replicas, zkVersion);
    }
}
