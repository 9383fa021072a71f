package io.tributary.restproxy.forwarding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.restproxy.RestProxyApplication;
import io.tributary.restproxy.testing.BrokerFixture;
import io.tributary.restproxy.testing.HttpJson;
import io.tributary.restproxy.testing.HttpJson.Response;
import io.tributary.restproxy.testing.RestShareConsumer;
import io.tributary.testing.TestPorts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * Share consumer instances behind two proxy replicas that know each other as peers, as behind a
 * load balancer without sticky sessions: requests for an instance reach the replica holding it.
 */
class ShareTwoReplicasTest {

    private static final String JSON = "application/vnd.kafka.json.v2+json";

    private static ConfigurableApplicationContext replicaA;
    private static ConfigurableApplicationContext replicaB;
    private static HttpJson a;
    private static HttpJson b;

    @BeforeAll
    static void start() {
        BrokerFixture broker = BrokerFixture.get();
        int portA = TestPorts.freePort();
        int portB = TestPorts.freePort();
        replicaA = replica(broker, "sharea", portA, portB);
        replicaB = replica(broker, "shareb", portB, portA);
        a = new HttpJson("http://127.0.0.1:" + portA);
        b = new HttpJson("http://127.0.0.1:" + portB);
    }

    @AfterAll
    static void stop() {
        replicaA.close();
        replicaB.close();
    }

    @Test
    void anInstanceCreatedOnOneReplicaIsReadAndAcknowledgedThroughTheOther() {
        BrokerFixture.get().createTopic("share-two-replicas", 1);
        RestShareConsumer.configureGroup(BrokerFixture.get(), "share-two-replica-group", Map.of());
        RestShareConsumer onA = RestShareConsumer.create(a, "share-two-replica-group", "{\"format\":\"json\"}");
        assertThat(onA.instanceId()).startsWith("rest-share-sharea-");
        RestShareConsumer throughB = onA.via(b);

        assertThat(throughB.subscribe("share-two-replicas").status()).isEqualTo(204);
        b.post("/topics/share-two-replicas", JSON, "{\"records\":[{\"value\":\"x\"},{\"value\":\"y\"}]}");
        List<JsonNode> records = new ArrayList<>();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            List<JsonNode> batch = throughB.read(2000);
            records.addAll(batch);
            if (!batch.isEmpty()) {
                assertThat(throughB.acknowledge(batch, "ACCEPT").status()).isEqualTo(200);
            }
            return records.size() >= 2;
        });
        assertThat(records).extracting(r -> r.get("value").asString()).containsExactlyInAnyOrder("x", "y");
        assertThat(a.get(onA.path() + "/subscription").body().get("topics").get(0).asString())
            .isEqualTo("share-two-replicas");

        assertThat(throughB.delete().status()).isEqualTo(204);
        Response gone = onA.records(0);
        assertThat(gone.status()).isEqualTo(404);
        assertThat(gone.errorCode()).isEqualTo(40403);
    }

    @Test
    void aNamedInstanceIsFoundOnItsReplicaAndItsNameIsUniqueAcrossReplicas() {
        RestShareConsumer onB = RestShareConsumer.create(b, "share-named-group", "{\"name\":\"only-on-b\"}");
        RestShareConsumer throughA = onB.via(a);

        Response taken = a.post("/share-groups/share-named-group/instances", "application/json",
            "{\"name\":\"only-on-b\"}");
        assertThat(taken.status()).isEqualTo(409);
        assertThat(taken.errorCode()).isEqualTo(40902);
        Response notSubscribed = throughA.records(0);
        assertThat(notSubscribed.errorCode()).as(notSubscribed.text()).isEqualTo(40903);
        assertThat(throughA.delete().status()).isEqualTo(204);
        assertThat(throughA.records(0).errorCode()).isEqualTo(40403);
    }

    private static ConfigurableApplicationContext replica(BrokerFixture broker, String id, int port, int peerPort) {
        return new SpringApplicationBuilder(RestProxyApplication.class).run(
            "--server.port=" + port,
            "--kafka.bootstrap-servers=" + broker.bootstrapServers(),
            "--rest-proxy.replica-id=" + id,
            "--rest-proxy.peers=http://127.0.0.1:" + peerPort);
    }
}
