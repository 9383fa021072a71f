package io.tributary.restproxy.v3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.restproxy.testing.HttpJson.Response;
import io.tributary.restproxy.testing.ProxyTestBase;
import io.tributary.restproxy.testing.RestConsumer;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class V3AdminTest extends ProxyTestBase {

    private static final String JSON = "application/json";

    private String cluster;

    @BeforeEach
    void clusterId() {
        Response clusters = http.get("/v3/clusters");
        assertThat(clusters.status()).isEqualTo(200);
        cluster = clusters.body().get("data").get(0).get("cluster_id").asString();
    }

    @Test
    void describesTheClusterAndItsBrokers() {
        Response response = http.get("/v3/clusters/" + cluster);
        Response brokers = http.get("/v3/clusters/" + cluster + "/brokers");
        Response broker = http.get("/v3/clusters/" + cluster + "/brokers/0");

        assertThat(response.body().get("kind").asString()).isEqualTo("KafkaCluster");
        assertThat(response.body().get("controller").get("related").asString()).endsWith("/brokers/0");
        assertThat(brokers.body().get("data")).hasSize(1);
        assertThat(broker.body().get("host").asString()).isEqualTo("127.0.0.1");
        assertThat(http.get("/v3/clusters/not-this-one").status()).isEqualTo(404);
        assertThat(http.get("/v3/clusters/" + cluster + "/brokers/7").status()).isEqualTo(404);
    }

    @Test
    void createsDescribesGrowsAndDeletesATopic() {
        String topics = "/v3/clusters/" + cluster + "/topics";
        Response created = http.post(topics, JSON, "{\"topic_name\":\"v3-topic\",\"partitions_count\":2,"
            + "\"replication_factor\":1,\"configs\":[{\"name\":\"retention.ms\",\"value\":\"60000\"}]}");
        Response duplicate = http.post(topics, JSON, "{\"topic_name\":\"v3-topic\",\"partitions_count\":2}");

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.body().get("partitions_count").asInt()).isEqualTo(2);
        assertThat(created.body().has("under_replicated_partitions_count")).isTrue();
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).untilAsserted(() -> {
            Response described = http.get(topics + "/v3-topic");
            assertThat(described.body().get("offline_partitions_count").asInt()).as("both partitions have a leader")
                .isZero();
            assertThat(described.body().get("under_replicated_partitions_count").asInt()).isZero();
        });
        assertThat(duplicate.status()).isEqualTo(409);
        assertThat(http.get(topics).body().get("data").valueStream().map(t -> t.get("topic_name").asString()))
            .contains("v3-topic");

        Response grown = http.send(HttpRequest.newBuilder(http.uri(topics + "/v3-topic"))
            .header("Content-Type", JSON).method("PATCH", HttpRequest.BodyPublishers.ofString(
                "{\"partitions_count\":3}")).build());
        assertThat(grown.body().get("partitions_count").asInt()).isEqualTo(3);

        http.post("/topics/v3-topic/partitions/1", "application/vnd.kafka.json.v2+json",
            "{\"records\":[{\"value\":\"x\"},{\"value\":\"y\"}]}");
        JsonNode partition = http.get(topics + "/v3-topic/partitions/1").body();
        assertThat(partition.get("leader_id").asInt()).isZero();
        assertThat(partition.get("isr_ids").get(0).asInt()).isZero();
        assertThat(partition.get("out_of_sync_replica_ids")).isEmpty();
        assertThat(partition.get("latest_offset").asLong()).isEqualTo(2);
        assertThat(partition.get("size_bytes").asLong()).isPositive();
        assertThat(http.get(topics + "/v3-topic/partitions").body().get("data")).hasSize(3);
        JsonNode replica = http.get(topics + "/v3-topic/partitions/1/replicas").body().get("data").get(0);
        assertThat(replica.get("is_leader").asBoolean()).isTrue();
        assertThat(replica.get("is_in_sync").asBoolean()).isTrue();
        assertThat(http.get(topics + "/v3-topic/partitions/9").errorCode()).isEqualTo(40402);

        assertThat(http.delete(topics + "/v3-topic").status()).isEqualTo(204);
        assertThat(http.get(topics + "/v3-topic").errorCode()).isEqualTo(40401);
    }

    @Test
    void aConfigWithoutANameIsABadRequestAndLeavesTheAdminClientWorking() {
        String topics = "/v3/clusters/" + cluster + "/topics";

        Response nameless = http.post(topics, JSON, "{\"topic_name\":\"v3-nameless\",\"configs\":[{\"value\":\"1\"}]}");
        Response alter = http.post(topics + "/v3-nameless/configs:alter", JSON, "{\"data\":[{\"value\":\"1\"}]}");

        assertThat(nameless.status()).isEqualTo(400);
        assertThat(alter.status()).isIn(400, 404);
        assertThat(http.get("/topics").status()).isEqualTo(200);
        assertThat(http.get(topics).status()).isEqualTo(200);
    }

    @Test
    void recordsGoToPartitionsAddedAfterTheProducerLearnedTheTopic() {
        broker().createTopic("v3-grown", 1);
        String json = "application/vnd.kafka.json.v2+json";
        assertThat(http.post("/topics/v3-grown", json, "{\"records\":[{\"value\":1}]}").status()).isEqualTo(200);

        http.send(HttpRequest.newBuilder(http.uri("/v3/clusters/" + cluster + "/topics/v3-grown"))
            .header("Content-Type", JSON).method("PATCH", HttpRequest.BodyPublishers.ofString(
                "{\"partitions_count\":3}")).build());
        Response toNew = http.post("/topics/v3-grown/partitions/2", json, "{\"records\":[{\"value\":2}]}");

        assertThat(toNew.status()).as(toNew.text()).isEqualTo(200);
        assertThat(toNew.body().get("offsets").get(0).get("partition").asInt()).isEqualTo(2);
    }

    @Test
    void readsAndChangesTopicConfigs() {
        broker().createTopic("v3-configs", 1);
        String configs = "/v3/clusters/" + cluster + "/topics/v3-configs/configs";

        Response set = http.send(HttpRequest.newBuilder(http.uri(configs + "/retention.ms"))
            .header("Content-Type", JSON).PUT(HttpRequest.BodyPublishers.ofString("{\"value\":\"123000\"}")).build());
        JsonNode retention = http.get(configs + "/retention.ms").body();
        Response alter = http.post(configs + ":alter", JSON, "{\"data\":[{\"name\":\"cleanup.policy\","
            + "\"value\":\"compact\"},{\"name\":\"retention.ms\",\"operation\":\"DELETE\"}]}");

        assertThat(set.status()).isEqualTo(204);
        assertThat(retention.get("value").asString()).isEqualTo("123000");
        assertThat(retention.get("is_default").asBoolean()).isFalse();
        assertThat(alter.status()).isEqualTo(204);
        assertThat(http.get(configs + "/cleanup.policy").body().get("value").asString()).isEqualTo("compact");
        assertThat(http.get(configs + "/retention.ms").body().get("is_default").asBoolean()).isTrue();
        assertThat(http.get(configs).body().get("data").size()).isGreaterThan(5);
    }

    @Test
    void showsGroupLagAndResetsAndDeletesAnEmptyGroup() {
        broker().createTopic("v3-lag", 2);
        http.post("/topics/v3-lag", "application/vnd.kafka.json.v2+json", "{\"records\":[{\"value\":1,\"partition\":0},"
            + "{\"value\":2,\"partition\":0},{\"value\":3,\"partition\":1}]}");
        RestConsumer consumer = RestConsumer.create(http, "v3-lag-group",
            "{\"format\":\"json\",\"auto.offset.reset\":\"earliest\",\"auto.commit.enable\":\"false\"}");
        consumer.subscribe("v3-lag");
        assertThat(consumer.readAtLeast(3, "application/vnd.kafka.json.v2+json", 20)).hasSize(3);
        consumer.commitAll();
        String group = "/v3/clusters/" + cluster + "/consumer-groups/v3-lag-group";

        assertThat(http.get(group).body().get("state").asString()).isEqualTo("STABLE");
        // The list describes every group in one round: each entry carries its state.
        assertThat(http.get("/v3/clusters/" + cluster + "/consumer-groups").body().get("data").valueStream()
            .filter(g -> g.get("consumer_group_id").asString().equals("v3-lag-group"))
            .map(g -> g.get("state").asString())).containsExactly("STABLE");
        JsonNode member = http.get(group + "/consumers").body().get("data").get(0);
        assertThat(member.get("assignments")).hasSize(2);
        assertThat(http.get(group + "/lag-summary").body().get("total_lag").asLong()).isZero();
        Response busy = http.post(group + "/offsets:reset", JSON, "{\"to\":\"earliest\"}");
        assertThat(busy.status()).isEqualTo(409);
        assertThat(http.delete(group).status()).isEqualTo(409);

        consumer.delete();
        Response reset = http.post(group + "/offsets:reset", JSON, "{\"to\":\"earliest\"}");
        assertThat(reset.status()).as(reset.text()).isEqualTo(200);
        assertThat(reset.body().get("offsets")).hasSize(2);
        JsonNode summary = http.get(group + "/lag-summary").body();
        assertThat(summary.get("total_lag").asLong()).isEqualTo(3);
        assertThat(summary.get("max_lag").asLong()).isEqualTo(2);
        assertThat(summary.get("max_lag_partition_id").asInt()).isZero();
        JsonNode lags = http.get(group + "/lags").body().get("data");
        assertThat(lags.get(0).get("current_offset").asLong()).isZero();
        assertThat(lags.get(0).get("log_end_offset").asLong()).isEqualTo(2);

        Response toOffset = http.post(group + "/offsets:reset", JSON, "{\"to\":\"offset\",\"offset\":1}");
        assertThat(toOffset.body().get("offsets").get(0).get("offset").asLong()).isEqualTo(1);
        assertThat(toOffset.body().get("offsets").get(1).get("offset").asLong()).isEqualTo(1);
        Response latest = http.post(group + "/offsets:reset", JSON, "{\"to\":\"latest\",\"topics\":[\"v3-lag\"]}");
        assertThat(latest.body().get("offsets").get(0).get("offset").asLong()).isEqualTo(2);
        Response fromZero = http.post(group + "/offsets:reset", JSON, "{\"to\":\"timestamp\",\"timestamp\":0}");
        assertThat(fromZero.body().get("offsets").get(0).get("offset").asLong()).as("first record at or after 0")
            .isZero();
        Response future = http.post(group + "/offsets:reset", JSON,
            "{\"to\":\"timestamp\",\"timestamp\":" + (System.currentTimeMillis() + 3_600_000) + "}");
        assertThat(future.body().get("offsets").get(0).get("offset").asLong()).as("none after it: the log end")
            .isEqualTo(2);

        assertThat(http.delete(group).status()).isEqualTo(204);
        assertThat(http.get(group).status()).isEqualTo(404);
    }

    /**
     * A group with offsets of a deleted topic: its lags leave that topic out, answered at once (the log end
     * offsets of a topic that no longer exists were asked for, and the admin client retried until its
     * timeout, failing the whole answer).
     */
    @Test
    void lagsLeaveOutTopicsDeletedSinceTheGroupCommitted() {
        broker().createTopic("v3-lag-kept", 1);
        broker().createTopic("v3-lag-gone", 1);
        for (String topic : List.of("v3-lag-kept", "v3-lag-gone")) {
            http.post("/topics/" + topic, "application/vnd.kafka.json.v2+json", "{\"records\":[{\"value\":1}]}");
        }
        RestConsumer consumer = RestConsumer.create(http, "v3-lag-deleted",
            "{\"format\":\"json\",\"auto.offset.reset\":\"earliest\",\"auto.commit.enable\":\"false\"}");
        consumer.subscribe("v3-lag-kept", "v3-lag-gone");
        assertThat(consumer.readAtLeast(2, "application/vnd.kafka.json.v2+json", 20)).hasSize(2);
        consumer.commitAll();
        consumer.delete();
        assertThat(http.delete("/v3/clusters/" + cluster + "/topics/v3-lag-gone").status()).isEqualTo(204);
        await().atMost(Duration.ofSeconds(30)).until(() ->
            http.get("/v3/clusters/" + cluster + "/topics/v3-lag-gone").status() == 404);

        String group = "/v3/clusters/" + cluster + "/consumer-groups/v3-lag-deleted";
        Response lags = http.get(group + "/lags");
        assertThat(lags.status()).as(lags.text()).isEqualTo(200);
        assertThat(lags.body().get("data").valueStream().map(l -> l.get("topic_name").asString()))
            .containsExactly("v3-lag-kept");
        assertThat(http.get(group + "/lag-summary").body().get("total_lag").asLong()).isZero();
    }
}
