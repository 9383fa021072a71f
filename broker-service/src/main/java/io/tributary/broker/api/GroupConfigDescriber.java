package io.tributary.broker.api;

import io.tributary.broker.group.GroupConfigDefaults;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResourceResult;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsSynonym;
import org.apache.kafka.common.requests.DescribeConfigsResponse.ConfigSource;
import org.apache.kafka.coordinator.group.GroupConfig;

/**
 * Describes a group's configs as Kafka's {@code ConfigHelper} does for GROUP resources: every
 * public key of {@link GroupConfig} with the value in effect (the group's override, else the broker's
 * synonym, else Kafka's default), its source (GROUP_CONFIG, STATIC_BROKER_CONFIG or DEFAULT_CONFIG)
 * and synonyms in that order. Internal keys are left out, as Kafka leaves them out. Thread-safe.
 */
final class GroupConfigDescriber {

    private GroupConfigDescriber() {
    }

    /**
     * @param overrides the group's own configs, as stored
     * @param keys      names to include, or null for all
     */
    static List<DescribeConfigsResourceResult> describe(GroupConfigDefaults defaults, Map<String, String> overrides,
                                                        Collection<String> keys, boolean includeSynonyms,
                                                        boolean includeDocumentation) {
        GroupConfig config = defaults.groupConfig(overrides);
        List<DescribeConfigsResourceResult> out = new ArrayList<>();
        for (ConfigDef.ConfigKey key : GroupConfig.CONFIG_DEF.configKeys().values()) {
            if (GroupConfig.isInternal(key.name) || (keys != null && !keys.contains(key.name))) {
                continue;
            }
            String value = ConfigDef.convertToString(config.values().get(key.name), key.type);
            List<DescribeConfigsSynonym> synonyms = new ArrayList<>();
            if (overrides.containsKey(key.name)) {
                synonyms.add(new DescribeConfigsSynonym().setName(key.name).setValue(value)
                    .setSource(ConfigSource.GROUP_CONFIG.id()));
            }
            defaults.brokerSynonym(key.name).ifPresent(synonym -> synonyms.add(new DescribeConfigsSynonym()
                .setName(synonym.getKey()).setValue(synonym.getValue())
                .setSource((defaults.isSet(synonym.getKey()) ? ConfigSource.STATIC_BROKER_CONFIG
                    : ConfigSource.DEFAULT_CONFIG).id())));
            ConfigSource source = synonyms.isEmpty() ? ConfigSource.DEFAULT_CONFIG
                : ConfigSource.forId(synonyms.get(0).source());
            DescribeConfigsResourceResult result = new DescribeConfigsResourceResult()
                .setName(key.name)
                .setValue(value)
                .setReadOnly(false)
                .setConfigSource(source.id())
                .setIsSensitive(false)
                .setConfigType(ConfigDescriber.configType(key.type).id())
                .setDocumentation(includeDocumentation ? key.documentation : null);
            if (includeSynonyms) {
                result.setSynonyms(synonyms);
            }
            out.add(result);
        }
        return out;
    }
}
