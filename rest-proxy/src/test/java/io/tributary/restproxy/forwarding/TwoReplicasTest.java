package io.tributary.restproxy.forwarding;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.restproxy.RestProxyApplication;
import io.tributary.restproxy.testing.AtomicBodies;
import io.tributary.restproxy.testing.BrokerFixture;
import io.tributary.restproxy.testing.HttpJson;
import io.tributary.restproxy.testing.HttpJson.Response;
import io.tributary.restproxy.testing.RestConsumer;
import io.tributary.testing.TestPorts;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/** Two proxy replicas that know each other as peers, as behind a load balancer without sticky sessions. */
class TwoReplicasTest {

    private static final String JSON = "application/vnd.kafka.json.v2+json";

    private static ConfigurableApplicationContext replicaA;
    private static ConfigurableApplicationContext replicaB;
    private static HttpJson a;
    private static HttpJson b;

    @BeforeAll
    static void start() throws IOException {
        BrokerFixture broker = BrokerFixture.get();
        int portA = freePort();
        int portB = freePort();
        replicaA = replica(broker, "replicaa", portA, portB);
        replicaB = replica(broker, "replicab", portB, portA);
        a = new HttpJson("http://127.0.0.1:" + portA);
        b = new HttpJson("http://127.0.0.1:" + portB);
    }

    @AfterAll
    static void stop() {
        replicaA.close();
        replicaB.close();
    }

    @Test
    void anInstanceCreatedOnOneReplicaIsConsumedAndCommittedThroughTheOther() {
        BrokerFixture.get().createTopic("two-replicas", 2);
        RestConsumer onA = RestConsumer.create(a, "two-replica-group",
            "{\"format\":\"json\",\"auto.offset.reset\":\"earliest\",\"auto.commit.enable\":\"false\"}");
        assertThat(onA.instanceId()).contains("replicaa");
        RestConsumer throughB = onA.via(b);

        assertThat(throughB.subscribe("two-replicas").status()).isEqualTo(204);
        b.post("/topics/two-replicas", JSON, "{\"records\":[{\"value\":\"x\",\"partition\":0},{\"value\":\"y\","
            + "\"partition\":1}]}");
        List<JsonNode> records = throughB.readAtLeast(2, JSON, 20);
        assertThat(records).extracting(r -> r.get("value").asString()).containsExactlyInAnyOrder("x", "y");
        assertThat(throughB.commitAll().status()).isEqualTo(200);

        Response committed = onA.committed("{\"partitions\":[{\"topic\":\"two-replicas\",\"partition\":0},"
            + "{\"topic\":\"two-replicas\",\"partition\":1}]}");
        assertThat(committed.body().get("offsets")).hasSize(2);
        assertThat(committed.body().get("offsets").get(0).get("offset").asLong()).isEqualTo(1);
        assertThat(throughB.delete().status()).isEqualTo(204);
        assertThat(onA.records(0, JSON).errorCode()).isEqualTo(40403);
    }

    @Test
    void aNamedInstanceIsFoundOnItsReplica() {
        BrokerFixture.get().createTopic("two-replicas-named", 1);
        RestConsumer onB = RestConsumer.create(b, "named-group", "{\"name\":\"only-on-b\",\"format\":\"json\"}");
        RestConsumer throughA = onB.via(a);

        assertThat(throughA.subscribe("two-replicas-named").status()).isEqualTo(204);
        assertThat(a.get("/consumers/named-group/instances/only-on-b/subscription").body().get("topics").get(0)
            .asString()).isEqualTo("two-replicas-named");
        assertThat(throughA.records(0, "application/vnd.kafka.binary.v2+json").errorCode()).isEqualTo(40601);
        assertThat(throughA.delete().status()).isEqualTo(204);
        assertThat(a.get("/consumers/named-group/instances/only-on-b/subscription").errorCode()).isEqualTo(40403);
    }

    @Test
    void aNameIsUniqueInItsGroupAcrossReplicas() {
        RestConsumer onA = RestConsumer.create(a, "unique-names", "{\"name\":\"only-one\"}");

        Response onB = b.post("/consumers/unique-names", RestConsumer.V2, "{\"name\":\"only-one\"}");

        assertThat(onB.status()).isEqualTo(409);
        assertThat(onB.errorCode()).isEqualTo(40902);
        assertThat(onA.delete().status()).isEqualTo(204);
        assertThat(b.post("/consumers/unique-names", RestConsumer.V2, "{\"name\":\"only-one\"}").status())
            .as("free again once deleted").isEqualTo(200);
        b.delete("/consumers/unique-names/instances/only-one");
    }

