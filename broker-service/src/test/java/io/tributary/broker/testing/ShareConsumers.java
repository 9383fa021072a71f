package io.tributary.broker.testing;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * kafka-clients share consumers (KIP-932) for tests: one with implicit acknowledgement subscribed to
 * a topic, and a poll loop that collects what it is given. Not thread-safe, as the consumer is not.
 */
public final class ShareConsumers {

    private ShareConsumers() {
    }

    /**
     * A share consumer of {@code group} subscribed to {@code topic}, with string keys and values and
     * {@code share.acknowledgement.mode=implicit} (each poll accepts what the previous one gave); close it.
     */
    public static KafkaShareConsumer<String, String> implicit(String bootstrapServers, String group, String topic) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put("share.acknowledgement.mode", "implicit");
        KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(p, new StringDeserializer(),
            new StringDeserializer());
        consumer.subscribe(List.of(topic));
        return consumer;
    }

    /**
     * Polls until {@code count} values came (within 60 s), then once more for 300 ms to catch any value
     * too many; the values in the order received.
     *
     * @throws org.awaitility.core.ConditionTimeoutException when fewer came within 60 s
     */
    public static List<String> pollUntil(KafkaShareConsumer<String, String> consumer, int count) {
        List<String> values = new ArrayList<>();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
                values.add(r.value());
            }
            return values.size() >= count;
        });
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(300))) {
            values.add(r.value());
        }
        return values;
    }
}
