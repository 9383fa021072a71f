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
     * The configs of a topic with the given overrides: a topic override first, then the chain of the
     * broker setting that gives the topic config its default ({@link #chain}).
     *
     * @param keys names to include, or null for all
     */
    List<DescribeConfigsResourceResult> topicConfigs(Map<String, String> overrides, Collection<String> keys,
                                                     boolean includeSynonyms, boolean includeDocumentation) {
        Map<String, Object> defaults = dynamicConfig.logConfigDefaults();
        LogConfig config = LogConfig.create(defaults, overrides);
        Map<String, String> values = config.values(defaults);
        Map<String, String> perBroker = dynamicConfig.perBrokerConfigs();
        Map<String, String> clusterDefault = dynamicConfig.clusterDefaultConfigs();
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
            String brokerSetting = LogConfig.brokerSynonym(key.name);
            if (brokerSetting != null) {
                synonyms.addAll(chain(brokerSetting, perBroker, clusterDefault, false));
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

    /**
     * The synonyms of broker setting {@code name} as Kafka's {@code ConfigHelper.configSynonyms} lists
     * them: level by level (this broker's dynamic configs, the cluster-wide ones, the static setting when
     * it differs from its default, the default), at each level every name of
     * {@link DynamicBrokerConfig#brokerConfigSynonyms} that the level sets, finest unit first; then the
     * entries before the first one named {@code name} are dropped. So {@code log.retention.ms} that is set
     * nowhere has no synonyms (its default is Kafka's {@code log.retention.hours=168}), even when
     * {@code log.retention.hours} is set dynamically, exactly as Kafka answers.
     *
     * @param sensitive whether the values are withheld (null), as for passwords
     */
    private List<DescribeConfigsSynonym> chain(String name, Map<String, String> perBroker,
                                               Map<String, String> clusterDefault, boolean sensitive) {
        List<String> names = DynamicBrokerConfig.brokerConfigSynonyms(name);
        List<DescribeConfigsSynonym> chain = new ArrayList<>();
        for (String n : names) {
            addIfSet(chain, n, perBroker.get(n), ConfigSource.DYNAMIC_BROKER_CONFIG, sensitive);
        }
        for (String n : names) {
            addIfSet(chain, n, clusterDefault.get(n), ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG, sensitive);
        }
        for (String n : names) {
            String value = staticValues.get(n);
            boolean explicit = value != null && !java.util.Objects.equals(value, BrokerConfigNames.defaultValue(n));
            addIfSet(chain, n, explicit ? value : null, ConfigSource.STATIC_BROKER_CONFIG, sensitive);
        }
        for (String n : names) {
            addIfSet(chain, n, defaultValue(n, names.size() > 1), ConfigSource.DEFAULT_CONFIG, sensitive);
        }
        int first = 0;
        while (first < chain.size() && !chain.get(first).name().equals(name)) {
            first++;
        }
        return new ArrayList<>(chain.subList(first, chain.size()));
    }

    private static void addIfSet(List<DescribeConfigsSynonym> chain, String name, String value, ConfigSource source,
                                 boolean sensitive) {
        if (value != null) {
            chain.add(new DescribeConfigsSynonym().setName(name).setValue(sensitive ? null : value).setSource(source.id()));
        }
    }

    /**
     * A broker setting's default: Tributary's own where it takes the setting, Kafka 3.9's otherwise. For a
     * setting given in several units, Kafka's ({@code log.retention.ms} none, {@code log.retention.hours}
     * 168): Tributary's one millisecond setting has the same default in effect.
     */
    private String defaultValue(String name, boolean unitGroup) {
        String own = BrokerConfigNames.defaultValue(name);
        if (!unitGroup && own != null) {
            return own;
        }
        return KafkaBrokerConfigs.key(name).map(KafkaBrokerConfigs.Key::defaultValue).orElse(null);
    }

    /**
     * The broker's settings by Kafka name: for this broker, every setting with its value in effect
     * (a dynamic one, which can change, from this broker's dynamic configs, the cluster-wide ones or
     * the static setting; the others read-only), and then every other setting Kafka 3.9 in ZooKeeper
     * mode lists ({@link KafkaBrokerConfigs}) with Kafka's default, read-only, passwords null and
     * marked sensitive; for the cluster-wide default resource (the empty name), only the settings the
     * cluster-wide dynamic configs set, as Kafka answers it. Each value is the first of its synonyms
     * ({@link #chain}); a setting whose chain is empty ({@code log.retention.ms} set nowhere) has a null
     * value and source DEFAULT_CONFIG, as in Kafka.
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
            boolean dynamic = DynamicBrokerConfig.isDynamic(name);
            java.util.Optional<KafkaBrokerConfigs.Key> kafkaKey = KafkaBrokerConfigs.key(name);
            boolean own = staticValues.containsKey(name);
            boolean sensitive = kafkaKey.map(KafkaBrokerConfigs.Key::sensitive).orElse(false)
                || DynamicBrokerConfig.isPassword(name);
            List<DescribeConfigsSynonym> synonyms = chain(name, perBroker, clusterDefault, sensitive);
            if (defaultResource) {
                synonyms.removeIf(s -> s.source() != ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG.id());
            }
            boolean effective = !synonyms.isEmpty() && synonyms.get(0).name().equals(name);
            DescribeConfigsResourceResult result = new DescribeConfigsResourceResult()
                .setName(name).setValue(effective ? synonyms.get(0).value() : null).setReadOnly(!dynamic)
                .setConfigSource(effective ? synonyms.get(0).source() : ConfigSource.DEFAULT_CONFIG.id())
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
        if (!own && dynamic) {
            return "Changed while the brokers run (kafka-configs --entity-type brokers); Kafka 3.9's default is shown";
        }
        if (!own) {
            return "Kafka's setting, which Tributary does not take: Kafka 3.9's default is shown";
        }
        return "Set as broker." + name.replace('.', '-') + " in the broker's configuration" + (dynamic
            ? ", or changed while the brokers run (kafka-configs --entity-type brokers)" : "");
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
