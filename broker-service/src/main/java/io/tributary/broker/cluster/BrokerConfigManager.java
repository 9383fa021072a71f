package io.tributary.broker.cluster;

import io.tributary.broker.config.DynamicBrokerConfig;
import io.tributary.broker.config.LogConfig;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiError;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Changes of dynamic broker configs (IncrementalAlterConfigs and AlterConfigs on BROKER resources),
 * as Kafka's ZooKeeper-mode {@code ZkAdminManager.alterBrokerConfigs}: the resource names this
 * broker (its id) or every broker (the empty name, stored as {@code <default>}); the new set is
 * validated ({@link DynamicBrokerConfig#validate}), its passwords encrypted with
 * {@code password.encoder.secret}, before it is written to
 * {@code /config/brokers/{id|<default>}} with its change notification ({@link EntityConfigs});
 * every broker's ZooKeeper watch then applies it ({@link DynamicBrokerConfig#update}).
 *
 * <p>Blocking (ZooKeeper); thread-safe.
 */
public final class BrokerConfigManager {

    private static final Logger log = LoggerFactory.getLogger(BrokerConfigManager.class);

    private final EntityConfigs brokers;
    private final DynamicBrokerConfig dynamic;
    private final int brokerId;

    public BrokerConfigManager(KafkaZkClient zkClient, DynamicBrokerConfig dynamic, int brokerId) {
        this.brokers = new EntityConfigs(zkClient, "brokers");
        this.dynamic = dynamic;
        this.brokerId = brokerId;
    }

    /** {@code /config/brokers}, which the metadata cache watches. */
    public static String root() {
        return "/config/brokers";
    }

    /**
     * Reads the stored dynamic configs into {@link DynamicBrokerConfig} before the logs load, so a
     * restarted broker applies them from its first segment on (as Kafka's
     * {@code DynamicBrokerConfig.initialize}).
     */
    public void load() {
        brokers.ensurePaths();
        for (String entity : List.of(DynamicBrokerConfig.DEFAULT_ENTITY, Integer.toString(brokerId))) {
            brokers.read(entity).ifPresent(stored -> dynamic.update(entity, stored.config()));
        }
    }

    /**
     * IncrementalAlterConfigs (KIP-339) of a broker resource: SET, DELETE, and APPEND / SUBTRACT for
     * a list-valued setting ({@code log.cleanup.policy}).
     *
     * @param resourceName this broker's id, or empty for the cluster-wide default
     * @return NONE; INVALID_REQUEST (another broker's id, a key twice); INVALID_CONFIG (a static key,
     *         a bad value)
     */
    public ApiError alter(String resourceName, List<AdminManager.ConfigChange> changes, boolean validateOnly) {
        return update(resourceName, current -> applyChanges(current, changes), validateOnly);
    }

    /** AlterConfigs of a broker resource: the given set replaces every dynamic setting of the resource. */
    public ApiError replace(String resourceName, Map<String, String> configs, boolean validateOnly) {
        return update(resourceName, current -> new LinkedHashMap<>(configs), validateOnly);
    }

    private ApiError update(String resourceName, UnaryOperator<Map<String, String>> change, boolean validateOnly) {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.BROKER, resourceName);
        if (!resourceName.isEmpty() && !resourceName.equals(Integer.toString(brokerId))) {
            return new ApiError(Errors.INVALID_REQUEST, "Unexpected broker id, expected " + brokerId
                + ", but received " + resourceName);
        }
        String entity = resourceName.isEmpty() ? DynamicBrokerConfig.DEFAULT_ENTITY : resourceName;
        UnaryOperator<Map<String, String>> validated = current -> {
            Map<String, String> next = change.apply(dynamic.decodeStored(current));
            dynamic.validate(entity, next);
            return dynamic.encodeForStorage(entity, next);
        };
        try {
            if (validateOnly) {
                validated.apply(new LinkedHashMap<>(brokers.read(entity).map(EntityConfigs.EntityConfig::config)
                    .orElse(Map.of())));
            } else {
                Map<String, String> written = new java.util.TreeMap<>(brokers.change(entity, validated).config());
                written.replaceAll((name, value) -> DynamicBrokerConfig.isPassword(name) ? "[hidden]" : value);
                log.info("Updating {} with new configuration: {}", resourceName.isEmpty() ? "brokers"
                    : "broker " + resourceName, written);
            }
            return ApiError.NONE;
        } catch (InvalidConfigurationException e) {
            return new ApiError(Errors.INVALID_CONFIG, "Invalid config value for resource " + resource + ": "
                + e.getMessage());
        } catch (ApiException e) {
            return ApiError.fromThrowable(e);
        }
    }

    private static Map<String, String> applyChanges(Map<String, String> current, List<AdminManager.ConfigChange> changes) {
        Map<String, String> updated = new LinkedHashMap<>(current);
        Set<String> seen = new HashSet<>();
        for (AdminManager.ConfigChange change : changes) {
            if (!seen.add(change.name())) {
                throw new InvalidRequestException("Config " + change.name() + " appears more than once in the request");
            }
            switch (change.op()) {
                case SET -> updated.put(change.name(), change.value());
                case DELETE -> updated.remove(change.name());
                case APPEND, SUBTRACT -> updated.put(change.name(), listChange(change, updated.get(change.name())));
                default -> throw new InvalidRequestException("Unknown config operation " + change.op());
            }
        }
        return updated;
    }

    private static String listChange(AdminManager.ConfigChange change, String existing) {
        ConfigDef.ConfigKey key = DynamicBrokerConfig.topicConfigOf(change.name())
            .map(topicConfig -> LogConfig.CONFIG_DEF.configKeys().get(topicConfig)).orElse(null);
        if (key == null || key.type != ConfigDef.Type.LIST) {
            throw new InvalidConfigurationException("Config value append is not allowed for config key: " + change.name());
        }
        return change.appliedToList(existing, null);
    }
}
