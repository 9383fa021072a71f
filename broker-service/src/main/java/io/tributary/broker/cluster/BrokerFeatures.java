package io.tributary.broker.cluster;

import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.feature.SupportedVersionRange;

/**
 * The feature levels (KIP-584) this broker version supports, advertised in ApiVersions v3+ and in
 * its registration, and the levels a new cluster is finalized at.
 *
 * <ul>
 *   <li>{@code transaction.version} 0-1: level 1 writes {@code __transaction_state} values in
 *       their flexible version (KIP-890's first part), which every level of Kafka's and
 *       Tributary's loader reads. Level 2 (KIP-890's second part: an epoch bump per transaction,
 *       EndTxn v5) is not built, so kafka-clients producers keep transaction version 1 here.</li>
 *   <li>{@code group.version} 0 to 1: 1 serves the consumer rebalance protocol (KIP-848).</li>
 *   <li>{@code share.version} 0 to 1: 1 serves share groups (KIP-932); a new cluster starts at 1,
 *       an older one is upgraded with {@code kafka-features upgrade --feature share.version=1}.</li>
 * </ul>
 * Kafka 4's KRaft-only features ({@code metadata.version}, {@code kraft.version}) have no meaning
 * for a ZooKeeper cluster and are not advertised, as Kafka 3.9's ZooKeeper brokers finalized none.
 *
 * <p>Immutable; thread-safe.
 */
public final class BrokerFeatures {

    /** KIP-890's feature. */
    public static final String TRANSACTION_VERSION = "transaction.version";
    /** KIP-848's feature. */
    public static final String GROUP_VERSION = "group.version";
    /** KIP-932's feature: level 1 serves share groups (ShareGroupHeartbeat, ShareFetch, ShareAcknowledge, ...). */
    public static final String SHARE_VERSION = "share.version";

    /** What this broker version supports. */
    public static final BrokerFeatures CURRENT = new BrokerFeatures(Map.of(
        TRANSACTION_VERSION, new SupportedVersionRange((short) 0, (short) 1),
        GROUP_VERSION, new SupportedVersionRange((short) 0, (short) 1),
        SHARE_VERSION, new SupportedVersionRange((short) 0, (short) 1)));

    /** The levels {@code /feature} is created with for a new cluster. */
    public static final Map<String, Short> NEW_CLUSTER_LEVELS = Map.of(TRANSACTION_VERSION, (short) 1,
        GROUP_VERSION, (short) 1, SHARE_VERSION, (short) 1);

    private final Map<String, SupportedVersionRange> supported;

    /** @param supported feature name to the levels supported */
    public BrokerFeatures(Map<String, SupportedVersionRange> supported) {
        this.supported = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(supported));
    }

    /** Feature name to supported levels, by name. */
    public Map<String, SupportedVersionRange> supported() {
        return supported;
    }

    /**
     * Why {@code level} of {@code feature} cannot be finalized on {@code who}, in Kafka's words
     * ({@code QuorumFeatures.reasonNotSupported}), or null when it can. Level 0 of any feature
     * is always supported.
     */
    public String reasonNotSupported(String feature, short level, String who) {
        SupportedVersionRange range = supported.get(feature);
        short min = range == null ? 0 : range.min();
        short max = range == null ? 0 : range.max();
        if (level == 0 || (level >= min && level <= max)) {
            return null;
        }
        if (max == 0) {
            return who + " does not support this feature.";
        }
        return who + " only supports versions " + (min == max ? String.valueOf(min) : min + "-" + max);
    }
}
