package io.tributary.broker.cluster;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;

/**
 * The operations of IncrementalAlterConfigs (KIP-339) on the stored overrides of one resource
 * whose keys a {@link ConfigDef} defines: a topic ({@code LogConfig}) or a group (Kafka's
 * {@code GroupConfig}, KIP-848 and KIP-932). Values are checked afterwards by the resource's own
 * validation; this class checks only the shape of the request. Stateless.
 */
public final class ConfigChanges {

    private ConfigChanges() {
    }

    /**
     * Applies SET, DELETE, and APPEND / SUBTRACT (list-valued keys only) to {@code current}.
     *
     * @param kind the resource kind in Kafka's messages, {@code topic} or {@code group}
     * @return the overrides after the changes, in a new map
     * @throws InvalidRequestException       a key twice in one request, an unknown operation
     * @throws InvalidConfigurationException a key {@code definitions} does not define ("Unknown
     *                                       {kind} config name: x"), APPEND on a key that is not a list
     */
    public static Map<String, String> apply(Map<String, String> current, List<AdminManager.ConfigChange> changes,
                                            ConfigDef definitions, String kind) {
        Map<String, String> updated = new LinkedHashMap<>(current);
        Set<String> seen = new HashSet<>();
        for (AdminManager.ConfigChange change : changes) {
            if (!seen.add(change.name())) {
                throw new InvalidRequestException("Config " + change.name() + " appears more than once in the request");
            }
            ConfigDef.ConfigKey key = definitions.configKeys().get(change.name());
            if (key == null) {
                throw new InvalidConfigurationException("Unknown " + kind + " config name: " + change.name());
            }
            switch (change.op()) {
                case SET -> updated.put(change.name(), change.value());
                case DELETE -> updated.remove(change.name());
                case APPEND, SUBTRACT -> {
                    if (key.type != ConfigDef.Type.LIST) {
                        throw new InvalidConfigurationException("Config value append is not allowed for config key: "
                            + change.name());
                    }
                    updated.put(change.name(), change.appliedToList(updated.get(change.name()), key.defaultValue));
                }
                default -> throw new InvalidRequestException("Unknown config operation " + change.op());
            }
        }
        return updated;
    }
}
