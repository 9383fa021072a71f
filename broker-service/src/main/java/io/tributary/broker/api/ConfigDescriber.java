package io.tributary.broker.api;

import io.tributary.broker.config.BrokerConfigNames;
import io.tributary.broker.config.BrokerProperties;
import io.tributary.broker.config.BrokerSecurityProperties;
import io.tributary.broker.config.DynamicBrokerConfig;
import io.tributary.broker.config.KafkaBrokerConfigs;
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
 * value, source (topic override, this broker's dynamic config, the cluster-wide dynamic default,
 * static broker setting or default), synonyms in that precedence order (as Kafka's
 * {@code ConfigHelper}), type and documentation. Thread-safe.
 */
final class ConfigDescriber {

    private final BrokerProperties brokerProperties;
    private final DynamicBrokerConfig dynamicConfig;
    /** This broker's settings by Kafka name: its own, then the TLS and SASL ones Kafka names (no passwords). */
    private final Map<String, String> staticValues;

    ConfigDescriber(BrokerProperties brokerProperties, BrokerSecurityProperties securityProperties,
                    DynamicBrokerConfig dynamicConfig) {
        this.brokerProperties = brokerProperties;
        this.dynamicConfig = dynamicConfig;
        Map<String, String> values = new java.util.LinkedHashMap<>(BrokerConfigNames.describe(brokerProperties));
        BrokerConfigNames.describeSecurity(securityProperties).forEach(values::putIfAbsent);
        this.staticValues = java.util.Collections.unmodifiableMap(values);
    }

    /**
     * The configs of a topic with the given overrides.
     *
     * @param keys names to include, or null for all
     */
    List<DescribeConfigsResourceResult> topicConfigs(Map<String, String> overrides, Collection<String> keys,
                                                     boolean includeSynonyms, boolean includeDocumentation) {
        Map<String, Object> defaults = dynamicConfig.logConfigDefaults();
        LogConfig config = LogConfig.create(defaults, overrides);
        Map<String, String> values = config.values(defaults);
        Map<String, String> brokerValues = BrokerConfigNames.describe(brokerProperties);
        List<DescribeConfigsResourceResult> out = new ArrayList<>();
        for (ConfigDef.ConfigKey key : LogConfig.CONFIG_DEF.configKeys().values()) {
            if (keys != null && !keys.contains(key.name)) {
                continue;
            }
            List<DescribeConfigsSynonym> synonyms = new ArrayList<>();
            if (overrides.containsKey(key.name)) {
                synonyms.add(new DescribeConfigsSynonym().setName(key.name)
                    .setValue(overrides.get(key.name)).setSource(ConfigSource.TOPIC_CONFIG.id()));
            }
            List<String> brokerSynonyms = DynamicBrokerConfig.brokerSynonyms(key.name);
            addDynamic(synonyms, brokerSynonyms, DynamicBrokerConfig.Level.PER_BROKER);
            addDynamic(synonyms, brokerSynonyms, DynamicBrokerConfig.Level.CLUSTER_DEFAULT);
            String synonym = LogConfig.brokerSynonym(key.name);
            if (synonym != null && isStaticBrokerValue(synonym, brokerValues)) {
                synonyms.add(new DescribeConfigsSynonym().setName(synonym)
                    .setValue(brokerValues.get(synonym)).setSource(ConfigSource.STATIC_BROKER_CONFIG.id()));
            }
            if (synonym != null) {
                synonyms.add(new DescribeConfigsSynonym().setName(synonym)
                    .setValue(ConfigDef.convertToString(key.defaultValue, key.type))
                    .setSource(ConfigSource.DEFAULT_CONFIG.id()));
            }
            ConfigSource source = synonyms.isEmpty() ? ConfigSource.DEFAULT_CONFIG
                : ConfigSource.forId(synonyms.get(0).source());
            DescribeConfigsResourceResult result = new DescribeConfigsResourceResult()
                .setName(key.name)
                .setValue(values.get(key.name))
                .setReadOnly(false)
                .setConfigSource(source.id())
                .setIsSensitive(false)
                .setConfigType(configType(key.type).id())
                .setDocumentation(includeDocumentation ? key.documentation : null);
            if (includeSynonyms) {
                result.setSynonyms(synonyms);
            }
            out.add(result);
        }
        return out;
    }

    private void addDynamic(List<DescribeConfigsSynonym> synonyms, List<String> brokerSynonyms,
                            DynamicBrokerConfig.Level level) {
        Map<String, String> set = level == DynamicBrokerConfig.Level.PER_BROKER ? dynamicConfig.perBrokerConfigs()
            : dynamicConfig.clusterDefaultConfigs();
        for (String name : brokerSynonyms) {
            if (set.containsKey(name)) {
                synonyms.add(new DescribeConfigsSynonym().setName(name).setValue(set.get(name))
                    .setSource(sourceOf(level).id()));
            }
        }
    }

