package io.tributary.restproxy.config;

import io.tributary.restproxy.error.InvalidConsumerConfigException;
import io.tributary.restproxy.error.KafkaErrors;
import io.tributary.restproxy.security.KafkaLogin;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.springframework.stereotype.Component;

/**
 * Creates the proxy's Kafka consumers (byte-array keys and values) from {@code kafka.*}: group
 * members for consumer instances, and group-less assign-mode consumers for reads, streams and
 * searches. Each logs in as the {@link KafkaLogin} it is made for, the caller who started the
 * work (captured on the request thread: consumers are used on other threads). Offsets are never
 * auto-committed by Kafka's client: the proxy commits what its readers consumed. Thread-safe; each
 * consumer it returns is owned by the caller, who closes it.
 */
@Component
public class KafkaConsumerFactory {

    private final KafkaClientSettings settings;

    public KafkaConsumerFactory(KafkaClientSettings settings) {
        this.settings = settings;
    }

    /**
     * A consumer in {@code group}, not yet subscribed.
     *
     * @throws InvalidConsumerConfigException when Kafka's consumer refuses the settings
     */
    public KafkaConsumer<byte[], byte[]> member(KafkaLogin login, String group, String clientId,
            String autoOffsetReset) {
        return member(login, group, clientId, autoOffsetReset, null);
    }

    /**
     * As {@link #member(KafkaLogin, String, String, String)}, reading with {@code isolationLevel}
     * ({@code read_committed} or {@code read_uncommitted}; null for the {@code kafka.*} settings'
     * or Kafka's default, read_uncommitted).
     */
    public KafkaConsumer<byte[], byte[]> member(KafkaLogin login, String group, String clientId,
            String autoOffsetReset, String isolationLevel) {
        Map<String, Object> settings = base(login, clientId, autoOffsetReset, isolationLevel);
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        return create(settings);
    }

    /**
     * Settings of the {@code kafka.consumer.*} map that Kafka's share consumer refuses (KIP-932: a
     * share group has no offsets to reset or commit, no static members, no assignor of the client's).
     */
    private static final Set<String> NOT_FOR_SHARE_CONSUMERS = Set.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, ConsumerConfig.GROUP_INSTANCE_ID_CONFIG,
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
        ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG, ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG,
        ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, ConsumerConfig.GROUP_PROTOCOL_CONFIG,
        ConsumerConfig.GROUP_REMOTE_ASSIGNOR_CONFIG);

    /**
     * A share consumer (KIP-932) in share group {@code group}, not yet subscribed, acknowledging
     * explicitly ({@code share.acknowledgement.mode=explicit}): every record a poll returns must be
     * acknowledged before the next poll.
     *
     * @param maxPollRecords most records one poll returns; null for the settings' or Kafka's default (500)
     * @throws InvalidConsumerConfigException when Kafka's share consumer refuses the settings
     */
    public KafkaShareConsumer<byte[], byte[]> shareMember(KafkaLogin login, String group, String clientId,
            Integer maxPollRecords) {
        Map<String, Object> settings = new HashMap<>(this.settings.consumer(login));
        settings.keySet().removeAll(NOT_FOR_SHARE_CONSUMERS);
        settings.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        settings.put(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "explicit");
        if (maxPollRecords != null) {
            settings.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, maxPollRecords);
        }
        try {
            return new KafkaShareConsumer<>(settings, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        } catch (KafkaException e) {
            throw new InvalidConsumerConfigException(KafkaErrors.describe(e));
        }
    }

    /** A consumer without a group, for {@code assign} and {@code seek} only. */
    public KafkaConsumer<byte[], byte[]> groupless(KafkaLogin login, String clientId, String autoOffsetReset) {
        return groupless(login, clientId, autoOffsetReset, null);
    }

    /** As {@link #groupless(KafkaLogin, String, String)}, reading with {@code isolationLevel} (null: the default). */
    public KafkaConsumer<byte[], byte[]> groupless(KafkaLogin login, String clientId, String autoOffsetReset,
            String isolationLevel) {
        Map<String, Object> settings = base(login, clientId, autoOffsetReset, isolationLevel);
        settings.remove(ConsumerConfig.GROUP_ID_CONFIG);
        return create(settings);
    }

    /**
     * Kafka's name of an isolation level given over HTTP, case-insensitive.
     *
     * @return {@code read_committed}, {@code read_uncommitted}, or null for null
     * @throws InvalidConsumerConfigException for any other value
     */
    public static String isolationLevel(String value) {
        if (value == null) {
            return null;
        }
        String level = value.trim().toLowerCase(java.util.Locale.ROOT);
        if (!level.equals("read_committed") && !level.equals("read_uncommitted")) {
            throw new InvalidConsumerConfigException("isolation.level '" + value
                + "' is not one of read_committed, read_uncommitted");
        }
        return level;
    }

    private Map<String, Object> base(KafkaLogin login, String clientId, String autoOffsetReset, String isolationLevel) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, autoOffsetReset);
        settings.putAll(this.settings.consumer(login));
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, autoOffsetReset);
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        if (isolationLevel != null) {
            settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolationLevel);
        }
        return settings;
    }

    private static KafkaConsumer<byte[], byte[]> create(Map<String, Object> settings) {
        try {
            return new KafkaConsumer<>(settings, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        } catch (KafkaException e) {
            throw new InvalidConsumerConfigException(KafkaErrors.describe(e));
        }
    }
}
