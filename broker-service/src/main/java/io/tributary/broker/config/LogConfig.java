package io.tributary.broker.config;

import static org.apache.kafka.common.config.ConfigDef.Importance.HIGH;
import static org.apache.kafka.common.config.ConfigDef.Importance.LOW;
import static org.apache.kafka.common.config.ConfigDef.Importance.MEDIUM;
import static org.apache.kafka.common.config.ConfigDef.Range.atLeast;
import static org.apache.kafka.common.config.ConfigDef.Range.between;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.ValidList;
import org.apache.kafka.common.config.ConfigDef.ValidString;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.CompressionType;

/**
 * The effective configuration of one topic's logs: broker defaults overlaid with the topic's
 * overrides (from CreateTopics or IncrementalAlterConfigs, stored in ZooKeeper under
 * {@code /config/topics/{topic}}). Keys are Kafka's exact topic config names, since clients
 * send them ({@link TopicConfig}); parsing and validation use Kafka's {@link ConfigDef}.
 *
 * <p>Immutable; a config change builds a new instance which the log picks up atomically.
 *
 * @param overrides                   the topic-level overrides this config was built from
 * @param cleanupPolicy               {@code delete}, {@code compact} or both
 * @param retentionMs                 retention by age, ms; -1 keeps forever
 * @param retentionBytes              retention by size per partition, bytes; -1 unlimited
 * @param segmentBytes                roll size of a segment, bytes
 * @param segmentMs                   roll age of a segment, ms
 * @param segmentJitterMs             maximum random jitter subtracted from segmentMs, ms
 * @param segmentIndexBytes           maximum size of a segment's offset/time index, bytes
 * @param indexIntervalBytes          bytes between index entries
 * @param maxMessageBytes             largest record batch accepted, bytes
 * @param messageTimestampType        CreateTime keeps the producer's timestamps, LogAppendTime overwrites them
 * @param messageTimestampBeforeMaxMs how far a record timestamp may lie in the past, ms
 * @param messageTimestampAfterMaxMs  how far a record timestamp may lie in the future, ms
 * @param fileDeleteDelayMs           delay between removing a segment from the log and deleting its files, ms
 * @param flushMessages               messages between fsyncs
 * @param flushMs                     time between fsyncs, ms
 * @param minInSyncReplicas           replicas that must hold an acks=all write
 * @param uncleanLeaderElectionEnable whether an out-of-sync replica may become leader
 * @param deleteRetentionMs           how long tombstones survive compaction, ms
 * @param minCompactionLagMs          minimum age before a record may be compacted, ms
 * @param maxCompactionLagMs          maximum age before a record must be compactable, ms
 * @param minCleanableDirtyRatio      dirty ratio that triggers compaction
 * @param preallocate                 preallocate segment files
 * @param compressionType             {@code producer} (batches kept as compressed by the producer),
 *                                    {@code uncompressed}, {@code gzip}, {@code snappy}, {@code lz4} or {@code zstd}
 * @param compressionGzipLevel        gzip level when {@code compressionType} is gzip
 * @param compressionLz4Level         lz4 level when {@code compressionType} is lz4
 * @param compressionZstdLevel        zstd level when {@code compressionType} is zstd
 */
