package io.tributary.broker.config;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToIntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * The dynamic broker settings that are no topic config's default: replication throttles (KIP-73),
 * thread pools ({@code num.io.threads}, {@code num.replica.fetchers}, {@code background.threads}),
 * the log cleaner ({@code log.cleaner.*}) and connection limits ({@code max.connections*}, KIP-402,
 * KIP-612), with Kafka 3.9's types, defaults and ranges. Two of them also exist per listener:
 * {@code listener.name.<listener>.max.connections} and
 * {@code listener.name.<listener>.max.connection.creation.rate}. A listener's TLS key and trust
 * stores ({@code listener.name.<listener>.ssl.keystore.location}, ... Kafka's
 * {@code SslConfigs.RECONFIGURABLE_CONFIGS}) change per broker only, and only with the prefix.
 *
 * <p>Also the checks Kafka makes against the value in effect before a change is stored: a thread
 * pool may at most halve or double at once ({@code DynamicThreadPool.validateReconfiguration},
 * {@code LogCleaner.validateReconfiguration}).
 *
 * <p>Stateless; thread-safe.
 */
final class BrokerLevelConfigs {

    static final String NUM_IO_THREADS = "num.io.threads";
    static final String NUM_REPLICA_FETCHERS = "num.replica.fetchers";
    static final String BACKGROUND_THREADS = "background.threads";
    static final String LOG_CLEANER_THREADS = "log.cleaner.threads";
    static final String MAX_CONNECTIONS = "max.connections";
    static final String MAX_CONNECTION_CREATION_RATE = "max.connection.creation.rate";

    /** The thread pools checked as Kafka's {@code DynamicThreadPool} checks them. */
    private static final Set<String> THREAD_POOLS = Set.of(NUM_IO_THREADS, NUM_REPLICA_FETCHERS, BACKGROUND_THREADS);

    /** Settings that may also be set for one listener, as {@code listener.name.<listener>.<setting>}. */
    private static final Set<String> PER_LISTENER = Set.of(MAX_CONNECTIONS, MAX_CONNECTION_CREATION_RATE);

    /** A listener's TLS stores, changeable with the listener prefix on one broker (Kafka's {@code DynamicSecurityConfigs}). */
    static final Set<String> LISTENER_SSL = org.apache.kafka.common.config.SslConfigs.RECONFIGURABLE_CONFIGS;

    private static final Pattern LISTENER_PREFIXED = Pattern.compile("listener\\.name\\.([^.]+)\\.(.+)");

    static final ConfigDef DEF = new ConfigDef()
        .define(DynamicBrokerConfig.LEADER_REPLICATION_THROTTLED_RATE, ConfigDef.Type.LONG, Long.MAX_VALUE,
            ConfigDef.Range.atLeast(0), ConfigDef.Importance.MEDIUM,
            "Replication traffic of throttled replicas a leader sends, bytes/s")
        .define(DynamicBrokerConfig.FOLLOWER_REPLICATION_THROTTLED_RATE, ConfigDef.Type.LONG, Long.MAX_VALUE,
            ConfigDef.Range.atLeast(0), ConfigDef.Importance.MEDIUM,
            "Replication traffic of throttled replicas a follower fetches, bytes/s")
        .define(NUM_IO_THREADS, ConfigDef.Type.INT, 8, ConfigDef.Range.atLeast(1), ConfigDef.Importance.HIGH,
            "Request handler threads")
        .define(NUM_REPLICA_FETCHERS, ConfigDef.Type.INT, 1, ConfigDef.Importance.HIGH,
            "Fetcher threads per source broker")
        .define(BACKGROUND_THREADS, ConfigDef.Type.INT, 10, ConfigDef.Range.atLeast(1), ConfigDef.Importance.HIGH,
            "Threads of background tasks (retention, flushes, checkpoints, expirations)")
        .define(LOG_CLEANER_THREADS, ConfigDef.Type.INT, 1, ConfigDef.Range.atLeast(0), ConfigDef.Importance.MEDIUM,
            "Log cleaner threads")
        .define("log.cleaner.io.max.bytes.per.second", ConfigDef.Type.DOUBLE, Double.MAX_VALUE,
            ConfigDef.Importance.MEDIUM, "Read plus write rate of all cleaner threads, bytes/s")
        .define("log.cleaner.dedupe.buffer.size", ConfigDef.Type.LONG, 128L * 1024 * 1024,
            ConfigDef.Importance.MEDIUM, "Memory of the cleaners' offset maps, bytes (all threads)")
        .define("log.cleaner.io.buffer.size", ConfigDef.Type.INT, 512 * 1024, ConfigDef.Range.atLeast(0),
            ConfigDef.Importance.MEDIUM, "Read plus write buffer of a cleaner thread, bytes")
        .define("log.cleaner.io.buffer.load.factor", ConfigDef.Type.DOUBLE, 0.9, ConfigDef.Importance.MEDIUM,
            "How full an offset map may get")
        .define("log.cleaner.backoff.ms", ConfigDef.Type.LONG, 15_000L, ConfigDef.Range.atLeast(0),
            ConfigDef.Importance.MEDIUM, "Pause of a cleaner thread with nothing to clean, ms")
        .define(MAX_CONNECTIONS, ConfigDef.Type.INT, Integer.MAX_VALUE, ConfigDef.Range.atLeast(0),
            ConfigDef.Importance.MEDIUM, "Connections the broker accepts at once")
        .define("max.connections.per.ip", ConfigDef.Type.INT, Integer.MAX_VALUE, ConfigDef.Range.atLeast(0),
            ConfigDef.Importance.MEDIUM, "Connections from one address at once")
        .define("max.connections.per.ip.overrides", ConfigDef.Type.STRING, "", ConfigDef.Importance.MEDIUM,
            "Per-address limits, host:count, comma separated")
        .define(MAX_CONNECTION_CREATION_RATE, ConfigDef.Type.INT, Integer.MAX_VALUE, ConfigDef.Range.atLeast(0),
            ConfigDef.Importance.MEDIUM, "New connections accepted per second");