    private static ConfigSource sourceOf(DynamicBrokerConfig.Level level) {
        return level == DynamicBrokerConfig.Level.PER_BROKER ? ConfigSource.DYNAMIC_BROKER_CONFIG
            : ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG;
    }

    /**
     * The broker's settings by Kafka name: for this broker, every setting with its value in effect
     * (a dynamic one, which can change, from this broker's dynamic configs, the cluster-wide ones or
     * the static setting; the others read-only), and then every other setting Kafka 3.9 in ZooKeeper
     * mode lists ({@link KafkaBrokerConfigs}) with Kafka's default, read-only, passwords null and
     * marked sensitive; for the cluster-wide default resource (the empty name), only the settings the
     * cluster-wide dynamic configs set, as Kafka answers it.
     */
    List<DescribeConfigsResourceResult> brokerConfigs(boolean defaultResource, Collection<String> keys,
                                                      boolean includeSynonyms, boolean includeDocumentation) {
        // One view of each level for the whole answer: a change may land while it is built.
        Map<String, String> perBroker = defaultResource ? Map.of() : dynamicConfig.perBrokerConfigs();
        Map<String, String> clusterDefault = dynamicConfig.clusterDefaultConfigs();
        java.util.Set<String> names = new java.util.LinkedHashSet<>();
        if (!defaultResource) {
            names.addAll(staticValues.keySet());
            names.addAll(KafkaBrokerConfigs.all().keySet());
        }
        names.addAll(perBroker.keySet());
        names.addAll(clusterDefault.keySet());
        List<DescribeConfigsResourceResult> out = new ArrayList<>();
        for (String name : names) {
            if (keys != null && !keys.contains(name)) {
                continue;
            }
            List<DescribeConfigsSynonym> synonyms = new ArrayList<>();
            boolean dynamic = DynamicBrokerConfig.isDynamic(name);
            if (perBroker.containsKey(name)) {
                synonyms.add(new DescribeConfigsSynonym().setName(name).setValue(perBroker.get(name))
                    .setSource(ConfigSource.DYNAMIC_BROKER_CONFIG.id()));
            }
            if (clusterDefault.containsKey(name)) {
                synonyms.add(new DescribeConfigsSynonym().setName(name).setValue(clusterDefault.get(name))
                    .setSource(ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG.id()));
            }
            java.util.Optional<KafkaBrokerConfigs.Key> kafkaKey = KafkaBrokerConfigs.key(name);
            boolean own = staticValues.containsKey(name);
            if (!defaultResource && own) {
                String value = staticValues.get(name);
                boolean isDefault = java.util.Objects.equals(value, BrokerConfigNames.defaultValue(name));
                synonyms.add(new DescribeConfigsSynonym().setName(name).setValue(value)
                    .setSource((isDefault ? ConfigSource.DEFAULT_CONFIG : ConfigSource.STATIC_BROKER_CONFIG).id()));
            } else if (!defaultResource && kafkaKey.isPresent()) {
                synonyms.add(new DescribeConfigsSynonym().setName(name).setValue(kafkaKey.get().defaultValue())
                    .setSource(ConfigSource.DEFAULT_CONFIG.id()));
            }
            boolean sensitive = kafkaKey.map(KafkaBrokerConfigs.Key::sensitive).orElse(false)
                || DynamicBrokerConfig.isPassword(name);
            if (sensitive) {
                synonyms.replaceAll(s -> s.duplicate().setValue(null));
            }
            DescribeConfigsSynonym effective = synonyms.get(0);
            DescribeConfigsResourceResult result = new DescribeConfigsResourceResult()
                .setName(name).setValue(effective.value()).setReadOnly(!dynamic)
                .setConfigSource(effective.source())
                .setIsSensitive(sensitive)
                .setConfigType(kafkaKey.map(k -> configType(k.type())).orElse(
                    DynamicBrokerConfig.isPassword(name) ? ConfigType.PASSWORD : ConfigType.STRING).id())
                .setDocumentation(includeDocumentation ? documentation(name, own, dynamic) : null);
            if (includeSynonyms) {
                result.setSynonyms(synonyms);
            }
            out.add(result);
        }
        return out;
    }

    private static String documentation(String name, boolean own, boolean dynamic) {
        if (!own) {
            return "Kafka's setting, which Tributary does not take: Kafka 3.9's default is shown";
        }
        return "Set as broker." + name.replace('.', '-') + " in the broker's configuration" + (dynamic
            ? ", or changed while the brokers run (kafka-configs --entity-type brokers)" : "");
    }

    private static boolean isStaticBrokerValue(String brokerSetting, Map<String, String> brokerValues) {
        return brokerValues.containsKey(brokerSetting)
            && !java.util.Objects.equals(brokerValues.get(brokerSetting), BrokerConfigNames.defaultValue(brokerSetting));
    }

    static ConfigType configType(ConfigDef.Type type) {
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