    @Test
    void aGroupNameWithAPlusSignIsForwardedAsItIs() {
        RestConsumer onA = RestConsumer.create(a, "plus+group", "{\"name\":\"p\"}");

        Response throughB = b.get("/consumers/plus+group/instances/p/subscription");

        assertThat(throughB.status()).as(throughB.text()).isEqualTo(200);
        assertThat(onA.delete().status()).isEqualTo(204);
    }

    @Test
    void anIdempotencyKeyCommittedThroughOneReplicaIsReplayedByTheOther() {
        BrokerFixture.get().createTopic("two-replicas-atomic", 2);
        String cluster = a.get("/v3/clusters").body().get("data").get(0).get("cluster_id").asString();
        String body = AtomicBodies.entries(List.of("k1-a", "k1-b"), java.util.Arrays.asList(0, 1));

        Response first = AtomicBodies.post(a, cluster, "two-replicas-atomic", "key-1", body);
        Response retry = AtomicBodies.post(b, cluster, "two-replicas-atomic", "key-1", body);

        assertThat(first.status()).as(first.text()).isEqualTo(200);
        assertThat(retry.status()).as(retry.text()).isEqualTo(200);
        assertThat(retry.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(AtomicBodies.offsets(retry)).isEqualTo(AtomicBodies.offsets(first));
        assertThat(BrokerFixture.get().records("two-replicas-atomic", true)).extracting(BrokerFixture.StoredRecord::value)
            .containsExactlyInAnyOrder("k1-a", "k1-b");
    }

    @Test
    void theSameKeysSentToBothReplicasAtOnceAreWrittenOnce() throws Exception {
        BrokerFixture.get().createTopic("two-replicas-racing", 3);
        String cluster = a.get("/v3/clusters").body().get("data").get(0).get("cluster_id").asString();
        int keys = 6;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2 * keys);
        try {
            List<java.util.concurrent.Future<Response>> answers = new java.util.ArrayList<>();
            for (int k = 0; k < keys; k++) {
                String body = AtomicBodies.entries(List.of("race-" + k + "-a", "race-" + k + "-b"),
                    java.util.Arrays.asList(null, null));
                String key = "race-" + k;
                for (HttpJson replica : List.of(a, b)) {
                    answers.add(pool.submit(() -> AtomicBodies.postUntilSettled(replica, cluster, "two-replicas-racing",
                        key, body)));
                }
            }
            for (int k = 0; k < keys; k++) {
                Response onA = answers.get(2 * k).get();
                Response onB = answers.get(2 * k + 1).get();
                assertThat(onA.status()).as(onA.text()).isEqualTo(200);
                assertThat(onB.status()).as(onB.text()).isEqualTo(200);
                assertThat(AtomicBodies.offsets(onA)).as("key race-" + k).isEqualTo(AtomicBodies.offsets(onB));
                assertThat(java.util.Arrays.asList(onA.header("Idempotent-Replayed"), onB.header("Idempotent-Replayed")))
                    .as("one of the two wrote").contains((String) null);
            }
        } finally {
            pool.shutdownNow();
        }
        List<String> expected = new java.util.ArrayList<>();
        for (int k = 0; k < keys; k++) {
            expected.add("race-" + k + "-a");
            expected.add("race-" + k + "-b");
        }
        assertThat(BrokerFixture.get().records("two-replicas-racing", true)).extracting(BrokerFixture.StoredRecord::value)
            .containsExactlyInAnyOrderElementsOf(expected);
    }

    private static ConfigurableApplicationContext replica(BrokerFixture broker, String id, int port, int peerPort) {
        return new SpringApplicationBuilder(RestProxyApplication.class).run(
            "--server.port=" + port,
            "--kafka.bootstrap-servers=" + broker.bootstrapServers(),
            "--rest-proxy.replica-id=" + id,
            "--rest-proxy.peers=http://127.0.0.1:" + peerPort);
    }

    private static int freePort() {
        return TestPorts.freePort();
    }
}