public record LogConfig(
        Map<String, String> overrides,
        List<String> cleanupPolicy,
        long retentionMs,
        long retentionBytes,
        int segmentBytes,
        long segmentMs,
        long segmentJitterMs,
        int segmentIndexBytes,
        int indexIntervalBytes,
        int maxMessageBytes,
        TimestampType messageTimestampType,
        long messageTimestampBeforeMaxMs,
        long messageTimestampAfterMaxMs,
        long fileDeleteDelayMs,
        long flushMessages,
        long flushMs,
        int minInSyncReplicas,
        boolean uncleanLeaderElectionEnable,
        long deleteRetentionMs,
        long minCompactionLagMs,
        long maxCompactionLagMs,
        double minCleanableDirtyRatio,
        boolean preallocate,
        String compressionType,
        int compressionGzipLevel,
        int compressionLz4Level,
        int compressionZstdLevel) {

    /** Kafka's topic-level {@code leader/follower.replication.throttled.replicas}: accepted and stored for tools. */
    public static final String LEADER_THROTTLED_REPLICAS = "leader.replication.throttled.replicas";
    public static final String FOLLOWER_THROTTLED_REPLICAS = "follower.replication.throttled.replicas";

    /** {@code compression.type} that keeps each batch's own codec. */
    public static final String PRODUCER_COMPRESSION = "producer";

    /** Smallest {@code segment.bytes} a topic override may set (Kafka 4, KIP-1030). */
    public static final int MIN_TOPIC_SEGMENT_BYTES = 1024 * 1024;

    /** Topic config name to the broker setting (Kafka name) that supplies its default. */
    private static final Map<String, String> BROKER_SYNONYMS = brokerSynonyms();

    /** Definitions of the topic configs this broker honours; defaults here are Kafka's and are overlaid with the broker's. */
    public static final ConfigDef CONFIG_DEF = new ConfigDef()
        .define(TopicConfig.CLEANUP_POLICY_CONFIG, Type.LIST, TopicConfig.CLEANUP_POLICY_DELETE,
            ValidList.in(TopicConfig.CLEANUP_POLICY_COMPACT, TopicConfig.CLEANUP_POLICY_DELETE), MEDIUM,
            TopicConfig.CLEANUP_POLICY_DOC)
        .define(TopicConfig.RETENTION_MS_CONFIG, Type.LONG, 604_800_000L, atLeast(-1), MEDIUM, TopicConfig.RETENTION_MS_DOC)
        .define(TopicConfig.RETENTION_BYTES_CONFIG, Type.LONG, -1L, MEDIUM, TopicConfig.RETENTION_BYTES_DOC)
        // Topic overrides must be at least 1 MiB as in Kafka 4 (checked in create); the broker's static
        // default may be smaller, down to 1 KiB, so tests can roll segments quickly.
        .define(TopicConfig.SEGMENT_BYTES_CONFIG, Type.INT, 1_073_741_824, atLeast(1024), MEDIUM,
            TopicConfig.SEGMENT_BYTES_DOC)
        .define(TopicConfig.SEGMENT_MS_CONFIG, Type.LONG, 604_800_000L, atLeast(1), MEDIUM, TopicConfig.SEGMENT_MS_DOC)
        .define(TopicConfig.SEGMENT_JITTER_MS_CONFIG, Type.LONG, 0L, atLeast(0), MEDIUM, TopicConfig.SEGMENT_JITTER_MS_DOC)
        .define(TopicConfig.SEGMENT_INDEX_BYTES_CONFIG, Type.INT, 10 * 1024 * 1024, atLeast(4), MEDIUM,
            TopicConfig.SEGMENT_INDEX_BYTES_DOC)
        .define(TopicConfig.INDEX_INTERVAL_BYTES_CONFIG, Type.INT, 4096, atLeast(0), MEDIUM,
            TopicConfig.INDEX_INTERVAL_BYTES_DOC)
        .define(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Type.INT, 1_048_588, atLeast(0), MEDIUM,
            TopicConfig.MAX_MESSAGE_BYTES_DOC)
        .define(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, Type.STRING, "CreateTime",
            ValidString.in("CreateTime", "LogAppendTime"), MEDIUM, TopicConfig.MESSAGE_TIMESTAMP_TYPE_DOC)
        .define(TopicConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG, Type.LONG, Long.MAX_VALUE, atLeast(0), MEDIUM,
            TopicConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS_DOC)
        .define(TopicConfig.MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG, Type.LONG, 3_600_000L, atLeast(0), MEDIUM,
            TopicConfig.MESSAGE_TIMESTAMP_AFTER_MAX_MS_DOC)
        .define(TopicConfig.FILE_DELETE_DELAY_MS_CONFIG, Type.LONG, 60_000L, atLeast(0), MEDIUM,
            TopicConfig.FILE_DELETE_DELAY_MS_DOC)
        .define(TopicConfig.FLUSH_MESSAGES_INTERVAL_CONFIG, Type.LONG, Long.MAX_VALUE, atLeast(1), MEDIUM,
            TopicConfig.FLUSH_MESSAGES_INTERVAL_DOC)
        .define(TopicConfig.FLUSH_MS_CONFIG, Type.LONG, Long.MAX_VALUE, atLeast(0), MEDIUM, TopicConfig.FLUSH_MS_DOC)
        .define(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Type.INT, 1, atLeast(1), MEDIUM,
            TopicConfig.MIN_IN_SYNC_REPLICAS_DOC)
        .define(TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG, Type.BOOLEAN, false, HIGH,
            TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_DOC)
        .define(TopicConfig.DELETE_RETENTION_MS_CONFIG, Type.LONG, 86_400_000L, atLeast(0), MEDIUM,
            TopicConfig.DELETE_RETENTION_MS_DOC)
        .define(TopicConfig.MIN_COMPACTION_LAG_MS_CONFIG, Type.LONG, 0L, atLeast(0), MEDIUM,
            TopicConfig.MIN_COMPACTION_LAG_MS_DOC)
        .define(TopicConfig.MAX_COMPACTION_LAG_MS_CONFIG, Type.LONG, Long.MAX_VALUE, atLeast(1), MEDIUM,
            TopicConfig.MAX_COMPACTION_LAG_MS_DOC)
        .define(TopicConfig.MIN_CLEANABLE_DIRTY_RATIO_CONFIG, Type.DOUBLE, 0.5, between(0, 1), MEDIUM,
            TopicConfig.MIN_CLEANABLE_DIRTY_RATIO_DOC)
        .define(TopicConfig.PREALLOCATE_CONFIG, Type.BOOLEAN, false, MEDIUM, TopicConfig.PREALLOCATE_DOC)
        // producer keeps batches as the producer compressed them (only one with gaps in its offsets is compressed again);
        // a codec, or uncompressed, makes every batch of another codec be compressed again with it, as Kafka does.
        .define(TopicConfig.COMPRESSION_TYPE_CONFIG, Type.STRING, PRODUCER_COMPRESSION,
            ValidString.in(PRODUCER_COMPRESSION, "uncompressed", "gzip", "snappy", "lz4", "zstd"), MEDIUM,
            TopicConfig.COMPRESSION_TYPE_DOC)
        .define(TopicConfig.COMPRESSION_GZIP_LEVEL_CONFIG, Type.INT, CompressionType.GZIP.defaultLevel(),
            CompressionType.GZIP.levelValidator(), MEDIUM, TopicConfig.COMPRESSION_GZIP_LEVEL_DOC)
        .define(TopicConfig.COMPRESSION_LZ4_LEVEL_CONFIG, Type.INT, CompressionType.LZ4.defaultLevel(),
            CompressionType.LZ4.levelValidator(), MEDIUM, TopicConfig.COMPRESSION_LZ4_LEVEL_DOC)
        .define(TopicConfig.COMPRESSION_ZSTD_LEVEL_CONFIG, Type.INT, CompressionType.ZSTD.defaultLevel(),
            CompressionType.ZSTD.levelValidator(), MEDIUM, TopicConfig.COMPRESSION_ZSTD_LEVEL_DOC)
        // KIP-1191: a topic a share group may write its dead-letter records to (checked when it writes).
        .define(TopicConfig.ERRORS_DEADLETTERQUEUE_GROUP_ENABLE_CONFIG, Type.BOOLEAN, false, MEDIUM,
            TopicConfig.ERRORS_DEADLETTERQUEUE_GROUP_ENABLE_DOC)
        .define(LEADER_THROTTLED_REPLICAS, Type.LIST, "", LOW,
            "Replicas whose leader-side replication is throttled, as set by Kafka's reassignment tool.")
        .define(FOLLOWER_THROTTLED_REPLICAS, Type.LIST, "", LOW,
            "Replicas whose follower-side replication is throttled, as set by Kafka's reassignment tool.");

    public LogConfig {
        overrides = Collections.unmodifiableMap(new LinkedHashMap<>(overrides));
        cleanupPolicy = List.copyOf(cleanupPolicy);
    }

    /**
     * Builds the effective config from broker defaults and topic overrides.
     *
     * @param brokerDefaults topic config name to default value, see {@link #brokerDefaults(BrokerProperties)}
     * @param overrides      topic config overrides (string values, as stored in ZooKeeper)
     * @throws InvalidConfigurationException for an unknown key or a bad value (Kafka's INVALID_CONFIG)
     */
    public static LogConfig create(Map<String, Object> brokerDefaults, Map<String, String> overrides) {
        validateNames(overrides.keySet());
        Map<String, Object> merged = new HashMap<>(brokerDefaults);
        merged.putAll(overrides);
        Map<String, Object> parsed;
        try {
            parsed = CONFIG_DEF.parse(merged);
        } catch (ConfigException e) {
            throw new InvalidConfigurationException(e.getMessage());
        }
        String segmentBytesOverride = overrides.get(TopicConfig.SEGMENT_BYTES_CONFIG);
        if (segmentBytesOverride != null && (Integer) parsed.get(TopicConfig.SEGMENT_BYTES_CONFIG) < MIN_TOPIC_SEGMENT_BYTES) {
            throw new InvalidConfigurationException("Invalid value " + segmentBytesOverride
                + " for configuration segment.bytes: Value must be at least " + MIN_TOPIC_SEGMENT_BYTES);
        }
        @SuppressWarnings("unchecked")
        List<String> policy = (List<String>) parsed.get(TopicConfig.CLEANUP_POLICY_CONFIG);
        if (policy.isEmpty()) {
            throw new InvalidConfigurationException("cleanup.policy must name delete, compact or both");
        }
        return new LogConfig(overrides,
            policy,
            (Long) parsed.get(TopicConfig.RETENTION_MS_CONFIG),
            (Long) parsed.get(TopicConfig.RETENTION_BYTES_CONFIG),
            (Integer) parsed.get(TopicConfig.SEGMENT_BYTES_CONFIG),
            (Long) parsed.get(TopicConfig.SEGMENT_MS_CONFIG),
            (Long) parsed.get(TopicConfig.SEGMENT_JITTER_MS_CONFIG),
            (Integer) parsed.get(TopicConfig.SEGMENT_INDEX_BYTES_CONFIG),
            (Integer) parsed.get(TopicConfig.INDEX_INTERVAL_BYTES_CONFIG),
            (Integer) parsed.get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG),
            TimestampType.forName((String) parsed.get(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG)),
            (Long) parsed.get(TopicConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG),
            (Long) parsed.get(TopicConfig.MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG),
            (Long) parsed.get(TopicConfig.FILE_DELETE_DELAY_MS_CONFIG),
            (Long) parsed.get(TopicConfig.FLUSH_MESSAGES_INTERVAL_CONFIG),
            (Long) parsed.get(TopicConfig.FLUSH_MS_CONFIG),
            (Integer) parsed.get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG),
            (Boolean) parsed.get(TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG),
            (Long) parsed.get(TopicConfig.DELETE_RETENTION_MS_CONFIG),
            (Long) parsed.get(TopicConfig.MIN_COMPACTION_LAG_MS_CONFIG),
            (Long) parsed.get(TopicConfig.MAX_COMPACTION_LAG_MS_CONFIG),
            (Double) parsed.get(TopicConfig.MIN_CLEANABLE_DIRTY_RATIO_CONFIG),
            (Boolean) parsed.get(TopicConfig.PREALLOCATE_CONFIG),
            (String) parsed.get(TopicConfig.COMPRESSION_TYPE_CONFIG),
            (Integer) parsed.get(TopicConfig.COMPRESSION_GZIP_LEVEL_CONFIG),
            (Integer) parsed.get(TopicConfig.COMPRESSION_LZ4_LEVEL_CONFIG),
            (Integer) parsed.get(TopicConfig.COMPRESSION_ZSTD_LEVEL_CONFIG));
    }

    /** A config of Kafka's defaults with the given overrides; for tests and tools. */
    public static LogConfig of(Map<String, String> overrides) {
        return create(Map.of(), overrides);
    }

    /**
     * Checks overrides as CreateTopics and IncrementalAlterConfigs receive them.
     *
     * @throws InvalidConfigurationException for an unknown key or a bad value
     */
    public static void validate(Map<String, Object> brokerDefaults, Map<String, String> overrides) {
        create(brokerDefaults, overrides);
    }

    private static void validateNames(Set<String> names) {
        for (String name : names) {
            if (!CONFIG_DEF.names().contains(name)) {
                throw new InvalidConfigurationException("Unknown topic config name: " + name);
            }
        }
    }

    /** The broker's defaults for topic configs, keyed by topic config name. */
    public static Map<String, Object> brokerDefaults(BrokerProperties broker) {
        Map<String, Object> defaults = new HashMap<>();
        defaults.put(TopicConfig.CLEANUP_POLICY_CONFIG, broker.logCleanupPolicy());
        defaults.put(TopicConfig.RETENTION_MS_CONFIG, broker.logRetentionMs());
        defaults.put(TopicConfig.RETENTION_BYTES_CONFIG, broker.logRetentionBytes());
        defaults.put(TopicConfig.SEGMENT_BYTES_CONFIG, broker.logSegmentBytes());
        defaults.put(TopicConfig.SEGMENT_MS_CONFIG, broker.logRollMs());
        defaults.put(TopicConfig.SEGMENT_JITTER_MS_CONFIG, broker.logRollJitterMs());
        defaults.put(TopicConfig.SEGMENT_INDEX_BYTES_CONFIG, broker.logIndexSizeMaxBytes());
        defaults.put(TopicConfig.INDEX_INTERVAL_BYTES_CONFIG, broker.logIndexIntervalBytes());
        defaults.put(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, broker.messageMaxBytes());
        defaults.put(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, broker.logMessageTimestampType());
        defaults.put(TopicConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG, broker.logMessageTimestampBeforeMaxMs());
        defaults.put(TopicConfig.MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG, broker.logMessageTimestampAfterMaxMs());
        defaults.put(TopicConfig.FILE_DELETE_DELAY_MS_CONFIG, broker.logSegmentDeleteDelayMs());
        defaults.put(TopicConfig.FLUSH_MESSAGES_INTERVAL_CONFIG, broker.logFlushIntervalMessages());
        defaults.put(TopicConfig.FLUSH_MS_CONFIG, broker.logFlushIntervalMs());
        defaults.put(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, broker.minInsyncReplicas());
        defaults.put(TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG, broker.uncleanLeaderElectionEnable());
        defaults.put(TopicConfig.PREALLOCATE_CONFIG, broker.logPreallocate());
        defaults.put(TopicConfig.MIN_CLEANABLE_DIRTY_RATIO_CONFIG, broker.logCleanerMinCleanableRatio());
        defaults.put(TopicConfig.DELETE_RETENTION_MS_CONFIG, broker.logCleanerDeleteRetentionMs());
        defaults.put(TopicConfig.MIN_COMPACTION_LAG_MS_CONFIG, broker.logCleanerMinCompactionLagMs());
        defaults.put(TopicConfig.MAX_COMPACTION_LAG_MS_CONFIG, broker.logCleanerMaxCompactionLagMs());
        return Collections.unmodifiableMap(defaults);
    }

    /** The Kafka broker setting whose value is this topic config's default, or null. */
    public static String brokerSynonym(String topicConfigName) {
        return BROKER_SYNONYMS.get(topicConfigName);
    }

    private static Map<String, String> brokerSynonyms() {
        Map<String, String> m = new HashMap<>();
        m.put(TopicConfig.CLEANUP_POLICY_CONFIG, "log.cleanup.policy");
        m.put(TopicConfig.RETENTION_MS_CONFIG, "log.retention.ms");
        m.put(TopicConfig.RETENTION_BYTES_CONFIG, "log.retention.bytes");
        m.put(TopicConfig.SEGMENT_BYTES_CONFIG, "log.segment.bytes");
        m.put(TopicConfig.SEGMENT_MS_CONFIG, "log.roll.ms");
        m.put(TopicConfig.SEGMENT_JITTER_MS_CONFIG, "log.roll.jitter.ms");
        m.put(TopicConfig.SEGMENT_INDEX_BYTES_CONFIG, "log.index.size.max.bytes");
        m.put(TopicConfig.INDEX_INTERVAL_BYTES_CONFIG, "log.index.interval.bytes");
        m.put(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, "message.max.bytes");
        m.put(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "log.message.timestamp.type");
        m.put(TopicConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG, "log.message.timestamp.before.max.ms");
        m.put(TopicConfig.MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG, "log.message.timestamp.after.max.ms");
        m.put(TopicConfig.FILE_DELETE_DELAY_MS_CONFIG, "log.segment.delete.delay.ms");
        m.put(TopicConfig.FLUSH_MESSAGES_INTERVAL_CONFIG, "log.flush.interval.messages");
        m.put(TopicConfig.FLUSH_MS_CONFIG, "log.flush.interval.ms");
        m.put(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, "min.insync.replicas");
        m.put(TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG, "unclean.leader.election.enable");
        m.put(TopicConfig.PREALLOCATE_CONFIG, "log.preallocate");
        m.put(TopicConfig.MIN_CLEANABLE_DIRTY_RATIO_CONFIG, "log.cleaner.min.cleanable.ratio");
        m.put(TopicConfig.DELETE_RETENTION_MS_CONFIG, "log.cleaner.delete.retention.ms");
        m.put(TopicConfig.MIN_COMPACTION_LAG_MS_CONFIG, "log.cleaner.min.compaction.lag.ms");
        m.put(TopicConfig.MAX_COMPACTION_LAG_MS_CONFIG, "log.cleaner.max.compaction.lag.ms");
        m.put(TopicConfig.COMPRESSION_TYPE_CONFIG, "compression.type");
        m.put(TopicConfig.COMPRESSION_GZIP_LEVEL_CONFIG, "compression.gzip.level");
        m.put(TopicConfig.COMPRESSION_LZ4_LEVEL_CONFIG, "compression.lz4.level");
        m.put(TopicConfig.COMPRESSION_ZSTD_LEVEL_CONFIG, "compression.zstd.level");
        return Collections.unmodifiableMap(m);
    }

    /**
     * The codec every batch is stored in, from {@code compression.type} and the level of that codec
     * (Kafka's {@code LogConfig} and {@code LogValidator}); empty for {@code producer}, which keeps
     * each batch's own.
     */
    public Optional<Compression> targetCompression() {
        return switch (compressionType) {
            case PRODUCER_COMPRESSION -> Optional.empty();
            case "uncompressed" -> Optional.of(Compression.NONE);
            case "gzip" -> Optional.of(Compression.gzip().level(compressionGzipLevel).build());
            case "lz4" -> Optional.of(Compression.lz4().level(compressionLz4Level).build());
            case "zstd" -> Optional.of(Compression.zstd().level(compressionZstdLevel).build());
            default -> Optional.of(Compression.of(compressionType).build());
        };
    }

    /** Whether old segments are deleted by retention ({@code cleanup.policy} contains {@code delete}). */
    public boolean deleteEnabled() {
        return cleanupPolicy.contains(TopicConfig.CLEANUP_POLICY_DELETE);
    }

    /** Whether the log is compacted ({@code cleanup.policy} contains {@code compact}). */
    public boolean compact() {
        return cleanupPolicy.contains(TopicConfig.CLEANUP_POLICY_COMPACT);
    }

    /** The effective value of every topic config, as strings, in definition order. */
    public Map<String, String> values(Map<String, Object> brokerDefaults) {
        Map<String, Object> merged = new HashMap<>(brokerDefaults);
        merged.putAll(overrides);
        Map<String, Object> parsed = CONFIG_DEF.parse(merged);
        Map<String, String> out = new LinkedHashMap<>();
        for (ConfigDef.ConfigKey key : CONFIG_DEF.configKeys().values()) {
            out.put(key.name, ConfigDef.convertToString(parsed.get(key.name), key.type));
        }
        return out;
    }
}
