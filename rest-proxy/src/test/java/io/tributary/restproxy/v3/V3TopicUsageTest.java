package io.tributary.restproxy.v3;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.restproxy.testing.HttpJson.Response;
import io.tributary.restproxy.testing.ProxyTestBase;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code GET /v3/clusters/{c}/topic-usage}: message counts (end - start offsets) and leader bytes on
 * disk of topics with known records, and internal topics in the topic list.
 */
class V3TopicUsageTest extends ProxyTestBase {

    private static final int VALUE_BYTES = 1000;

    @Test
    void countsRecordsAndBytesOfTheNamedTopics() throws Exception {
        String suffix = Long.toHexString(System.nanoTime());
        String big = "usage-big-" + suffix;
        String small = "usage-small-" + suffix;
        String empty = "usage-empty-" + suffix;
        broker().createTopic(big, 3);
        broker().createTopic(small, 1);
        broker().createTopic(empty, 2);
        produce(big, 30);
        produce(small, 5);
        String cluster = http.get("/v3/clusters").body().get("data").get(0).get("cluster_id").asString();

        Response response = http.get("/v3/clusters/" + cluster + "/topic-usage?topic=" + big + "&topic=" + small
            + "&topic=" + empty + "&topic=no-such-topic-" + suffix);

        assertThat(response.status()).isEqualTo(200);
        Map<String, JsonNode> usage = response.body().get("data").valueStream()
            .collect(Collectors.toMap(u -> u.get("topic_name").asString(), u -> u));
        assertThat(usage).containsOnlyKeys(big, small, empty);
        assertThat(usage.get(big).get("message_count").asLong()).isEqualTo(30);
        assertThat(usage.get(small).get("message_count").asLong()).isEqualTo(5);
        assertThat(usage.get(empty).get("message_count").asLong()).isZero();
        assertThat(usage.get(big).get("size_bytes").asLong()).as("30 values of 1000 bytes, plus framing")
            .isBetween(30L * VALUE_BYTES, 30L * VALUE_BYTES + 30 * 200);
        assertThat(usage.get(small).get("size_bytes").asLong()).isBetween(5L * VALUE_BYTES, 5L * VALUE_BYTES + 5 * 200);
        assertThat(usage.get(empty).get("size_bytes").asLong()).isZero();
        assertThat(usage.get(big).get("offline_partitions_count").asInt()).isZero();
    }

    @Test
    void theTopicListAndUsageIncludeInternalTopics() throws Exception {
        String topic = "usage-offsets-" + Long.toHexString(System.nanoTime());
        broker().createTopic(topic, 1);
        commitAnOffset(topic); // makes sure __consumer_offsets exists
        String cluster = http.get("/v3/clusters").body().get("data").get(0).get("cluster_id").asString();

        JsonNode offsets = http.get("/v3/clusters/" + cluster + "/topics").body().get("data").valueStream()
            .filter(t -> t.get("topic_name").asString().equals("__consumer_offsets")).findFirst().orElseThrow();
        assertThat(offsets.get("is_internal").asBoolean()).isTrue();
        JsonNode usage = http.get("/v3/clusters/" + cluster + "/topic-usage").body().get("data").valueStream()
            .filter(t -> t.get("topic_name").asString().equals("__consumer_offsets")).findFirst().orElseThrow();
        assertThat(usage.get("message_count").asLong()).as("at least the commit").isPositive();
    }

    private void produce(String topic, int records) throws Exception {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker().bootstrapServers());
        config.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(topic, null, "x".repeat(VALUE_BYTES))).get(30, TimeUnit.SECONDS);
            }
        }
    }

    private void commitAnOffset(String topic) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker().bootstrapServers());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "usage-group-" + topic);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.commitSync(Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(0)));
        }
    }
}
