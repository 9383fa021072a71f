package io.tributary.restproxy.v3;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.restproxy.testing.HttpJson.Response;
import io.tributary.restproxy.testing.ProxyTestBase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The v3 transactions API against the real broker: an open transaction is listed by its
 * coordinator and found on its partitions, held (not hanging), and an operator's abort on one
 * partition closes it there and lets read_committed readers past it.
 */
class V3TransactionsTest extends ProxyTestBase {

    private String cluster;

    @BeforeEach
    void cluster() {
        cluster = http.get("/v3/clusters").body().get("data").get(0).get("cluster_id").asString();
    }

    private static KafkaProducer<byte[], byte[]> transactional(String id) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker().bootstrapServers(),
            ProducerConfig.TRANSACTIONAL_ID_CONFIG, id), new ByteArraySerializer(), new ByteArraySerializer());
    }

    @Test
    void anOpenTransactionIsListedFoundOnItsPartitionsAndAbortedOnOne() throws Exception {
        broker().createTopic("v3-txn", 2);
        try (KafkaProducer<byte[], byte[]> producer = transactional("v3-txn-open")) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("v3-txn", 0, null, "open-0".getBytes())).get();
            producer.send(new ProducerRecord<>("v3-txn", 1, null, "open-1".getBytes())).get();

            JsonNode listed = find(http.get("/v3/clusters/" + cluster + "/transactions").body().get("data"),
                "transactional_id", "v3-txn-open");
            assertThat(listed.get("state").asString()).isEqualTo("Ongoing");
            assertThat(listed.get("partitions")).hasSize(2);
            assertThat(listed.get("age_ms").asLong()).isNotNegative();
            Response described = http.get("/v3/clusters/" + cluster + "/transactions/v3-txn-open");
            assertThat(described.body().get("producer_id").asLong()).isEqualTo(listed.get("producer_id").asLong());

            List<JsonNode> open = open();
            assertThat(open).hasSize(2).allSatisfy(t -> {
                assertThat(t.get("transactional_id").asString()).isEqualTo("v3-txn-open");
                assertThat(t.get("hanging").asBoolean()).isFalse();
                assertThat(t.get("start_offset").asLong()).isZero();
            });

            Response wrongOffset = http.post("/v3/clusters/" + cluster + "/topics/v3-txn/partitions/0/transactions:abort",
                "application/json", "{\"start_offset\":1}");
            assertThat(wrongOffset.status()).as("no transaction starts there").isEqualTo(404);
            Response abort = http.post("/v3/clusters/" + cluster + "/topics/v3-txn/partitions/0/transactions:abort",
                "application/json", "{\"start_offset\":0,\"producer_id\":" + listed.get("producer_id").asLong() + "}");
            assertThat(abort.status()).as(abort.text()).isEqualTo(204);
            assertThat(open()).singleElement().satisfies(t -> assertThat(t.get("partition_id").asInt()).isEqualTo(1));
            // Partition 0's LSO moved past the aborted record; partition 1 still holds its readers back.
            assertThat(broker().records("v3-txn", true)).isEmpty();
            assertThat(broker().records("v3-txn", false)).hasSize(2);

            Response again = http.post("/v3/clusters/" + cluster + "/topics/v3-txn/partitions/0/transactions:abort",
                "application/json", "{\"start_offset\":0}");
            assertThat(again.status()).isEqualTo(404);
        }
    }

    @Test
    void unknownIdsAndBadBodiesAreRefused() {
        broker().createTopic("v3-txn-errors", 1);
        assertThat(http.get("/v3/clusters/" + cluster + "/transactions/never-used").status()).isEqualTo(404);
        assertThat(http.post("/v3/clusters/" + cluster + "/topics/v3-txn-errors/partitions/0/transactions:abort",
            "application/json", "{\"producer_id\":7}").status()).isEqualTo(400);
        assertThat(http.post("/v3/clusters/" + cluster + "/topics/v3-txn-errors/partitions/0/transactions:abort",
            "application/json", "{\"start_offset\":0,\"producer_id\":12345}").status()).isEqualTo(404);
        assertThat(http.get("/v3/clusters/" + cluster + "/open-transactions?topic=v3-txn-missing").errorCode())
            .isEqualTo(40401);
    }

    private List<JsonNode> open() {
        Response response = http.get("/v3/clusters/" + cluster + "/open-transactions?topic=v3-txn");
        assertThat(response.status()).as(response.text()).isEqualTo(200);
        List<JsonNode> open = new ArrayList<>();
        response.body().get("data").forEach(open::add);
        return open;
    }

    private static JsonNode find(JsonNode list, String field, String value) {
        for (JsonNode item : list) {
            if (item.get(field).asString().equals(value)) {
                return item;
            }
        }
        throw new AssertionError("no " + field + "=" + value + " in " + list);
    }
}
