package io.tributary.restproxy.share;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.restproxy.testing.HttpJson.Response;
import io.tributary.restproxy.testing.ProxyTestBase;
import io.tributary.restproxy.testing.RestShareConsumer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The queue API over share groups (KIP-932) end to end: HTTP to the proxy, Kafka's share consumer
 * to a real broker. Each test uses its own topic (one partition) and share group, set to read from
 * the earliest offset.
 */
class ShareQueueTest extends ProxyTestBase {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void twoInstancesOnOnePartitionEachGetRecordsAndEveryRecordIsDeliveredOnce() {
        String topic = topicWithGroup("jobs", "workers", Map.of());
        List<String> produced = produce(topic, 10);
        RestShareConsumer a = RestShareConsumer.create(http, "workers", "{\"format\":\"json\",\"max.poll.records\":2}");
        RestShareConsumer b = RestShareConsumer.create(http, "workers", "{\"format\":\"json\",\"max.poll.records\":2}");
        assertThat(a.subscribe(topic).status()).isEqualTo(204);
        assertThat(b.subscribe(topic).status()).isEqualTo(204);

        // A holds its first batch unacknowledged, so what B reads meanwhile are other records.
        List<JsonNode> firstOfA = readSome(a);
        List<JsonNode> firstOfB = readSome(b);
        assertThat(values(firstOfA)).doesNotContainAnyElementsOf(values(firstOfB));
        List<String> received = new ArrayList<>(values(firstOfA));
        received.addAll(values(firstOfB));
        assertThat(a.acknowledge(firstOfA, "ACCEPT").status()).isEqualTo(200);
        assertThat(b.acknowledge(firstOfB, "ACCEPT").status()).isEqualTo(200);
        List<JsonNode> all = new ArrayList<>(firstOfA);
        all.addAll(firstOfB);
        await().atMost(WAIT).until(() -> {
            for (RestShareConsumer instance : List.of(a, b)) {
                List<JsonNode> batch = instance.read(500);
                all.addAll(batch);
                received.addAll(values(batch));
                if (!batch.isEmpty()) {
                    assertThat(instance.acknowledge(batch, "ACCEPT").status()).isEqualTo(200);
                }
            }
            return received.size() >= produced.size();
        });

        assertThat(received).containsExactlyInAnyOrderElementsOf(produced);
        assertThat(all).allSatisfy(record -> {
            assertThat(record.get("topic").asString()).isEqualTo(topic);
            assertThat(record.get("partition").asInt()).isZero();
            assertThat(record.get("delivery_count").asInt()).isEqualTo(1);
            assertThat(record.get("key").asString()).startsWith("key-");
            assertThat(record.get("headers").get(0).get("key").asString()).isEqualTo("source");
            assertThat(record.get("headers").get(0).get("value").asString()).isEqualTo("test");
        });
        assertThat(a.delete().status()).isEqualTo(204);
        assertThat(b.delete().status()).isEqualTo(204);
    }

    @Test
    void releasedRecordsComeBackWithDeliveryCountTwoAndRejectedOnesNever() {
        String topic = topicWithGroup("tasks", "checkers", Map.of());
        produceInOneBatch(topic, 3);
        RestShareConsumer consumer = RestShareConsumer.create(http, "checkers", "{\"format\":\"json\"}");
        consumer.subscribe(topic);
        List<JsonNode> batch = readSome(consumer);
        Map<String, JsonNode> byValue = new HashMap<>();
        batch.forEach(r -> byValue.put(r.get("value").asString(), r));
        assertThat(byValue).containsKeys("value-0", "value-1", "value-2");

        Response answer = consumer.acknowledge(Map.of("acknowledgements", List.of(
            ack(byValue.get("value-0"), "ACCEPT"), ack(byValue.get("value-1"), "release"),
            ack(byValue.get("value-2"), "REJECT"))));
        assertThat(answer.status()).as(answer.text()).isEqualTo(200);
        assertThat(answer.body().get("acknowledged").asInt()).isEqualTo(3);
        assertThat(answer.body().get("still_held").asInt()).isZero();

        List<JsonNode> again = readSome(consumer);
        assertThat(again).hasSize(1);
        assertThat(again.get(0).get("value").asString()).isEqualTo("value-1");
        assertThat(again.get(0).get("delivery_count").asInt()).isEqualTo(2);
        assertThat(consumer.acknowledge(Map.of("type", "ACCEPT")).body().get("acknowledged").asInt()).isEqualTo(1);
        assertThat(consumer.read(1500)).as("rejected and accepted records never come back").isEmpty();
        consumer.delete();
    }