    private BrokerLevelConfigs() {
    }

    /** Whether {@code name} is one of these settings, directly or with a listener prefix. */
    static boolean contains(String name) {
        return DEF.names().contains(name) || listenerSetting(name).isPresent() || listenerSsl(name).isPresent();
    }

    /**
     * The listener and the TLS setting of a name such as {@code listener.name.ssl.ssl.keystore.location}
     * ({@code [ssl, ssl.keystore.location]}); empty for any other name.
     */
    static Optional<String[]> listenerSsl(String name) {
        Matcher m = LISTENER_PREFIXED.matcher(name);
        if (m.matches() && LISTENER_SSL.contains(m.group(2))) {
            return Optional.of(new String[] {m.group(1), m.group(2)});
        }
        return Optional.empty();
    }

    /**
     * The listener and the setting of a listener-prefixed name that may be set per listener, e.g.
     * {@code listener.name.internal.max.connections} gives {@code [internal, max.connections]}.
     */
    static Optional<String[]> listenerSetting(String name) {
        Matcher m = LISTENER_PREFIXED.matcher(name);
        if (m.matches() && PER_LISTENER.contains(m.group(2))) {
            return Optional.of(new String[] {m.group(1), m.group(2)});
        }
        return Optional.empty();
    }

    /** The setting a name is checked as: the name without its listener prefix. */
    static String baseName(String name) {
        return listenerSetting(name).map(parts -> parts[1]).orElse(name);
    }

    /**
     * Parses one value with the setting's type and range.
     *
     * @throws ConfigException a value of the wrong type or out of range
     */
    static Object parse(String name, String value) {
        if (listenerSsl(name).isPresent()) {
            return value; // checked by the listener, which loads the stores
        }
        String base = baseName(name);
        return DEF.parse(Map.of(base, value)).get(base);
    }

    /** Kafka's default of a setting (listener-prefixed names have their base setting's default). */
    static Object defaultValue(String name) {
        return DEF.defaultValues().get(baseName(name));
    }

    /**
     * Kafka's checks of a change against the value in effect: a thread pool at least 1, at least
     * half and at most double its current size; as many cleaner threads, with Kafka's messages.
     *
     * @param next    the size of a pool as the change would leave it
     * @param current the size in effect of a pool
     * @throws ConfigException a change out of bounds
     */
    static void validateReconfiguration(ToIntFunction<String> next, ToIntFunction<String> current) {
        for (String pool : THREAD_POOLS) {
            int newValue = next.applyAsInt(pool);
            int oldValue = current.applyAsInt(pool);
            if (newValue == oldValue) {
                continue;
            }
            String error = "Dynamic thread count update validation failed for " + pool + "=" + newValue;
            if (newValue <= 0) {
                throw new ConfigException(error + ", value should be at least 1");
            }
            if (newValue < oldValue / 2) {
                throw new ConfigException(error + ", value should be at least half the current value " + oldValue);
            }
            if (newValue > oldValue * 2) {
                throw new ConfigException(error + ", value should not be greater than double the current value "
                    + oldValue);
            }
        }
        int threads = next.applyAsInt(LOG_CLEANER_THREADS);
        int currentThreads = current.applyAsInt(LOG_CLEANER_THREADS);
        if (threads == currentThreads) {
            return;
        }
        if (threads < 1) {
            throw new ConfigException("Log cleaner threads should be at least 1");
        }
        if (threads < currentThreads / 2) {
            throw new ConfigException("Log cleaner threads cannot be reduced to less than half the current value "
                + currentThreads);
        }
        if (threads > currentThreads * 2) {
            throw new ConfigException("Log cleaner threads cannot be increased to more than double the current value "
                + currentThreads);
        }
    }
}
