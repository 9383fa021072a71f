package io.tributary.broker.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker settings that change while the broker runs (Kafka's dynamic broker configs, ZooKeeper
 * mode, KIP-226): the defaults of topic configs ({@code log.retention.ms}, {@code log.segment.bytes},
 * {@code log.cleanup.policy}, {@code message.max.bytes}, ... every broker synonym of a topic config,
 * as Kafka's {@code DynamicLogConfig}), set per broker ({@code /config/brokers/{id}}) or for every
 * broker ({@code /config/brokers/<default>}). Precedence, key by key, as Kafka: this broker's
 * dynamic value, the cluster-wide default, the static setting, Kafka's default; within one set,
 * {@code log.retention.ms} wins over {@code .minutes} over {@code .hours}, {@code log.roll.ms}
 * over {@code log.roll.hours}, and {@code log.roll.jitter.ms} over {@code log.roll.jitter.hours}.
 *
 * <p>{@link #logConfigDefaults()} is what topics without an override of their own inherit; a
 * change calls the listeners, which apply it to every log at once.
 *
 * <p>Thread-safe: updates come from the ZooKeeper watch, reads from any thread.
 */
public final class DynamicBrokerConfig {

    /** The entity name of the cluster-wide defaults, as Kafka's {@code ZooKeeperInternals.DEFAULT_STRING}. */
    public static final String DEFAULT_ENTITY = "<default>";

    private static final Logger log = LoggerFactory.getLogger(DynamicBrokerConfig.class);

    /** Broker settings Kafka changes live that Tributary does not apply live yet (refused with a message saying so). */
    private static final Set<String> NOT_YET_DYNAMIC = Set.of("num.network.threads",
        "num.recovery.threads.per.data.dir", "replica.alter.log.dirs.io.max.bytes.per.second",
        "metric.reporters", "sasl.jaas.config",
        "producer.id.expiration.ms", "transaction.partition.verification.enable");

    /** {@code leader.replication.throttled.rate}: the leader side of the replication throttle, bytes/s (KIP-73). */
    public static final String LEADER_REPLICATION_THROTTLED_RATE = "leader.replication.throttled.rate";
    /** {@code follower.replication.throttled.rate}: the follower side, bytes/s. */
    public static final String FOLLOWER_REPLICATION_THROTTLED_RATE = "follower.replication.throttled.rate";

    /** Each dynamic broker setting and the topic config whose default it is. */
    private static final Map<String, String> TOPIC_CONFIG_OF = topicConfigOf();

    private final int brokerId;
    private final Map<String, Object> staticLogDefaults;
    private final Map<String, String> staticBrokerLevel;
    private final DynamicPasswordEncoder passwordEncoder;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final List<java.util.function.Consumer<DynamicBrokerConfig>> validators = new CopyOnWriteArrayList<>();
    private volatile Map<String, String> clusterDefault = Map.of();
    private volatile Map<String, String> perBroker = Map.of();
    private volatile Map<String, Object> logConfigDefaults;

    /**
     * @param staticLogDefaults the topic config defaults of the static settings ({@link LogConfig#brokerDefaults})
     * @param staticSettings    the static broker settings by Kafka name ({@link BrokerConfigNames#describe}),
     *                          of which those that can change live are their values until a dynamic one is set
     */
    public DynamicBrokerConfig(int brokerId, Map<String, Object> staticLogDefaults, Map<String, String> staticSettings) {
        this(brokerId, staticLogDefaults, staticSettings, null);
    }

    /**
     * @param passwordEncoder encrypts dynamic passwords for ZooKeeper ({@code password.encoder.secret});
     *                        null when none is set, and then no password can be set dynamically
     */
    public DynamicBrokerConfig(int brokerId, Map<String, Object> staticLogDefaults, Map<String, String> staticSettings,
                               DynamicPasswordEncoder passwordEncoder) {
        this.brokerId = brokerId;
        this.passwordEncoder = passwordEncoder;
        this.staticLogDefaults = Map.copyOf(staticLogDefaults);
        this.logConfigDefaults = this.staticLogDefaults;
        Map<String, String> brokerLevel = new HashMap<>();
        staticSettings.forEach((name, value) -> {
            if (value != null && BrokerLevelConfigs.contains(name)) {
                brokerLevel.put(name, value);
            }
        });
        this.staticBrokerLevel = Map.copyOf(brokerLevel);
    }

    /** Whether a broker setting can be changed while the brokers run. */
    public static boolean isDynamic(String brokerConfig) {
        return TOPIC_CONFIG_OF.containsKey(brokerConfig) || BrokerLevelConfigs.contains(brokerConfig);
    }

    /**
     * The value in effect of a dynamic setting that is no topic config's default (replication
     * throttles, thread pools, the log cleaner, connection limits), parsed with Kafka's type: this
     * broker's dynamic value, else the cluster-wide one, else the static setting, else Kafka's
     * default. A listener-prefixed name ({@code listener.name.<l>.max.connections}) set nowhere
     * is null: the broker-wide value applies to that listener.
     *
     * @throws IllegalArgumentException a name that is not such a setting
     */
    public Object brokerLevelValue(String name) {
        if (!BrokerLevelConfigs.contains(name)) {
            throw new IllegalArgumentException(name + " is not a dynamic broker-level setting");
        }
        Optional<String> value = dynamicValue(name).map(Map.Entry::getValue)
            .or(() -> Optional.ofNullable(staticBrokerLevel.get(name)));
        if (value.isPresent()) {
            return BrokerLevelConfigs.parse(name, value.get());
        }
        return BrokerLevelConfigs.listenerSetting(name).isPresent() ? null : BrokerLevelConfigs.defaultValue(name);
    }

    /** {@link #brokerLevelValue} of a LONG setting (the replication throttles, bytes/s). */
    public long brokerLevelLong(String name) {
        return (Long) brokerLevelValue(name);
    }

    /** {@link #brokerLevelValue} of an INT setting ({@code num.io.threads}, {@code max.connections}, ...). */
    public int brokerLevelInt(String name) {
        return (Integer) brokerLevelValue(name);
    }

    /**
     * The listener-prefixed settings in effect of one kind ({@code max.connections} or
     * {@code max.connection.creation.rate}), by listener name, from both dynamic levels and the
     * static settings.
     */
    public Map<String, Integer> perListenerInts(String setting) {
        Map<String, Integer> out = new HashMap<>();
        java.util.stream.Stream.of(staticBrokerLevel.keySet(), clusterDefault.keySet(), perBroker.keySet())
            .flatMap(Set::stream).forEach(name -> BrokerLevelConfigs.listenerSetting(name)
                .filter(parts -> parts[1].equals(setting))
                .ifPresent(parts -> out.put(parts[0], (Integer) brokerLevelValue(name))));
        return out;
    }

    /** The topic config whose default a dynamic broker setting is, or empty for a setting that is not dynamic. */
    public static Optional<String> topicConfigOf(String brokerConfig) {
        return Optional.ofNullable(TOPIC_CONFIG_OF.get(brokerConfig));
    }

    /** The dynamic broker settings, sorted by name. */
    public static Set<String> dynamicConfigNames() {
        TreeSet<String> names = new TreeSet<>(TOPIC_CONFIG_OF.keySet());
        names.addAll(BrokerLevelConfigs.DEF.names());
        return names;
    }

    /**
     * The broker settings that set a topic config's default, in Kafka's precedence order
     * ({@code log.retention.ms}, {@code log.retention.minutes}, {@code log.retention.hours}).
     */
    public static List<String> brokerSynonyms(String topicConfig) {
        List<String> synonyms = new ArrayList<>();
        String primary = LogConfig.brokerSynonym(topicConfig);
        if (primary != null) {
            synonyms.add(primary);
            TOPIC_CONFIG_OF.keySet().stream().filter(n -> !n.equals(primary) && TOPIC_CONFIG_OF.get(n).equals(topicConfig))
                .sorted((a, b) -> Integer.compare(unitRank(a), unitRank(b))).forEach(synonyms::add);
        }
        return synonyms;
    }

    /**
     * Kafka's synonyms of a broker setting ({@code DynamicBrokerConfig.brokerConfigSynonyms}): every unit
     * of a setting given in several ({@code log.retention.ms}, {@code .minutes}, {@code .hours};
     * {@code log.roll.ms}, {@code .hours}; {@code log.roll.jitter.ms}, {@code .hours}), finest first;
     * the name alone otherwise. Unlike Kafka, {@code log.flush.scheduler.interval.ms} is no synonym of
     * {@code log.flush.interval.ms}: here it is only how often logs are checked, never a flush interval.
     */
    public static List<String> brokerConfigSynonyms(String brokerConfig) {
        String topicConfig = TOPIC_CONFIG_OF.get(brokerConfig);
        return topicConfig == null ? List.of(brokerConfig) : brokerSynonyms(topicConfig);
    }

    /** The topic config defaults in effect now, keyed by topic config name; immutable. */
    public Map<String, Object> logConfigDefaults() {
        return logConfigDefaults;
    }

    /** This broker's own dynamic settings ({@code /config/brokers/{id}}), by broker setting name. */
    public Map<String, String> perBrokerConfigs() {
        return perBroker;
    }

    /** The cluster-wide dynamic settings ({@code /config/brokers/<default>}), by broker setting name. */
    public Map<String, String> clusterDefaultConfigs() {
        return clusterDefault;
    }

    /** Which dynamic level sets a broker setting now, if one does: this broker's, or the cluster-wide default. */
    public enum Level { PER_BROKER, CLUSTER_DEFAULT }

    /** The dynamic level and value that set {@code brokerConfig}, the per-broker one first. */
    public Optional<Map.Entry<Level, String>> dynamicValue(String brokerConfig) {
        String own = perBroker.get(brokerConfig);
        if (own != null) {
            return Optional.of(Map.entry(Level.PER_BROKER, own));
        }
        String shared = clusterDefault.get(brokerConfig);
        return shared == null ? Optional.empty() : Optional.of(Map.entry(Level.CLUSTER_DEFAULT, shared));
    }

    /**
     * Adds a check a component makes of the settings as a change would leave them (Kafka's
     * {@code Reconfigurable.validateReconfiguration}): {@link #validate} calls it with a copy of this
     * config with the change applied, and refuses the change (INVALID_CONFIG, with the message) when
     * it throws {@link IllegalArgumentException} or {@link ConfigException}.
     */
    public void addValidator(java.util.function.Consumer<DynamicBrokerConfig> validator) {
        validators.add(validator);
    }

    /** A copy of this config, without listeners, as it would be with {@code configs} as the set of {@code entity}. */
    private DynamicBrokerConfig preview(String entity, Map<String, String> configs) {
        DynamicBrokerConfig copy = new DynamicBrokerConfig(brokerId, staticLogDefaults, staticBrokerLevel,
            passwordEncoder);
        copy.clusterDefault = entity.equals(DEFAULT_ENTITY) ? Map.copyOf(configs) : clusterDefault;
        copy.perBroker = entity.equals(DEFAULT_ENTITY) ? perBroker : Map.copyOf(configs);
        return copy;
    }

    /** Called after every change of the defaults in effect. */
    public void addListener(Runnable listener) {
        listeners.add(listener);
    }

    /**
     * Checks a set of dynamic settings before it is stored, as Kafka's {@code DynamicBrokerConfig.validate}.
     *
     * @param entity  whose set it is: this broker's id or {@link #DEFAULT_ENTITY}
     * @param configs the whole new set, by broker setting name
     * @throws InvalidConfigurationException INVALID_CONFIG: a static setting ("Cannot update these
     *         configs dynamically: Set(...)"), one Tributary does not change live yet, an unknown
     *         name, a value of the wrong type or out of range, or a thread pool that would shrink
     *         below half or grow above double its size in effect (Kafka's bounds)
     */
    public void validate(String entity, Map<String, String> configs) {
        Set<String> staticOnes = new TreeSet<>();
        Set<String> notYet = new TreeSet<>();
        Set<String> unknown = new TreeSet<>();
        Set<String> withoutPrefix = new TreeSet<>();
        Set<String> perBrokerOnly = new TreeSet<>();
        for (String name : configs.keySet()) {
            if (BrokerLevelConfigs.LISTENER_SSL.contains(name)) {
                withoutPrefix.add(name);
            } else if (BrokerLevelConfigs.listenerSsl(name).isPresent()) {
                perBrokerOnly.add(name);
            } else if (NOT_YET_DYNAMIC.contains(name)
                    || (name.startsWith("listener.name.") && !BrokerLevelConfigs.contains(name))) {
                notYet.add(name);
            } else if (!isDynamic(name)) {
                (BrokerConfigNames.isSupported(name) ? staticOnes : unknown).add(name);
            }
        }
        if (!staticOnes.isEmpty()) {
            throw new InvalidConfigurationException("Cannot update these configs dynamically: " + scalaSet(staticOnes));
        }
        if (!withoutPrefix.isEmpty()) {
            throw new InvalidConfigurationException("These security configs can be dynamically updated only "
                + "per-listener using the listener prefix: " + scalaSet(withoutPrefix));
        }
        if (!notYet.isEmpty()) {
            throw new InvalidConfigurationException("Tributary does not change these configs while the broker runs "
                + "yet; set them in the broker's configuration: " + scalaSet(notYet));
        }
        if (!unknown.isEmpty()) {
            throw new InvalidConfigurationException("Unknown broker config names: " + scalaSet(unknown));
        }
        if (entity.equals(DEFAULT_ENTITY) && !perBrokerOnly.isEmpty()) {
            throw new InvalidConfigurationException("Cannot update these configs at default cluster level, broker id "
                + "must be specified: " + scalaSet(perBrokerOnly));
        }
        try {
            for (Map.Entry<String, String> e : configs.entrySet()) {
                if (BrokerLevelConfigs.contains(e.getKey())) {
                    BrokerLevelConfigs.parse(e.getKey(), e.getValue());
                }
            }
            LogConfig.validate(staticLogDefaults, asTopicOverrides(configs));
            // The settings as the change would leave them (a deleted one falls back to the other level,
            // the static setting or Kafka's default), as Kafka checks the resolved config.
            DynamicBrokerConfig preview = preview(entity, configs);
            BrokerLevelConfigs.validateReconfiguration(preview::brokerLevelInt, this::brokerLevelInt);
            validators.forEach(validator -> validator.accept(preview));
        } catch (ConfigException | IllegalArgumentException e) {
            throw new InvalidConfigurationException("Invalid value in " + configs + ": " + e.getMessage());
        }
    }

    /**
     * Takes a dynamic entity's settings as stored in ZooKeeper: {@link #DEFAULT_ENTITY} or this
     * broker's id (other brokers' are ignored). A set that does not validate is logged and ignored.
     *
     * @return whether the defaults in effect changed (the listeners were called)
     */
    public boolean update(String entity, Map<String, String> configs) {
        boolean own = entity.equals(Integer.toString(brokerId));
        if (!own && !entity.equals(DEFAULT_ENTITY)) {
            return false;
        }
        Map<String, String> accepted = new LinkedHashMap<>();
        configs.forEach((name, stored) -> {
            String value = stored;
            if (isPassword(name)) {
                try {
                    value = decodePassword(name, stored);
                } catch (ConfigException e) {
                    log.error("Ignoring {} in the dynamic configs of {}: {}", name, entity, e.getMessage());
                    return;
                }
            }
            if (BrokerLevelConfigs.contains(name) && !parses(name, value)) {
                log.error("Ignoring {}={} in the dynamic configs of {}: not a valid value", name, value, entity);
            } else if (isDynamic(name)) {
                accepted.put(name, value);
            } else {
                log.warn("Ignoring {} in the dynamic configs of {}: not a dynamic broker config here", name, entity);
            }
        });
        Map<String, Object> next;
        synchronized (this) {
            Map<String, String> nextDefault = own ? clusterDefault : Map.copyOf(accepted);
            Map<String, String> nextOwn = own ? Map.copyOf(accepted) : perBroker;
            try {
                next = effective(nextDefault, nextOwn);
            } catch (RuntimeException e) {
                log.error("Ignoring the dynamic configs of {} {}: {}", entity, configs, e.getMessage());
                return false;
            }
            boolean brokerLevelChanged = java.util.stream.Stream.of(nextDefault.keySet(), nextOwn.keySet(),
                    clusterDefault.keySet(), perBroker.keySet()).flatMap(Set::stream)
                .filter(BrokerLevelConfigs::contains)
                .anyMatch(name -> !java.util.Objects.equals(nextOwn.getOrDefault(name, nextDefault.get(name)),
                    perBroker.getOrDefault(name, clusterDefault.get(name))));
            clusterDefault = nextDefault;
            perBroker = nextOwn;
            if (next.equals(logConfigDefaults) && !brokerLevelChanged) {
                return false;
            }
            logConfigDefaults = next;
        }
        log.info("Dynamic broker configs of {} are now {}; topic defaults in effect: {}", entity, accepted, next);
        listeners.forEach(Runnable::run);
        return true;
    }

    /**
     * The dynamic TLS settings of one listener on this broker ({@code listener.name.<listener>.ssl.*}),
     * by setting name without the prefix ({@code ssl.keystore.location}), passwords in clear; the
     * listener name matched in any case.
     */
    public Map<String, String> listenerSslConfigs(String listener) {
        Map<String, String> out = new HashMap<>();
        perBroker.forEach((name, value) -> BrokerLevelConfigs.listenerSsl(name)
            .filter(parts -> parts[0].equalsIgnoreCase(listener))
            .ifPresent(parts -> out.put(parts[1], value)));
        return out;
    }

    /** Whether a dynamic setting holds a password (its Kafka type is PASSWORD), kept encrypted in ZooKeeper. */
    public static boolean isPassword(String name) {
        String base = BrokerLevelConfigs.listenerSsl(name).map(parts -> parts[1]).orElse(name);
        return KafkaBrokerConfigs.key(base).map(k -> k.type() == ConfigDef.Type.PASSWORD).orElse(false);
    }

    /**
     * A set as stored in ZooKeeper with its passwords decrypted, to be changed and validated.
     *
     * @throws InvalidConfigurationException a stored password that cannot be decoded with this broker's secret
     */
    public Map<String, String> decodeStored(Map<String, String> stored) {
        Map<String, String> plain = new LinkedHashMap<>(stored);
        try {
            plain.replaceAll((name, value) -> isPassword(name) ? decodePassword(name, value) : value);
        } catch (ConfigException e) {
            throw new InvalidConfigurationException(e.getMessage());
        }
        return plain;
    }

    /**
     * A validated set as it is written to ZooKeeper: passwords encrypted with {@code password.encoder.secret}
     * (Kafka's {@code DynamicBrokerConfig.toPersistentProps}).
     *
     * @throws InvalidConfigurationException a password without a secret ("Password encoder secret not
     *         configured") or in the cluster-wide set ("Password config can be defined only at broker level")
     */
    public Map<String, String> encodeForStorage(String entity, Map<String, String> configs) {
        Map<String, String> stored = new LinkedHashMap<>(configs);
        for (Map.Entry<String, String> e : stored.entrySet()) {
            if (isPassword(e.getKey()) && e.getValue() != null) {
                if (entity.equals(DEFAULT_ENTITY)) {
                    throw new InvalidConfigurationException("Password config can be defined only at broker level");
                }
                if (passwordEncoder == null) {
                    throw new InvalidConfigurationException("Password encoder secret not configured");
                }
                e.setValue(passwordEncoder.encode(e.getValue()));
            }
        }
        return stored;
    }

    private String decodePassword(String name, String stored) {
        if (passwordEncoder == null) {
            throw new ConfigException("Password encoder secret not configured: " + name + " cannot be decoded");
        }
        return passwordEncoder.decode(stored);
    }

    private static boolean parses(String brokerLevelName, String value) {
        try {
            BrokerLevelConfigs.parse(brokerLevelName, value);
            return true;
        } catch (ConfigException e) {
            return false;
        }
    }

    private Map<String, Object> effective(Map<String, String> defaults, Map<String, String> own) {
        Map<String, String> merged = new HashMap<>(defaults);
        merged.putAll(own);
        Map<String, Object> result = new HashMap<>(staticLogDefaults);
        Map<String, String> overrides = asTopicOverrides(merged);
        LogConfig.validate(staticLogDefaults, overrides);
        overrides.forEach((topicConfig, value) -> result.put(topicConfig, ConfigDef.parseType(topicConfig, value,
            LogConfig.CONFIG_DEF.configKeys().get(topicConfig).type)));
        return Map.copyOf(result);
    }

    /** Broker settings as topic config values, with Kafka's ms / minutes / hours precedence. */
    private static Map<String, String> asTopicOverrides(Map<String, String> brokerConfigs) {
        Map<String, String> overrides = new HashMap<>();
        List<String> ordered = new ArrayList<>(brokerConfigs.keySet());
        // Coarser units first, so that the finer one, when also given, wins.
        ordered.sort((a, b) -> Integer.compare(unitRank(b), unitRank(a)));
        for (String name : ordered) {
            String topicConfig = TOPIC_CONFIG_OF.get(name);
            if (topicConfig == null) {
                continue; // a broker-level setting (replication throttle)
            }
            String value = brokerConfigs.get(name).trim();
            if (name.endsWith(".hours")) {
                value = Long.toString(Long.parseLong(value) * 3_600_000L);
            } else if (name.endsWith(".minutes")) {
                value = Long.toString(Long.parseLong(value) * 60_000L);
            }
            overrides.put(topicConfig, value);
        }
        return overrides;
    }

    private static int unitRank(String name) {
        return name.endsWith(".hours") ? 2 : name.endsWith(".minutes") ? 1 : 0;
    }

    /** {@code Set(a, b)}, as Kafka's Scala sets print in its messages. */
    private static String scalaSet(Set<String> names) {
        return "Set(" + String.join(", ", names) + ")";
    }

    private static Map<String, String> topicConfigOf() {
        Map<String, String> m = new HashMap<>();
        for (String topicConfig : LogConfig.CONFIG_DEF.names()) {
            String synonym = LogConfig.brokerSynonym(topicConfig);
            if (synonym != null) {
                m.put(synonym, topicConfig);
            }
        }
        m.put("log.retention.minutes", TopicConfig.RETENTION_MS_CONFIG);
        m.put("log.retention.hours", TopicConfig.RETENTION_MS_CONFIG);
        m.put("log.roll.hours", TopicConfig.SEGMENT_MS_CONFIG);
        m.put("log.roll.jitter.hours", TopicConfig.SEGMENT_JITTER_MS_CONFIG);
        return Map.copyOf(m);
    }
}
