package io.tributary.restproxy.v3;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.restproxy.testing.HttpJson;
import io.tributary.restproxy.testing.HttpJson.Response;
import io.tributary.restproxy.testing.ProxyTestBase;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class V3ProduceTest extends ProxyTestBase {

    private String cluster;

    @BeforeEach
    void clusterId() {
        cluster = http.get("/v3/clusters").body().get("data").get(0).get("cluster_id").asString();
    }

    @Test
    void producesOneRecordWithTypedKeyAndValueHeadersAndTimestamp() {
        broker().createTopic("v3-produce", 2);
        Response response = http.post("/v3/clusters/" + cluster + "/topics/v3-produce/records", "application/json",
            "{\"partition_id\":1,\"headers\":[{\"name\":\"h\",\"value\":\"AQI=\"}],"
                + "\"key\":{\"type\":\"STRING\",\"data\":\"user-1\"},"
                + "\"value\":{\"type\":\"JSON\",\"data\":{\"clicks\":3}},\"timestamp\":\"2026-01-31T12:00:00Z\"}");

        assertThat(response.status()).isEqualTo(200);
        JsonNode answer = response.body();
        assertThat(answer.get("error_code").asInt()).isEqualTo(200);
        assertThat(answer.get("partition_id").asInt()).isEqualTo(1);
        assertThat(answer.get("offset").asLong()).isZero();
        assertThat(answer.get("timestamp").asString()).isEqualTo("2026-01-31T12:00:00Z");
        assertThat(answer.get("key").get("size").asInt()).isEqualTo(6);
        assertThat(answer.get("value").get("type").asString()).isEqualTo("JSON");

        JsonNode stored = http.get("/topics/v3-produce/partitions/1/records?offset=0&format=binary").body().get(0);
        assertThat(new String(java.util.Base64.getDecoder().decode(stored.get("key").asString()),
            StandardCharsets.UTF_8)).isEqualTo("user-1");
        assertThat(new String(java.util.Base64.getDecoder().decode(stored.get("value").asString()),
            StandardCharsets.UTF_8)).isEqualTo("{\"clicks\":3}");
        assertThat(stored.get("headers").get(0).get("value").asString()).isEqualTo("AQI=");
    }

    @Test
    void aStreamOfRecordsGetsOneAnswerPerRecordInOrder() {
        broker().createTopic("v3-stream", 1);
        String body = "{\"value\":{\"type\":\"STRING\",\"data\":\"a\"}}\n"
            + "{\"value\":{\"type\":\"AVRO\",\"data\":\"b\"}}\n"
            + "{\"value\":{\"type\":\"BINARY\",\"data\":\"Yw==\"}}";
        HttpRequest request = HttpRequest.newBuilder(http.uri("/v3/clusters/" + cluster + "/topics/v3-stream/records"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofInputStream(() ->
                new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8))))
            .build();

        Response response = http.send(request);

        List<JsonNode> answers = response.text().lines().filter(l -> !l.isBlank())
            .map(l -> HttpJson.mapper().readTree(l)).toList();
        assertThat(answers).hasSize(3);
        assertThat(answers.get(0).get("offset").asLong()).isZero();
        assertThat(answers.get(1).get("error_code").asInt()).isEqualTo(400);
        assertThat(answers.get(1).get("message").asString()).contains("AVRO");
        assertThat(answers.get(2).get("offset").asLong()).isEqualTo(1);
    }

    @Test
    void aBatchReportsSuccessesAndFailuresById() {
        broker().createTopic("v3-batch", 1);
        Response response = http.post("/v3/clusters/" + cluster + "/topics/v3-batch/records:batch", "application/json",
            "{\"entries\":[{\"id\":\"a\",\"value\":{\"type\":\"STRING\",\"data\":\"1\"}},"
                + "{\"id\":\"b\",\"partition_id\":5,\"value\":{\"type\":\"STRING\",\"data\":\"2\"}},"
                + "{\"id\":\"c\",\"value\":{\"type\":\"STRING\",\"data\":\"3\"}}]}");

        assertThat(response.status()).isEqualTo(207);
        assertThat(response.body().get("successes")).extracting(s -> s.get("id").asString()).containsExactly("a", "c");
        assertThat(response.body().get("successes").get(1).get("offset").asLong()).isEqualTo(1);
        JsonNode failure = response.body().get("failures").get(0);
        assertThat(failure.get("id").asString()).isEqualTo("b");
        assertThat(failure.get("error_code").asInt()).isEqualTo(40402);
    }

    @Test
    void aBatchWithABadEntryIsRefusedWholeBeforeAnythingIsWritten() {
        broker().createTopic("v3-batch-bad", 1);
        String batch = "/v3/clusters/" + cluster + "/topics/v3-batch-bad/records:batch";

        Response duplicate = http.post(batch, "application/json", "{\"entries\":[{\"id\":\"a\",\"value\":"
            + "{\"type\":\"STRING\",\"data\":\"1\"}},{\"id\":\"a\",\"value\":{\"type\":\"STRING\",\"data\":\"2\"}}]}");
        Response notAnObject = http.post(batch, "application/json", "{\"entries\":[{\"id\":\"a\",\"value\":"
            + "{\"type\":\"STRING\",\"data\":\"1\"}},7]}");
        Response negativeTime = http.post(batch, "application/json", "{\"entries\":[{\"id\":\"t\",\"timestamp\":-7,"
            + "\"value\":{\"type\":\"STRING\",\"data\":\"1\"}}]}");

        assertThat(duplicate.status()).isEqualTo(400);
        assertThat(notAnObject.status()).isEqualTo(400);
        assertThat(negativeTime.status()).isEqualTo(207);
        assertThat(negativeTime.body().get("failures").get(0).get("error_code").asInt()).isEqualTo(400);
        assertThat(http.get("/topics/v3-batch-bad/partitions/0/offsets").body().get("end_offset").asLong()).isZero();
    }

    @Test
    void unknownTopicIs40401() {
        Response response = http.post("/v3/clusters/" + cluster + "/topics/v3-missing/records", "application/json",
            "{\"value\":{\"type\":\"STRING\",\"data\":\"x\"}}");

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.errorCode()).isEqualTo(40401);
    }
}
