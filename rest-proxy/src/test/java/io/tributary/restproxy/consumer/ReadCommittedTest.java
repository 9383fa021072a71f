package io.tributary.restproxy.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.restproxy.testing.HttpJson.Response;
import io.tributary.restproxy.testing.ProxyTestBase;
import io.tributary.restproxy.testing.RestConsumer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Consumer instances read with the {@code isolation.level} their create request gives (KIP-98):
 * {@code read_committed} gets only committed transactions' records, the default
 * ({@code read_uncommitted}, as Confluent's proxy and Kafka) gets aborted ones too, and no instance
 * ever gets a transaction marker as a record. Stateless partition reads take
 * {@code isolation_level} the same way.
 */
class ReadCommittedTest extends ProxyTestBase {

    private static final String JSON = "application/vnd.kafka.json.v2+json";
    private static final String TOPIC = "rest-transactions";

    @BeforeAll
    static void produceTransactions() {
        broker().createTopic(TOPIC, 1);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker().bootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "rest-read-committed"),
            new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            for (String value : List.of("committed-1", "aborted", "committed-2")) {
                producer.beginTransaction();
                producer.send(new ProducerRecord<>(TOPIC, json(value)));
                if (value.startsWith("aborted")) {
                    producer.flush(); // written, then aborted
                    producer.abortTransaction();
                } else {
                    producer.commitTransaction();
                }
            }
        }
    }

    private static byte[] json(String value) {
        return ("\"" + value + "\"").getBytes(StandardCharsets.UTF_8);
    }

    private List<String> readAll(String group, String createBody, int expected) {
        RestConsumer consumer = RestConsumer.create(http, group, createBody);
        assertThat(consumer.subscribe(TOPIC).status()).isEqualTo(204);
        List<JsonNode> records = consumer.readAtLeast(expected, JSON, 30);
        List<JsonNode> more = consumer.readAtLeast(1, JSON, 1);
        consumer.delete();
        records.addAll(more);
        return records.stream().map(r -> r.get("value").asString()).toList();
    }

    @Test
    void aReadCommittedInstanceGetsOnlyCommittedRecords() {
        assertThat(readAll("committed-readers",
            "{\"format\":\"json\",\"auto.offset.reset\":\"earliest\",\"isolation.level\":\"read_committed\"}", 2))
            .containsExactly("committed-1", "committed-2");
    }

    @Test
    void theDefaultInstanceGetsAbortedRecordsTooButNoMarkers() {
        assertThat(readAll("uncommitted-readers", "{\"format\":\"json\",\"auto.offset.reset\":\"earliest\"}", 3))
            .containsExactly("committed-1", "aborted", "committed-2");
    }

    @Test
    void anUnknownIsolationLevelIsRefused() {
        Response response = http.post("/consumers/bad-isolation", RestConsumer.V2,
            "{\"isolation.level\":\"read_some\"}");
        assertThat(response.errorCode()).isEqualTo(42204);
        assertThat(response.text()).contains("read_committed");
    }

    @Test
    void aStatelessReadTakesTheIsolationLevelToo() {
        Response committed = http.get("/topics/" + TOPIC + "/partitions/0/records?offset=0&count=10&format=json"
            + "&isolation_level=read_committed&timeout=2000", JSON);
        Response all = http.get("/topics/" + TOPIC + "/partitions/0/records?offset=0&count=10&format=json&timeout=2000",
            JSON);
        assertThat(values(committed)).containsExactly("committed-1", "committed-2");
        assertThat(values(all)).containsExactly("committed-1", "aborted", "committed-2");
        assertThat(http.get("/topics/" + TOPIC + "/partitions/0/records?offset=0&isolation_level=x", JSON).status())
            .isEqualTo(400);
    }

    private static List<String> values(Response response) {
        assertThat(response.status()).as(response.text()).isEqualTo(200);
        List<String> values = new java.util.ArrayList<>();
        response.body().forEach(r -> values.add(r.get("value").asString()));
        return values;
    }
}
