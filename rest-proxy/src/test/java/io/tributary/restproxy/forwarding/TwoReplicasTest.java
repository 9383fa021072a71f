package io.tributary.restproxy.forwarding;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.restproxy.RestProxyApplication;
import io.tributary.restproxy.testing.BrokerFixture;
import io.tributary.restproxy.testing.HttpJson;
import io.tributary.restproxy.testing.HttpJson.Response;
import io.tributary.restproxy.testing.RestConsumer;
import java.io.IOException;
import java.net.ServerSocket;
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

    private static ConfigurableApplicationContext replica(BrokerFixture broker, String id, int port, int peerPort) {
        return new SpringApplicationBuilder(RestProxyApplication.class).run(
            "--server.port=" + port,
            "--kafka.bootstrap-servers=" + broker.bootstrapServers(),
            "--rest-proxy.replica-id=" + id,
            "--rest-proxy.peers=http://127.0.0.1:" + peerPort);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
