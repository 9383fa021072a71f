package io.tributary.broker.api;

import io.tributary.broker.config.BrokerConfigNames;
import io.tributary.broker.config.BrokerProperties;
import io.tributary.broker.config.LogConfig;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResourceResult;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsSynonym;
import org.apache.kafka.common.requests.DescribeConfigsResponse.ConfigSource;
import org.apache.kafka.common.requests.DescribeConfigsResponse.ConfigType;

/**
 * Describes topic and broker configs as DescribeConfigs and CreateTopics (v5+) report them:
 * value, source (topic override, static broker setting or default), synonyms in precedence
 * order, type and documentation. Thread-safe.
 */
final class ConfigDescriber {

    private final BrokerProperties brokerProperties;
    private final Map<String, Object> logConfigDefaults;

    ConfigDescriber(BrokerProperties brokerProperties, Map<String, Object> logConfigDefaults) {
        this.brokerProperties = brokerProperties;
        this.logConfigDefaults = logConfigDefaults;
    }

    /**
     * The configs of a topic with the given overrides.
     *
     * @param keys names to include, or null for all
     */
    List<DescribeConfigsResourceResult> topicConfigs(Map<String, String> overrides, Collection<String> keys,
                                                     boolean includeSynonyms, boolean includeDocumentation) {
        LogConfig config = LogConfig.create(logConfigDefaults, overrides);
        Map<String, String> values = config.values(logConfigDefaults);
        Map<String, String> brokerValues = BrokerConfigNames.describe(brokerProperties);
        List<DescribeConfigsResourceResult> out = new ArrayList<>();
        for (ConfigDef.ConfigKey key : LogConfig.CONFIG_DEF.configKeys().values()) {
            if (keys != null && !keys.contains(key.name)) {
                continue;
            }
            String synonym = LogConfig.brokerSynonym(key.name);
            boolean overridden = overrides.containsKey(key.name);
            ConfigSource source = overridden ? ConfigSource.TOPIC_CONFIG
                : synonym != null && isStaticBrokerValue(synonym, brokerValues) ? ConfigSource.STATIC_BROKER_CONFIG
                : ConfigSource.DEFAULT_CONFIG;
            DescribeConfigsResourceResult result = new DescribeConfigsResourceResult()
                .setName(key.name)
                .setValue(values.get(key.name))
                .setReadOnly(false)
                .setConfigSource(source.id())
                .setIsSensitive(false)
                .setConfigType(configType(key.type).id())
                .setDocumentation(includeDocumentation ? key.documentation : null);
            if (includeSynonyms) {
                if (overridden) {
                    result.synonyms().add(new DescribeConfigsSynonym().setName(key.name)
                        .setValue(overrides.get(key.name)).setSource(ConfigSource.TOPIC_CONFIG.id()));
                }
                if (synonym != null && isStaticBrokerValue(synonym, brokerValues)) {
                    result.synonyms().add(new DescribeConfigsSynonym().setName(synonym)
                        .setValue(brokerValues.get(synonym)).setSource(ConfigSource.STATIC_BROKER_CONFIG.id()));
                }
                if (synonym != null) {
                    result.synonyms().add(new DescribeConfigsSynonym().setName(synonym)
                        .setValue(ConfigDef.convertToString(key.defaultValue, key.type))
                        .setSource(ConfigSource.DEFAULT_CONFIG.id()));
                }
            }
            out.add(result);
        }
        return out;
    }

    /** The broker's static settings, by Kafka name; read-only (no dynamic broker configs). */
    List<DescribeConfigsResourceResult> brokerConfigs(Collection<String> keys, boolean includeSynonyms,
                                                      boolean includeDocumentation) {
        List<DescribeConfigsResourceResult> out = new ArrayList<>();
        for (Map.Entry<String, String> e : BrokerConfigNames.describe(brokerProperties).entrySet()) {
            if (keys != null && !keys.contains(e.getKey())) {
                continue;
            }
            boolean isDefault = java.util.Objects.equals(e.getValue(), BrokerConfigNames.defaultValue(e.getKey()));
            ConfigSource source = isDefault ? ConfigSource.DEFAULT_CONFIG : ConfigSource.STATIC_BROKER_CONFIG;
            DescribeConfigsResourceResult result = new DescribeConfigsResourceResult()
                .setName(e.getKey()).setValue(e.getValue()).setReadOnly(true).setConfigSource(source.id())
                .setIsSensitive(false).setConfigType(ConfigType.STRING.id())
                .setDocumentation(includeDocumentation ? "Set as broker." + e.getKey().replace('.', '-')
                    + " in the broker's configuration" : null);
            if (includeSynonyms) {
                result.synonyms().add(new DescribeConfigsSynonym().setName(e.getKey()).setValue(e.getValue())
                    .setSource(source.id()));
            }
            out.add(result);
        }
        return out;
    }

    private static boolean isStaticBrokerValue(String brokerSetting, Map<String, String> brokerValues) {
        return brokerValues.containsKey(brokerSetting)
            && !java.util.Objects.equals(brokerValues.get(brokerSetting), BrokerConfigNames.defaultValue(brokerSetting));
    }

    private static ConfigType configType(ConfigDef.Type type) {
        return switch (type) {
            case BOOLEAN -> ConfigType.BOOLEAN;
            case STRING -> ConfigType.STRING;
            case INT -> ConfigType.INT;
            case SHORT -> ConfigType.SHORT;
            case LONG -> ConfigType.LONG;
            case DOUBLE -> ConfigType.DOUBLE;
            case LIST -> ConfigType.LIST;
            case CLASS -> ConfigType.CLASS;
            case PASSWORD -> ConfigType.PASSWORD;
        };
    }
}
