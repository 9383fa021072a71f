package io.tributary.restproxy.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.restproxy.testing.HttpJson.Response;
import io.tributary.restproxy.testing.ProxyTestBase;
import io.tributary.restproxy.testing.RestConsumer;
import org.junit.jupiter.api.Test;

class ConsumerErrorsTest extends ProxyTestBase {

    @Test
    void unknownInstanceIs40403() {
        Response records = http.get("/consumers/nobody/instances/ghost/records", RestConsumer.V2);
        Response delete = http.delete("/consumers/nobody/instances/ghost");

        assertThat(records.status()).isEqualTo(404);
        assertThat(records.errorCode()).isEqualTo(40403);
        assertThat(delete.errorCode()).isEqualTo(40403);
    }

    @Test
    void askingForTheOtherEmbeddedFormatIs40601() {
        RestConsumer consumer = RestConsumer.create(http, "format-mismatch", "{\"format\":\"json\"}");

        Response response = consumer.records(0, "application/vnd.kafka.binary.v2+json");
        Response own = consumer.records(0, "application/vnd.kafka.json.v2+json");

        assertThat(response.status()).isEqualTo(406);
        assertThat(response.errorCode()).isEqualTo(40601);
        assertThat(own.status()).isEqualTo(200);
        assertThat(own.contentType()).startsWith("application/vnd.kafka.json.v2+json");
        consumer.delete();
    }

    @Test
    void switchingFromATopicListToAPatternIs40901() {
        broker().createTopic("sub-switch", 1);
        RestConsumer consumer = RestConsumer.create(http, "sub-switchers", "{}");
        consumer.subscribe("sub-switch");

        Response response = consumer.post("/subscription", "{\"topic_pattern\":\"sub-.*\"}");

        assertThat(response.status()).isEqualTo(409);
        assertThat(response.errorCode()).isEqualTo(40901);
        assertThat(consumer.http().delete(consumer.baseUri() + "/subscription").status()).isEqualTo(204);
        assertThat(consumer.post("/subscription", "{\"topic_pattern\":\"sub-.*\"}").status()).isEqualTo(204);
        consumer.delete();
    }

    @Test
    void aSecondInstanceWithTheSameNameIs40902() {
        RestConsumer.create(http, "duplicates", "{\"name\":\"twin\"}");

        Response response = http.post("/consumers/duplicates", RestConsumer.V2, "{\"name\":\"twin\"}");

        assertThat(response.status()).isEqualTo(409);
        assertThat(response.errorCode()).isEqualTo(40902);
        http.delete("/consumers/duplicates/instances/twin");
    }

    @Test
    void aCreateBodyThatIsNotAnObjectIs422AndBaseUriIsEncoded() {
        Response array = http.post("/consumers/odd-bodies", RestConsumer.V2, "[1]");
        Response dots = http.post("/consumers/odd-bodies", RestConsumer.V2, "{\"name\":\"..\"}");
        RestConsumer spaced = RestConsumer.create(http, "a%20b", "{\"name\":\"c\"}");

        assertThat(array.status()).isEqualTo(422);
        assertThat(dots.errorCode()).isEqualTo(42204);
        assertThat(spaced.baseUri()).endsWith("/consumers/a%20b/instances/c");
        assertThat(spaced.delete().status()).isEqualTo(204);
    }

    @Test
    void committingOffsetsOfAnUnknownTopicIs40401() {
        RestConsumer consumer = RestConsumer.create(http, "commit-unknown", "{}");

        Response response = consumer.post("/offsets",
            "{\"offsets\":[{\"topic\":\"no-such-commit-topic\",\"partition\":0,\"offset\":1}]}");

        assertThat(response.errorCode()).isEqualTo(40401);
        consumer.delete();
    }

    @Test
    void assigningWhileSubscribedIs40903() {
        broker().createTopic("assign-conflict", 1);
        RestConsumer consumer = RestConsumer.create(http, "assign-conflicts", "{}");
        consumer.subscribe("assign-conflict");

        Response response = consumer.post("/assignments",
            "{\"partitions\":[{\"topic\":\"assign-conflict\",\"partition\":0}]}");

        assertThat(response.status()).isEqualTo(409);
        assertThat(response.errorCode()).isEqualTo(40903);
        consumer.delete();
    }

    @Test
    void invalidConsumerConfigIs42204() {
        Response reset = http.post("/consumers/bad-config", RestConsumer.V2, "{\"auto.offset.reset\":\"sometimes\"}");
        Response format = http.post("/consumers/bad-config", RestConsumer.V2, "{\"format\":\"avro\"}");
        Response minBytes = http.post("/consumers/bad-config", RestConsumer.V2, "{\"fetch.min.bytes\":\"lots\"}");

        assertThat(reset.status()).isEqualTo(422);
        assertThat(reset.errorCode()).isEqualTo(42204);
        assertThat(format.errorCode()).isEqualTo(42204);
        assertThat(minBytes.errorCode()).isEqualTo(42204);
    }

    @Test
    void assigningAnUnknownTopicOrPartitionIs40401Or40402() {
        broker().createTopic("assign-known", 1);
        RestConsumer consumer = RestConsumer.create(http, "assigners", "{}");

        Response topic = consumer.post("/assignments", "{\"partitions\":[{\"topic\":\"assign-unknown\",\"partition\":0}]}");
        Response partition = consumer.post("/assignments",
            "{\"partitions\":[{\"topic\":\"assign-known\",\"partition\":3}]}");

        assertThat(topic.errorCode()).isEqualTo(40401);
        assertThat(partition.errorCode()).isEqualTo(40402);
        consumer.delete();
    }

    @Test
    void seekingAPartitionNotAssignedIs40903() {
        broker().createTopic("seek-unassigned", 1);
        RestConsumer consumer = RestConsumer.create(http, "seekers", "{}");

        Response response = consumer.post("/positions",
            "{\"offsets\":[{\"topic\":\"seek-unassigned\",\"partition\":0,\"offset\":3}]}");

        assertThat(response.errorCode()).isEqualTo(40903);
        consumer.delete();
    }
}
