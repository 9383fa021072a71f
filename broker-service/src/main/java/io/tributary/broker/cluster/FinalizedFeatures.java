package io.tributary.broker.cluster;

import java.util.Map;
import java.util.TreeMap;

/**
 * The cluster's finalized feature levels (KIP-584), as {@code /feature} holds them: the level every
 * broker of the cluster runs each feature at. A feature not listed is at level 0, its original
 * behaviour; Kafka leaves level-0 features out of the node and out of ApiVersions.
 *
 * @param levels feature name to finalized level, every level at least 1
 * @param epoch  the version of {@code /feature} these levels were read from (Kafka's
 *               {@code FinalizedFeaturesEpoch} in ZooKeeper mode); -1 while the node is absent
 */
public record FinalizedFeatures(Map<String, Short> levels, long epoch) {

    /** No feature finalized, no node read. */
    public static final FinalizedFeatures NONE = new FinalizedFeatures(Map.of(), -1);

    public FinalizedFeatures {
        TreeMap<String, Short> kept = new TreeMap<>();
        levels.forEach((name, level) -> {
            if (level > 0) {
                kept.put(name, level);
            }
        });
        levels = java.util.Collections.unmodifiableSortedMap(kept);
    }

    /** A feature's finalized level: 0 when it is not finalized. */
    public short level(String feature) {
        return levels.getOrDefault(feature, (short) 0);
    }
}
