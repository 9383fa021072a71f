package io.tributary.broker.cluster;

import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The codec of {@code /feature}, in the layout of Kafka's ZooKeeper mode ({@code FeatureZNode}, KIP-584):
 * <pre>
 * {"version":2,"status":1,"features":{"transaction.version":{"max_version_level":1}}}
 * </pre>
 * Version 1 also carried {@code min_version_level}, read and ignored here. Status 0 (disabled) is
 * read as no feature finalized, as Kafka's brokers do. The node's ZooKeeper version is the
 * finalized features epoch.
 */
public final class FeatureZNode {

    /** The node. */
    public static final String PATH = "/feature";

    private static final int STATUS_DISABLED = 0;
    private static final int STATUS_ENABLED = 1;

    private FeatureZNode() {
    }

    /** The node's data holding {@code levels} (levels below 1 are left out), status enabled. */
    public static byte[] encode(Map<String, Short> levels) {
        ObjectNode node = ZkJson.object();
        node.put("version", 2);
        node.put("status", STATUS_ENABLED);
        ObjectNode features = node.putObject("features");
        new FinalizedFeatures(levels, -1).levels().forEach((name, level) ->
            features.putObject(name).put("max_version_level", (int) level));
        return ZkJson.bytes(node);
    }

    /**
     * The finalized features in the node's data.
     *
     * @param zkVersion the node's version, the features epoch
     * @throws IllegalArgumentException when the data is not the node's JSON, or has a version
     *                                  other than 1 and 2 or a level out of the int16 range
     */
    public static FinalizedFeatures decode(byte[] data, int zkVersion) {
        JsonNode node = ZkJson.parse(data, PATH);
        int version = node.path("version").asInt(-1);
        if (version != 1 && version != 2) {
            throw new IllegalArgumentException("Unknown version " + version + " of " + PATH);
        }
        if (node.path("status").asInt(STATUS_DISABLED) != STATUS_ENABLED) {
            return new FinalizedFeatures(Map.of(), zkVersion);
        }
        Map<String, Short> levels = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : node.path("features").properties()) {
            int level = e.getValue().path("max_version_level").asInt(0);
            if (level < Short.MIN_VALUE || level > Short.MAX_VALUE) {
                throw new IllegalArgumentException("Level " + level + " of feature " + e.getKey() + " in " + PATH
                    + " is out of range");
            }
            levels.put(e.getKey(), (short) level);
        }
        return new FinalizedFeatures(levels, zkVersion);
    }
}
