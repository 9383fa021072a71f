package io.tributary.restproxy.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.restproxy.testing.HttpJson.Response;
import io.tributary.restproxy.testing.ProxyTestBase;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class SearchTest extends ProxyTestBase {

    private String cluster;

    @BeforeEach
    void clusterId() {
        cluster = http.get("/v3/clusters").body().get("data").get(0).get("cluster_id").asString();
    }

    @Test
    void findsEveryMatchAcrossPartitionsAndReportsProgress() throws Exception {
        broker().createTopic("search-all", 3);
        produce("search-all", 3000, i -> i % 100 == 7 ? "order " + i + " needle here" : "order " + i);
        String searches = "/v3/clusters/" + cluster + "/topics/search-all/searches";

        Response started = http.post(searches, "application/json", "{\"query\":\"needle\",\"in\":\"value\"}");
        assertThat(started.status()).isEqualTo(202);
        JsonNode status = await(searches + "/" + started.body().get("search_id").asString());

        assertThat(status.get("state").asString()).isEqualTo("DONE");
        assertThat(status.get("scanned").asLong()).isEqualTo(3000);
        assertThat(status.get("total").asLong()).isEqualTo(3000);
        assertThat(status.get("matched").asInt()).isEqualTo(30);
        Set<String> found = new HashSet<>();
        Integer cursor = 0;
        while (cursor != null) {
            JsonNode page = http.get(searches + "/" + started.body().get("search_id").asString()
                + "/results?limit=7&cursor=" + cursor).body();
            page.get("data").forEach(r -> found.add(r.get("value").asString()));
            cursor = page.get("next_cursor").isNull() ? null : page.get("next_cursor").asInt();
        }
        assertThat(found).hasSize(30).allMatch(v -> v.contains("needle"));
    }

    @Test
    void stopsAtItsRecordLimitAndItsTimeBudget() throws Exception {
        broker().createTopic("search-bounded", 1);
        produce("search-bounded", 500, i -> "r" + i);
        String searches = "/v3/clusters/" + cluster + "/topics/search-bounded/searches";

        JsonNode limited = await(searches + "/" + http.post(searches, "application/json",
            "{\"query\":\"zzz\",\"max_records\":100}").body().get("search_id").asString());
        JsonNode budget = await(searches + "/" + http.post(searches, "application/json",
            "{\"query\":\"zzz\",\"time_budget_ms\":1}").body().get("search_id").asString());

        assertThat(limited.get("state").asString()).isEqualTo("RECORD_LIMIT_REACHED");
        assertThat(limited.get("scanned").asLong()).isEqualTo(100);
        assertThat(limited.get("total").asLong()).isEqualTo(500);
        assertThat(budget.get("state").asString()).isEqualTo("TIME_BUDGET_EXHAUSTED");
    }

    @Test
    void aCancelledSearchStopsBeforeTheEnd() throws Exception {
        broker().createTopic("search-cancel", 1);
        produce("search-cancel", 200_000, i -> "value " + i);
        String searches = "/v3/clusters/" + cluster + "/topics/search-cancel/searches";

        String id = http.post(searches, "application/json", "{\"query\":\"nothing like this\"}").body()
            .get("search_id").asString();
        assertThat(http.delete(searches + "/" + id).status()).isEqualTo(204);
        JsonNode status = await(searches + "/" + id);

        assertThat(status.get("state").asString()).isEqualTo("CANCELLED");
        assertThat(status.get("scanned").asLong()).isLessThan(200_000);
    }

    @Test
    void boundsAboveTheLimitsAndOtherClustersAreRefused() {
        broker().createTopic("search-limits", 1);
        String searches = "/v3/clusters/" + cluster + "/topics/search-limits/searches";

        Response tooMany = http.post(searches, "application/json", "{\"query\":\"x\",\"max_matches\":2000000000}");
        Response tooLong = http.post(searches, "application/json", "{\"query\":\"x\",\"time_budget_ms\":100000000000}");
        String id = http.post(searches, "application/json", "{\"query\":\"x\"}").body().get("search_id").asString();

        assertThat(tooMany.status()).isEqualTo(400);
        assertThat(tooLong.status()).isEqualTo(400);
        assertThat(http.get("/v3/clusters/bogus/topics/search-limits/searches/" + id).status()).isEqualTo(404);
    }

    @Test
    void unknownSearchIs404AndUnknownTopic40401() {
        String searches = "/v3/clusters/" + cluster + "/topics/search-missing/searches";
        assertThat(http.post(searches, "application/json", "{\"query\":\"x\"}").errorCode()).isEqualTo(40401);
        assertThat(http.get(searches + "/nope").status()).isEqualTo(404);
    }

    private JsonNode await(String statusPath) {
        return Awaitility.await("the search ends").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
            .until(() -> http.get(statusPath).body(), status -> !status.get("state").asString().equals("RUNNING"));
    }

    private void produce(String topic, int count, java.util.function.IntFunction<String> value) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker().bootstrapServers(),
                ProducerConfig.LINGER_MS_CONFIG, 5), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, null, value.apply(i).getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }
    }
}
