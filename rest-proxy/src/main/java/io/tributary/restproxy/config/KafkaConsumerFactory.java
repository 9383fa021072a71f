package io.tributary.restproxy.config;

import io.tributary.restproxy.error.InvalidConsumerConfigException;
import io.tributary.restproxy.error.KafkaErrors;
import io.tributary.restproxy.security.KafkaLogin;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
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
