package io.tributary.broker.cluster;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.FeatureUpdate;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiError;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finalizes feature levels (KIP-584) in {@code /feature}: creates the node for a new cluster and
 * carries out UpdateFeatures. Validation follows Kafka 4's controller
 * ({@code FeatureControlManager.updateFeature}): every update of a request is checked against
 * this broker's supported levels and every live broker's registration before any is written, and
 * the request is applied all at once or not at all. Errors are INVALID_UPDATE_VERSION with
 * Kafka's message ("Invalid update version 2 for feature transaction.version. Broker 1 only
 * supports versions 0-1").
 *
 * <p>Any broker may carry out an update: the node's version makes the write conditional, and a
 * concurrent update is read again and validated again. Blocking (ZooKeeper); call it from a
 * request handler thread. Thread-safe.
 */
public final class FeatureManager {

    private static final Logger log = LoggerFactory.getLogger(FeatureManager.class);
    private static final int MAX_WRITE_ATTEMPTS = 20;

    private final KafkaZkClient zkClient;
    private final MetadataCache metadataCache;
    private final int brokerId;
    private final BrokerFeatures local;

    /**
     * One feature's requested change, as UpdateFeatures carries it (not validated yet: a negative
     * level or level 0 with {@code UPGRADE} may arrive from the wire).
     *
     * @param level the new finalized level; 0 removes the feature
     * @param type  UPGRADE, SAFE_DOWNGRADE or UNSAFE_DOWNGRADE (v0's AllowDowngrade is SAFE_DOWNGRADE)
     */
    public record Update(short level, FeatureUpdate.UpgradeType type) {
    }

    public FeatureManager(KafkaZkClient zkClient, MetadataCache metadataCache, int brokerId, BrokerFeatures local) {
        this.zkClient = zkClient;
        this.metadataCache = metadataCache;
        this.brokerId = brokerId;
        this.local = local;
    }

    /**
     * Creates {@code /feature} with {@link BrokerFeatures#NEW_CLUSTER_LEVELS} unless it exists, as
     * Kafka's ZooKeeper controller enabled feature versioning when it first became active.
     *
     * @throws ZooKeeperClientException when ZooKeeper fails
     */
    public void ensureCreated() {
        KafkaZkClient.run(() -> {
            try {
                zkClient.curator().create().forPath(FeatureZNode.PATH, FeatureZNode.encode(BrokerFeatures.NEW_CLUSTER_LEVELS));
                log.info("Finalized the features of a new cluster: {}", BrokerFeatures.NEW_CLUSTER_LEVELS);
            } catch (KeeperException.NodeExistsException e) {
                // finalized before
            }
            return null;
        }, "create " + FeatureZNode.PATH);
    }

    /**
     * Validates and, unless {@code validateOnly}, writes feature updates.
     *
     * @param updates feature name to its new level and upgrade type; level 0 removes the feature
     * @return NONE, or INVALID_UPDATE_VERSION naming the first update that cannot be applied
     * @throws ZooKeeperClientException when ZooKeeper fails or the node keeps changing under us
     */
    public ApiError update(Map<String, Update> updates, boolean validateOnly) {
        if (updates.isEmpty()) {
            return ApiError.NONE; // nothing to change: the epoch stays
        }
        for (int attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
            Optional<KafkaZkClient.Versioned> node = zkClient.getDataAndVersion(FeatureZNode.PATH);
            FinalizedFeatures current = node.map(n -> FeatureZNode.decode(n.data(), n.version()))
                .orElse(FinalizedFeatures.NONE);
            Map<String, Short> next = new LinkedHashMap<>(current.levels());
            for (Map.Entry<String, Update> e : updates.entrySet()) {
                ApiError error = validate(e.getKey(), e.getValue(), current.level(e.getKey()));
                if (error != null) {
                    log.warn(error.message());
                    return error;
                }
                next.put(e.getKey(), e.getValue().level());
            }
            if (validateOnly) {
                return ApiError.NONE;
            }
            byte[] data = FeatureZNode.encode(next);
            boolean written = KafkaZkClient.run(() -> {
                try {
                    if (node.isPresent()) {
                        zkClient.curator().setData().withVersion(node.get().version()).forPath(FeatureZNode.PATH, data);
                    } else {
                        zkClient.curator().create().forPath(FeatureZNode.PATH, data);
                    }
                    return true;
                } catch (KeeperException.BadVersionException | KeeperException.NodeExistsException
                         | KeeperException.NoNodeException e) {
                    return false; // changed meanwhile: read and validate again
                }
            }, "write " + FeatureZNode.PATH);
            if (written) {
                log.info("Finalized features changed from {} to {}", current.levels(), new FinalizedFeatures(next, -1).levels());
                return ApiError.NONE;
            }
        }
        throw new ZooKeeperClientException("Could not write " + FeatureZNode.PATH + ": changed concurrently "
            + MAX_WRITE_ATTEMPTS + " times in a row");
    }

    private ApiError validate(String feature, Update update, short currentLevel) {
        short level = update.level();
        FeatureUpdate.UpgradeType type = update.type();
        if (type == FeatureUpdate.UpgradeType.UNKNOWN) {
            return invalid(feature, level, "The controller does not support the given upgrade type.");
        }
        if (level < 0) {
            return invalid(feature, level, "A feature version cannot be less than 0.");
        }
        String reason = local.reasonNotSupported(feature, level, "Local broker " + brokerId);
        for (BrokerInfo broker : metadataCache.aliveBrokers()) {
            if (reason == null && broker.id() != brokerId) {
                reason = broker.features().reasonNotSupported(feature, level, "Broker " + broker.id());
            }
        }
        if (reason != null) {
            return invalid(feature, level, reason);
        }
        if (level < currentLevel && type == FeatureUpdate.UpgradeType.UPGRADE) {
            return invalid(feature, level, "Can't downgrade the version of this feature without setting the "
                + "upgrade type to either safe or unsafe downgrade.");
        }
        if (level > currentLevel && type != FeatureUpdate.UpgradeType.UPGRADE) {
            return invalid(feature, level, "Can't downgrade to a newer version.");
        }
        return null;
    }

    private static ApiError invalid(String feature, short level, String reason) {
        return new ApiError(Errors.INVALID_UPDATE_VERSION,
            String.format("Invalid update version %d for feature %s. %s", level, feature, reason));
    }
}
