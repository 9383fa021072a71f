package io.tributary.restproxy.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.restproxy.testing.HttpJson.Response;
import io.tributary.restproxy.testing.ProxyTestBase;
import io.tributary.restproxy.testing.RestConsumer;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ConsumerAssignAndSeekTest extends ProxyTestBase {

    private static final String JSON = "application/vnd.kafka.json.v2+json";

    @Test
    void assignedPartitionsAreReadFromWhereTheInstanceSeeks() {
        broker().createTopic("seek-me", 2);
        http.post("/topics/seek-me/partitions/1", JSON,
            "{\"records\":[{\"value\":0},{\"value\":1},{\"value\":2},{\"value\":3}]}");
        RestConsumer consumer = RestConsumer.create(http, "seek-group",
            "{\"format\":\"json\",\"auto.commit.enable\":\"false\"}");

        assertThat(consumer.post("/assignments", "{\"partitions\":[{\"topic\":\"seek-me\",\"partition\":1}]}").status())
            .isEqualTo(204);
        assertThat(http.get(consumer.baseUri() + "/assignments").body().get("partitions").get(0).get("partition")
            .asInt()).isEqualTo(1);
        assertThat(consumer.post("/positions",
            "{\"offsets\":[{\"topic\":\"seek-me\",\"partition\":1,\"offset\":2}]}").status()).isEqualTo(204);
        List<JsonNode> fromTwo = consumer.readAtLeast(2, JSON, 10);
        assertThat(fromTwo).extracting(r -> r.get("value").asInt()).containsExactly(2, 3);

        consumer.post("/positions/beginning", "{\"partitions\":[{\"topic\":\"seek-me\",\"partition\":1}]}");
        assertThat(consumer.readAtLeast(4, JSON, 10)).extracting(r -> r.get("offset").asLong())
            .containsExactly(0L, 1L, 2L, 3L);

        consumer.post("/positions/end", "{\"partitions\":[{\"topic\":\"seek-me\",\"partition\":1}]}");
        assertThat(consumer.records(300, JSON).body()).isEmpty();
        http.post("/topics/seek-me/partitions/1", JSON, "{\"records\":[{\"value\":4}]}");
        assertThat(consumer.readAtLeast(1, JSON, 10).get(0).get("value").asInt()).isEqualTo(4);
        consumer.delete();
    }

    @Test
    void committingEverythingAfterASeekCommitsTheNewPosition() {
        broker().createTopic("seek-commit", 1);
        http.post("/topics/seek-commit", JSON, "{\"records\":[{\"value\":0},{\"value\":1},{\"value\":2}]}");
        RestConsumer consumer = RestConsumer.create(http, "seek-commit-group",
            "{\"format\":\"json\",\"auto.offset.reset\":\"earliest\",\"auto.commit.enable\":\"false\"}");
        consumer.post("/assignments", "{\"partitions\":[{\"topic\":\"seek-commit\",\"partition\":0}]}");
        assertThat(consumer.readAtLeast(2, JSON, 10)).isNotEmpty();

        consumer.post("/positions", "{\"offsets\":[{\"topic\":\"seek-commit\",\"partition\":0,\"offset\":0}]}");
        consumer.commitAll();

        Response committed = consumer.committed("{\"partitions\":[{\"topic\":\"seek-commit\",\"partition\":0}]}");
        assertThat(committed.body().get("offsets").get(0).get("offset").asLong()).isZero();
        consumer.delete();
    }

    @Test
    void aPollErrorIsReportedOnEveryReadUntilASeekFixesIt() throws Exception {
        broker().createTopic("no-reset", 1);
        http.post("/topics/no-reset", JSON, "{\"records\":[{\"value\":0}]}");
        RestConsumer consumer = RestConsumer.create(http, "no-reset-group",
            "{\"format\":\"json\",\"auto.offset.reset\":\"none\"}");
        consumer.subscribe("no-reset");

        Response first = consumer.records(1000, JSON);
        for (int i = 0; i < 20 && first.status() == 200; i++) {
            first = consumer.records(1000, JSON);
        }
        Response second = consumer.records(1000, JSON);

        assertThat(first.errorCode()).isEqualTo(50002);
        assertThat(second.errorCode()).as("still failing: nothing changed").isEqualTo(50002);
        consumer.post("/positions/beginning", "{\"partitions\":[{\"topic\":\"no-reset\",\"partition\":0}]}");
        assertThat(consumer.readAtLeast(1, JSON, 10)).hasSize(1);
        consumer.delete();
    }

    @Test
    void maxBytesLimitsAResponseButAlwaysReturnsOneRecord() {
        broker().createTopic("max-bytes", 1);
        http.post("/topics/max-bytes", JSON,
            "{\"records\":[{\"value\":\"aaaaaaaaaa\"},{\"value\":\"bbbbbbbbbb\"},{\"value\":\"cccccccccc\"}]}");
        RestConsumer consumer = RestConsumer.create(http, "max-bytes-group",
            "{\"format\":\"json\",\"auto.offset.reset\":\"earliest\"}");
        consumer.subscribe("max-bytes");
        // Wait until all three are fetched, then ask for fewer bytes than one value has.
        List<JsonNode> first = List.of();
        for (int i = 0; i < 20 && first.isEmpty(); i++) {
            Response response = http.get(consumer.baseUri() + "/records?timeout=1000&max_bytes=5", JSON);
            first = List.copyOf(response.body().valueStream().toList());
        }

        assertThat(first).hasSize(1);
        assertThat(consumer.readAtLeast(2, JSON, 10)).hasSize(2);
        consumer.delete();
    }

    @Test
    void subscriptionCanBeReadAndDeleted() {
        broker().createTopic("sub-read", 1);
        RestConsumer consumer = RestConsumer.create(http, "sub-readers", "{}");
        consumer.subscribe("sub-read");

        assertThat(http.get(consumer.baseUri() + "/subscription").body().get("topics").get(0).asString())
            .isEqualTo("sub-read");
        assertThat(http.delete(consumer.baseUri() + "/subscription").status()).isEqualTo(204);
        assertThat(http.get(consumer.baseUri() + "/subscription").body().get("topics")).isEmpty();
        consumer.delete();
    }
}
