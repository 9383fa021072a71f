package io.tributary.broker.group;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.coordinator.group.GroupConfig;
import org.apache.kafka.coordinator.group.GroupCoordinatorConfig;
import org.apache.kafka.coordinator.group.modern.share.ShareGroupConfig;

/**
 * The broker's {@code group.*} settings under Kafka's names, as Kafka's {@link GroupCoordinatorConfig}
 * and {@link ShareGroupConfig}: the values a group without an override of its own follows, and
 * the bounds {@link GroupConfig#validate} holds overrides to (for example
 * {@code consumer.session.timeout.ms} within {@code group.consumer.min.session.timeout.ms} and
 * {@code group.consumer.max.session.timeout.ms}).
 *
 * <p>Bounds this broker has no setting for take Kafka's defaults, widened to include the broker's
 * own value where it lies outside them (a broker set to 10 s consumer sessions accepts a group
 * asking for 10 s). Immutable; thread-safe.
 */
public final class GroupConfigDefaults {

    private static final ConfigDef DEFINITIONS = definitions();

    private final AbstractConfig brokerConfig;
    private final Map<String, String> given;
    private final GroupCoordinatorConfig coordinatorConfig;
    private final ShareGroupConfig shareConfig;

    /**
     * @param brokerSettings the broker's settings under Kafka's names ({@code group.consumer.session.timeout.ms}
     *                       and the like); those left out take Kafka's defaults
     * @throws org.apache.kafka.common.config.ConfigException a value Kafka's definitions refuse
     */
    public GroupConfigDefaults(Map<String, ?> brokerSettings) {
        Map<String, Object> settings = new HashMap<>(brokerSettings);
        widen(settings, GroupCoordinatorConfig.CONSUMER_GROUP_SESSION_TIMEOUT_MS_CONFIG,
            GroupCoordinatorConfig.CONSUMER_GROUP_MIN_SESSION_TIMEOUT_MS_CONFIG,
            GroupCoordinatorConfig.CONSUMER_GROUP_MAX_SESSION_TIMEOUT_MS_CONFIG);
        widen(settings, GroupCoordinatorConfig.CONSUMER_GROUP_HEARTBEAT_INTERVAL_MS_CONFIG,
            GroupCoordinatorConfig.CONSUMER_GROUP_MIN_HEARTBEAT_INTERVAL_MS_CONFIG,
            GroupCoordinatorConfig.CONSUMER_GROUP_MAX_HEARTBEAT_INTERVAL_MS_CONFIG);
        widen(settings, GroupCoordinatorConfig.SHARE_GROUP_SESSION_TIMEOUT_MS_CONFIG,
            GroupCoordinatorConfig.SHARE_GROUP_MIN_SESSION_TIMEOUT_MS_CONFIG,
            GroupCoordinatorConfig.SHARE_GROUP_MAX_SESSION_TIMEOUT_MS_CONFIG);
        widen(settings, GroupCoordinatorConfig.SHARE_GROUP_HEARTBEAT_INTERVAL_MS_CONFIG,
            GroupCoordinatorConfig.SHARE_GROUP_MIN_HEARTBEAT_INTERVAL_MS_CONFIG,
            GroupCoordinatorConfig.SHARE_GROUP_MAX_HEARTBEAT_INTERVAL_MS_CONFIG);
        widen(settings, ShareGroupConfig.SHARE_GROUP_RECORD_LOCK_DURATION_MS_CONFIG,
            ShareGroupConfig.SHARE_GROUP_MIN_RECORD_LOCK_DURATION_MS_CONFIG,
            ShareGroupConfig.SHARE_GROUP_MAX_RECORD_LOCK_DURATION_MS_CONFIG);
        widen(settings, ShareGroupConfig.SHARE_GROUP_DELIVERY_COUNT_LIMIT_CONFIG,
            ShareGroupConfig.SHARE_GROUP_MIN_DELIVERY_COUNT_LIMIT_CONFIG,
            ShareGroupConfig.SHARE_GROUP_MAX_DELIVERY_COUNT_LIMIT_CONFIG);
        this.brokerConfig = new AbstractConfig(DEFINITIONS, settings, false);
        this.given = new HashMap<>();
        brokerSettings.forEach((name, value) -> {
            ConfigDef.ConfigKey key = DEFINITIONS.configKeys().get(name);
            if (key == null || !String.valueOf(value).equals(ConfigDef.convertToString(key.defaultValue, key.type))) {
                given.put(name, String.valueOf(value));
            }
        });
        this.coordinatorConfig = new GroupCoordinatorConfig(brokerConfig);
        this.shareConfig = new ShareGroupConfig(brokerConfig);
    }

    /** Kafka's defaults for every setting. */
    public static GroupConfigDefaults kafkaDefaults() {
        return new GroupConfigDefaults(Map.of());
    }

    GroupCoordinatorConfig coordinatorConfig() {
        return coordinatorConfig;
    }

    ShareGroupConfig shareConfig() {
        return shareConfig;
    }

    /**
     * The broker setting a group config falls back to, with its value: for example
     * {@code group.consumer.session.timeout.ms=45000} for {@code consumer.session.timeout.ms};
     * empty for a group config with no broker synonym ({@code share.auto.offset.reset}).
     */
    public Optional<Map.Entry<String, String>> brokerSynonym(String groupConfigName) {
        return GroupConfig.brokerSynonym(groupConfigName)
            .filter(DEFINITIONS.configKeys()::containsKey)
            .map(name -> Map.entry(name, ConfigDef.convertToString(brokerConfig.values().get(name),
                DEFINITIONS.configKeys().get(name).type)));
    }

    /** Whether the broker's {@code brokerSettingName} differs from Kafka's default (a static broker setting). */
    public boolean isSet(String brokerSettingName) {
        return given.containsKey(brokerSettingName);
    }

    /** A group's config from its overrides, every other key at the broker's value or Kafka's default. */
    public GroupConfig groupConfig(Map<String, String> overrides) {
        Map<String, Object> defaults = new HashMap<>();
        for (String name : GroupConfig.configNames()) {
            brokerSynonym(name).ifPresent(synonym -> defaults.put(name, synonym.getValue()));
        }
        java.util.Properties props = new java.util.Properties();
        props.putAll(overrides);
        return GroupConfig.fromProps(defaults, props);
    }

    /** Validates a group's overrides as Kafka's controller does ({@link GroupConfig#validate}). */
    void validate(Map<String, String> overrides) {
        GroupConfig.validate(overrides, coordinatorConfig, shareConfig);
    }

    private static void widen(Map<String, Object> settings, String value, String min, String max) {
        Object given = settings.get(value);
        if (given == null) {
            return;
        }
        int v = Integer.parseInt(given.toString().trim());
        int low = settings.containsKey(min) ? Integer.parseInt(settings.get(min).toString().trim())
            : (Integer) DEFINITIONS.configKeys().get(min).defaultValue;
        int high = settings.containsKey(max) ? Integer.parseInt(settings.get(max).toString().trim())
            : (Integer) DEFINITIONS.configKeys().get(max).defaultValue;
        settings.put(min, Math.min(low, v));
        settings.put(max, Math.max(high, v));
    }

    private static ConfigDef definitions() {
        ConfigDef definitions = new ConfigDef(GroupCoordinatorConfig.CONFIG_DEF);
        ShareGroupConfig.CONFIG_DEF.configKeys().values().stream()
            .filter(key -> !definitions.configKeys().containsKey(key.name))
            .forEach(definitions::define);
        return definitions;
    }
}