    @Test
    void aReadIsRefusedUntilTheBatchBeforeIsAcknowledged() {
        String topic = topicWithGroup("orders", "packers", Map.of());
        produce(topic, 4);
        RestShareConsumer consumer = RestShareConsumer.create(http, "packers",
            "{\"format\":\"json\",\"max.poll.records\":2,\"share.acknowledgement.mode\":\"explicit\"}");
        consumer.subscribe(topic);
        List<JsonNode> batch = readSome(consumer);

        Response refused = consumer.records(0);
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.errorCode()).isEqualTo(40904);
        assertThat(refused.body().get("message").asString()).contains("not acknowledged");
        consumer.acknowledge(batch.subList(0, 1), "ACCEPT");
        assertThat(consumer.records(0).errorCode()).as("one record still held").isEqualTo(40904);
        Response again = consumer.acknowledge(batch.subList(0, 1), "ACCEPT");
        assertThat(again.status()).as("acknowledged already").isEqualTo(409);
        assertThat(again.errorCode()).isEqualTo(40905);
        assertThat(consumer.acknowledge(Map.of("type", "ACCEPT")).status()).isEqualTo(200);

        assertThat(readSome(consumer)).isNotEmpty();
        consumer.delete();
    }

    @Test
    void aRenewedRecordComesBackToTheSameInstanceWithoutANewDelivery() {
        String topic = topicWithGroup("leases", "renewers", Map.of());
        produce(topic, 1);
        RestShareConsumer consumer = RestShareConsumer.create(http, "renewers", "{\"format\":\"json\"}");
        consumer.subscribe(topic);
        List<JsonNode> batch = readSome(consumer);

        Response renewed = consumer.acknowledge(batch, "RENEW");
        assertThat(renewed.status()).as(renewed.text()).isEqualTo(200);
        assertThat(renewed.body().get("still_held").asInt()).isZero();
        List<JsonNode> again = readSome(consumer);
        assertThat(again).hasSize(1);
        assertThat(again.get(0).get("offset").asLong()).isEqualTo(batch.get(0).get("offset").asLong());
        assertThat(again.get(0).get("delivery_count").asInt()).isEqualTo(1);
        Response accepted = consumer.acknowledge(again, "ACCEPT");
        assertThat(accepted.status()).as(accepted.text()).isEqualTo(200);
        assertThat(consumer.read(1000)).isEmpty();
        consumer.delete();
    }

    @Test
    void recordsOfADeletedInstanceGoToTheOtherOne() {
        String topic = topicWithGroup("alerts", "pagers", Map.of());
        produce(topic, 2);
        RestShareConsumer dying = RestShareConsumer.create(http, "pagers", "{\"format\":\"json\"}");
        dying.subscribe(topic);
        List<JsonNode> held = readSome(dying);
        RestShareConsumer survivor = RestShareConsumer.create(http, "pagers", "{\"format\":\"json\"}");
        survivor.subscribe(topic);

        assertThat(dying.delete().status()).isEqualTo(204);

        List<JsonNode> redelivered = new ArrayList<>();
        await().atMost(WAIT).until(() -> {
            List<JsonNode> batch = survivor.read(1000);
            redelivered.addAll(batch);
            if (!batch.isEmpty()) {
                survivor.acknowledge(batch, "ACCEPT");
            }
            return values(redelivered).containsAll(values(held));
        });
        assertThat(redelivered).filteredOn(r -> values(held).contains(r.get("value").asString()))
            .allSatisfy(r -> assertThat(r.get("delivery_count").asInt()).isEqualTo(2));
        survivor.delete();
    }

    @Test
    void aRecordWhoseLockExpiresGoesToAnotherInstanceAndItsLateAcknowledgementIsRefused() {
        // Kafka's smallest lock a group may set (group.share.min.record.lock.duration.ms).
        String topic = topicWithGroup("slow", "sleepers", Map.of("share.record.lock.duration.ms", "15000"));
        produce(topic, 1);
        RestShareConsumer slow = RestShareConsumer.create(http, "sleepers", "{\"format\":\"json\"}");
        slow.subscribe(topic);
        List<JsonNode> held = readSome(slow);
        RestShareConsumer other = RestShareConsumer.create(http, "sleepers", "{\"format\":\"json\"}");
        other.subscribe(topic);

        List<JsonNode> redelivered = new ArrayList<>();
        await().atMost(WAIT).until(() -> {
            redelivered.addAll(other.read(2000));
            return !redelivered.isEmpty();
        });
        assertThat(values(redelivered)).isEqualTo(values(held));
        assertThat(redelivered.get(0).get("delivery_count").asInt()).isEqualTo(2);

        Response late = slow.acknowledge(held, "ACCEPT");
        assertThat(late.status()).as(late.text()).isEqualTo(409);
        assertThat(late.errorCode()).isEqualTo(40905);
        assertThat(other.acknowledge(redelivered, "ACCEPT").status()).isEqualTo(200);
        slow.delete();
        other.delete();
    }

    @Test
    void errorsAnswerConfluentBodies() {
        Response unknown = http.get("/share-groups/nobody/instances/nothing/records?timeout=0",
            RestShareConsumer.JSON);
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.errorCode()).isEqualTo(40403);
        assertThat(unknown.body().get("message").asString()).isNotBlank();
        assertThat(http.delete("/share-groups/nobody/instances/nothing").errorCode()).isEqualTo(40403);

        Response implicit = http.post("/share-groups/g/instances", "application/json",
            "{\"share.acknowledgement.mode\":\"implicit\"}");
        assertThat(implicit.status()).isEqualTo(422);
        assertThat(implicit.errorCode()).isEqualTo(42204);

        RestShareConsumer consumer = RestShareConsumer.create(http, "errors", "{\"name\":\"e1\"}");
        assertThat(http.post("/share-groups/errors/instances", "application/json", "{\"name\":\"e1\"}").errorCode())
            .isEqualTo(40902);
        Response notSubscribed = consumer.records(0);
        assertThat(notSubscribed.status()).isEqualTo(409);
        assertThat(notSubscribed.errorCode()).isEqualTo(40903);
        Response badType = consumer.acknowledge(Map.of("acknowledgements", List.of(Map.of("topic", "t",
            "partition", 0, "offset", 1, "type", "MAYBE"))));
        assertThat(badType.status()).isEqualTo(422);
        assertThat(badType.errorCode()).isEqualTo(422);
        assertThat(badType.body().get("message").asString()).contains("MAYBE");
        Response notHeld = consumer.acknowledge(Map.of("acknowledgements", List.of(Map.of("topic", "t",
            "partition", 0, "offset", 1, "type", "ACCEPT"))));
        assertThat(notHeld.status()).isEqualTo(409);
        assertThat(notHeld.errorCode()).isEqualTo(40905);
        assertThat(consumer.delete().status()).isEqualTo(204);
        assertThat(consumer.records(0).errorCode()).isEqualTo(40403);
    }

    /** Creates a one-partition topic and sets its share group to read from the start (plus {@code configs}). */
    private static String topicWithGroup(String topic, String group, Map<String, String> configs) {
        broker().createTopic(topic, 1);
        RestShareConsumer.configureGroup(broker(), group, configs);
        return topic;
    }

    /** Reads until a batch comes (the first read of a new member waits for its assignment). */
    private static List<JsonNode> readSome(RestShareConsumer consumer) {
        List<JsonNode> batch = new ArrayList<>();
        await().atMost(WAIT).until(() -> {
            batch.addAll(consumer.read(2000));
            return !batch.isEmpty();
        });
        return batch;
    }

    /** Produces {@code value-0} ... one request each (so in separate batches), keyed, with a header. */
    private static List<String> produce(String topic, int count) {
        return produce(topic, count, true);
    }

    /** Produces {@code value-0} ... in one record batch, so one fetch gets them all. */
    private static List<String> produceInOneBatch(String topic, int count) {
        return produce(topic, count, false);
    }

    private static List<String> produce(String topic, int count, boolean separateBatches) {
        Map<String, Object> settings = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker().bootstrapServers(),
            ProducerConfig.LINGER_MS_CONFIG, 100);
        List<String> values = new ArrayList<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(settings, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                ProducerRecord<String, String> record = new ProducerRecord<>(topic, "key-" + i, "value-" + i);
                record.headers().add("source", "test".getBytes(StandardCharsets.UTF_8));
                producer.send(record);
                if (separateBatches) {
                    producer.flush();
                }
                values.add("value-" + i);
            }
        }
        return values;
    }

    private static Map<String, Object> ack(JsonNode record, String type) {
        return Map.of("topic", record.get("topic").asString(), "partition", record.get("partition").asInt(),
            "offset", record.get("offset").asLong(), "type", type);
    }

    private static List<String> values(List<JsonNode> records) {
        return records.stream().map(r -> r.get("value").asString()).toList();
    }
}
