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
        Map<String, Object> settings = base(login, clientId, autoOffsetReset);
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        return create(settings);
    }

    /** A consumer without a group, for {@code assign} and {@code seek} only. */
    public KafkaConsumer<byte[], byte[]> groupless(KafkaLogin login, String clientId, String autoOffsetReset) {
        Map<String, Object> settings = base(login, clientId, autoOffsetReset);
        settings.remove(ConsumerConfig.GROUP_ID_CONFIG);
        return create(settings);
    }

    private Map<String, Object> base(KafkaLogin login, String clientId, String autoOffsetReset) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, autoOffsetReset);
        settings.putAll(this.settings.consumer(login));
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, autoOffsetReset);
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
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
