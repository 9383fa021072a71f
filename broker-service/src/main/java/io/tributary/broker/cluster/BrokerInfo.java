package io.tributary.broker.cluster;

import io.tributary.broker.config.EndPoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.feature.SupportedVersionRange;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A broker's registration, the ephemeral node {@code /brokers/ids/{id}}, in Kafka's JSON (v5):
 * <pre>
 * {"version":5,"host":"h","port":9092,"endpoints":["PLAINTEXT://h:9092"],
 *  "listener_security_protocol_map":{"PLAINTEXT":"PLAINTEXT"},"jmx_port":-1,"rack":"r1",
 *  "timestamp":"1700000000000","features":{"transaction.version":{"min_version":0,"max_version":1}}}
 * </pre>
 * {@code features} lists the feature levels the broker supports (KIP-584), which UpdateFeatures
 * checks before finalizing a level; a registration without it (an older Tributary) supports
 * only level 0 of every feature.
 * A broker in controlled shutdown adds {@code "controlled_shutdown":true} (Tributary's field; Kafka's
 * ZooKeeper brokers asked the controller with the ControlledShutdown request, which Kafka 4's
 * protocol no longer has). The controller then moves leaderships off it and out of ISRs, and
 * leaders do not add it back (as KIP-841 keeps shutting-down brokers out of ISRs).
 *
 * @param id           broker id
 * @param endPoints    advertised listeners
 * @param rack         rack, or null
 * @param epoch        broker epoch: the czxid of the registration node (-1 before registration)
 * <p>A broker whose log directory failed (KIP-112) lists the replicas it lost in
 * {@code "offline_replicas":{"topic":[0,2]}} (Tributary's field; Kafka's ZooKeeper brokers wrote a
 * log-dir event and answered the controller's LeaderAndIsr with the offline ones): the controller
 * treats them as dead replicas.
 *
 * @param shuttingDown    whether the broker is in controlled shutdown
 * @param offlineReplicas partitions whose replica on this broker is offline
 * @param features        the feature levels the broker supports
 */
public record BrokerInfo(int id, List<EndPoint> endPoints, String rack, long epoch, boolean shuttingDown,
                         Set<TopicPartition> offlineReplicas, BrokerFeatures features) {

    public BrokerInfo {
        endPoints = List.copyOf(endPoints);
        offlineReplicas = Set.copyOf(offlineReplicas);
        java.util.Objects.requireNonNull(features, "features");
    }

    /**
     * A registration of a broker of this version that is not shutting down and has every replica
     * online.
     */
    public BrokerInfo(int id, List<EndPoint> endPoints, String rack, long epoch) {
        this(id, endPoints, rack, epoch, false, Set.of(), BrokerFeatures.CURRENT);
    }

    /** The same registration, in controlled shutdown. */
    public BrokerInfo inControlledShutdown() {
        return new BrokerInfo(id, endPoints, rack, epoch, true, offlineReplicas, features);
    }

    /** The same registration with these replicas offline. */
    public BrokerInfo withOfflineReplicas(Set<TopicPartition> offline) {
        return new BrokerInfo(id, endPoints, rack, epoch, shuttingDown, offline, features);
    }

    /** The end point of a listener, by name. */
    public Optional<EndPoint> endPoint(String listenerName) {
        return endPoints.stream().filter(e -> e.listenerName().equals(listenerName)).findFirst();
    }

    byte[] toJson(long timestampMs) {
        ObjectNode node = ZkJson.object();
        node.put("version", 5);
        EndPoint first = endPoints.isEmpty() ? null : endPoints.get(0);
        node.put("host", first == null ? "" : first.host());
        node.put("port", first == null ? -1 : first.port());
        var endpoints = node.putArray("endpoints");
        var protocolMap = node.putObject("listener_security_protocol_map");
        for (EndPoint e : endPoints) {
            endpoints.add(e.connectionString());
            protocolMap.put(e.listenerName(), e.securityProtocol().name);
        }
        node.put("jmx_port", -1);
        if (rack != null) {
            node.put("rack", rack);
        }
        node.put("timestamp", Long.toString(timestampMs));
        ObjectNode supported = node.putObject("features");
        features.supported().forEach((name, range) ->
            supported.putObject(name).put("min_version", (int) range.min()).put("max_version", (int) range.max()));
        if (shuttingDown) {
            node.put("controlled_shutdown", true);
        }
        if (!offlineReplicas.isEmpty()) {
            ObjectNode offline = node.putObject("offline_replicas");
            offlineReplicas.stream().sorted(java.util.Comparator.comparing(TopicPartition::topic)
                    .thenComparingInt(TopicPartition::partition))
                .forEach(tp -> {
                    var array = offline.has(tp.topic()) ? (tools.jackson.databind.node.ArrayNode) offline.get(tp.topic())
                        : offline.putArray(tp.topic());
                    array.add(tp.partition());
                });
        }
        return ZkJson.bytes(node);
    }

    static BrokerInfo fromJson(int id, byte[] data, long czxid) {
        JsonNode node = ZkJson.parse(data, ZkPaths.broker(id));
        JsonNode protocolMap = node.path("listener_security_protocol_map");
        List<EndPoint> endPoints = new ArrayList<>();
        for (JsonNode e : node.path("endpoints")) {
            String value = e.asString();
            int schemeEnd = value.indexOf("://");
            String listener = value.substring(0, schemeEnd);
            String protocolName = protocolMap.path(listener).asString(listener);
            EndPoint parsed = EndPoint.parse(protocolName + value.substring(schemeEnd));
            endPoints.add(new EndPoint(listener, SecurityProtocol.forName(protocolName), parsed.host(), parsed.port()));
        }
        JsonNode rackNode = node.get("rack");
        String rack = rackNode == null || rackNode.isNull() ? null : rackNode.asString();
        Set<TopicPartition> offline = new java.util.HashSet<>();
        for (Map.Entry<String, JsonNode> e : node.path("offline_replicas").properties()) {
            e.getValue().forEach(p -> offline.add(new TopicPartition(e.getKey(), p.asInt())));
        }
        Map<String, SupportedVersionRange> supported = new java.util.HashMap<>();
        for (Map.Entry<String, JsonNode> e : node.path("features").properties()) {
            int min = e.getValue().path("min_version").asInt(-1);
            int max = e.getValue().path("max_version").asInt(-1);
            if (min >= 0 && max >= min && max <= Short.MAX_VALUE) { // otherwise read as unsupported
                supported.put(e.getKey(), new SupportedVersionRange((short) min, (short) max));
            }
        }
        return new BrokerInfo(id, endPoints, rack, czxid, node.path("controlled_shutdown").asBoolean(false), offline,
            new BrokerFeatures(supported));
    }
}
