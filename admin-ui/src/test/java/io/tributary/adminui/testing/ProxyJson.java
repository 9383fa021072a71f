package io.tributary.adminui.testing;

import java.util.List;
import java.util.stream.Collectors;

/** JSON bodies shaped like the REST proxy's, for {@link StubRestProxy}. */
public final class ProxyJson {

    /** The cluster id every stub answer uses. */
    public static final String CLUSTER = "c1";

    private ProxyJson() {
    }

    /** {@code GET /v3/clusters} with controller {@code controller} (null for none). */
    public static String clusters(Integer controller) {
        String link = controller == null ? "null"
            : "{\"related\":\"http://proxy/v3/clusters/" + CLUSTER + "/brokers/" + controller + "\"}";
        return "{\"kind\":\"KafkaClusterList\",\"metadata\":{},\"data\":[{\"kind\":\"KafkaCluster\",\"cluster_id\":\""
            + CLUSTER + "\",\"controller\":" + link + ",\"brokers\":{\"related\":\"x\"}}]}";
    }

    /** A v3 list of the given resource bodies. */
    public static String list(List<String> items) {
        return "{\"kind\":\"List\",\"metadata\":{},\"data\":[" + String.join(",", items) + "]}";
    }

    /** A v3 broker. */
    public static String broker(int id, String rack) {
        return "{\"broker_id\":" + id + ",\"host\":\"h" + id + "\",\"port\":" + (9092 + id) + ",\"rack\":"
            + (rack == null ? "null" : "\"" + rack + "\"") + "}";
    }

    /** A v3 topic. */
    public static String topic(String name, int partitions, int replicationFactor) {
        return "{\"kind\":\"KafkaTopic\",\"topic_name\":\"" + name + "\",\"is_internal\":false,\"replication_factor\":"
            + replicationFactor + ",\"partitions_count\":" + partitions + "}";
    }

    /** A v3 topic with the caller's {@code authorized_operations}. */
    public static String topic(String name, int partitions, int replicationFactor, List<String> operations) {
        String plain = topic(name, partitions, replicationFactor);
        return plain.substring(0, plain.length() - 1) + ",\"authorized_operations\":" + strings(operations) + "}";
    }

    /** A v3 cluster with the caller's {@code authorized_operations}. */
    public static String cluster(List<String> operations) {
        return "{\"kind\":\"KafkaCluster\",\"cluster_id\":\"" + CLUSTER + "\",\"authorized_operations\":"
            + strings(operations) + "}";
    }

    private static String strings(List<String> values) {
        return values.stream().map(v -> "\"" + v + "\"").collect(Collectors.joining(",", "[", "]"));
    }

    /** A v3 topic with Tributary's health counts (under-replicated and offline partitions). */
    public static String topic(String name, int partitions, int replicationFactor, int underReplicated, int offline) {
        String plain = topic(name, partitions, replicationFactor);
        return plain.substring(0, plain.length() - 1) + ",\"under_replicated_partitions_count\":" + underReplicated
            + ",\"offline_partitions_count\":" + offline + "}";
    }

    /** A v2 partition state list; each entry is {leader, replica ids..., in-sync flags as negative ids}. */
    public static String states(String... partitions) {
        return "[" + String.join(",", partitions) + "]";
    }

    /** One v2 partition: {@code leader} (-1 offline), replicas, and which of them are in sync. */
    public static String state(int partition, int leader, List<Integer> replicas, List<Integer> isr) {
        return "{\"partition\":" + partition + ",\"leader\":" + leader + ",\"replicas\":["
            + replicas.stream().map(r -> "{\"broker\":" + r + ",\"leader\":" + (r == leader) + ",\"in_sync\":"
                + isr.contains(r) + "}").collect(Collectors.joining(",")) + "]}";
    }
}
