package io.tributary.restproxy.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.restproxy.testing.HttpJson.Response;
import io.tributary.restproxy.testing.ProxyTestBase;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class TopicsTest extends ProxyTestBase {

    @Test
    void listsTopicsWithoutInternalOnes() {
        broker().createTopic("meta-listed", 1);

        Response response = http.get("/topics");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body().valueStream().map(JsonNode::asString)).contains("meta-listed")
            .doesNotContain("__consumer_offsets");
    }

    @Test
    void describesATopicWithConfigsPartitionsAndReplicas() {
        broker().createTopic("meta-described", 2, Map.of("retention.ms", "123456"));

        Response topic = http.get("/topics/meta-described");

        assertThat(topic.status()).isEqualTo(200);
        assertThat(topic.body().get("name").asString()).isEqualTo("meta-described");
        assertThat(topic.body().get("configs").get("retention.ms").asString()).isEqualTo("123456");
        JsonNode partitions = topic.body().get("partitions");
        assertThat(partitions).hasSize(2);
        JsonNode replica = partitions.get(1).get("replicas").get(0);
        assertThat(partitions.get(1).get("partition").asInt()).isEqualTo(1);
        assertThat(replica.get("broker").asInt()).isEqualTo(partitions.get(1).get("leader").asInt());
        assertThat(replica.get("leader").asBoolean()).isTrue();
        assertThat(replica.get("in_sync").asBoolean()).isTrue();
    }

    @Test
    void listsAndDescribesPartitions() {
        broker().createTopic("meta-partitions", 3);

        Response all = http.get("/topics/meta-partitions/partitions");
        Response one = http.get("/topics/meta-partitions/partitions/2");

        assertThat(all.body()).hasSize(3);
        assertThat(one.body().get("partition").asInt()).isEqualTo(2);
        assertThat(one.body().get("leader").asInt()).isZero();
    }

    @Test
    void unknownTopicAndPartitionAre40401And40402() {
        broker().createTopic("meta-known", 1);

        Response topic = http.get("/topics/meta-unknown");
        Response partitions = http.get("/topics/meta-unknown/partitions");
        Response partition = http.get("/topics/meta-known/partitions/5");

        assertThat(topic.status()).isEqualTo(404);
        assertThat(topic.errorCode()).isEqualTo(40401);
        assertThat(partitions.errorCode()).isEqualTo(40401);
        assertThat(partition.status()).isEqualTo(404);
        assertThat(partition.errorCode()).isEqualTo(40402);
    }

    @Test
    void listsBrokers() {
        Response response = http.get("/brokers");

        assertThat(response.body().get("brokers")).hasSize(1);
        assertThat(response.body().get("brokers").get(0).asInt()).isZero();
    }

    @Test
    void errorBodiesUseConfluentsContentTypeForItsClientsAndJsonForOthers() {
        Response confluent = http.get("/topics/meta-unknown", "application/vnd.kafka.v2+json");
        Response curl = http.get("/topics/meta-unknown", "*/*");

        assertThat(confluent.contentType()).startsWith("application/vnd.kafka.v2+json");
        assertThat(curl.contentType()).startsWith("application/json");
        assertThat(curl.body().get("message").asString()).contains("meta-unknown");
    }
}
