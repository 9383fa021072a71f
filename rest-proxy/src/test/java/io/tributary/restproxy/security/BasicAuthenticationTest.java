package io.tributary.restproxy.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.restproxy.RestProxyApplication;
import io.tributary.restproxy.testing.BrokerFixture;
import io.tributary.restproxy.testing.HttpJson;
import io.tributary.restproxy.testing.HttpJson.Response;

import io.tributary.restproxy.testing.LogCapture;
import io.tributary.restproxy.testing.RestShareConsumer;
import io.tributary.restproxy.testing.SecuredProxyTestBase;
import io.tributary.testing.TestPorts;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourceType;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * The proxy with {@code rest-proxy.authentication.method=basic} in front of a broker that wants
 * SCRAM-SHA-512 logins and authorizes with Kafka's {@code StandardAuthorizer}: HTTP callers sign in
 * with the brokers' users and act toward the brokers as themselves.
 */
class BasicAuthenticationTest extends SecuredProxyTestBase {

    private static final String ADMIN_PASSWORD = BrokerFixture.SUPER_USER_PASSWORD;
    private static final String ALICE_PASSWORD = "alice-pw-Zr47";
    private static final String BOB_PASSWORD = "bob-pw-Kd29";
    private static final String WRONG_PASSWORD = "wrong-pw-Hn63";
    private static final String JSON = "application/vnd.kafka.json.v2+json";

    private BrokerFixture broker;
    private LogCapture logs;
    private HttpJson anonymous;
    private HttpJson admin;
    private HttpJson alice;
    private HttpJson bob;

    /** A second replica that knows this test's proxy as its peer, as behind a load balancer. */
    private ConfigurableApplicationContext replicaB;
    private HttpJson anonymousB;

    @BeforeAll
    void clients() throws IOException {
        // alice and bob are this test's users alone: the broker and its ACLs are shared.
        broker = broker();
        broker.createScramUser("alice", ALICE_PASSWORD);
        broker.createScramUser("bob", BOB_PASSWORD);
        broker.createTopic("secured", 1);
        broker.createTopic("alice-only", 1);
        // Only alice may write alice-only; bob may see it but not write it (nor anything else).
        broker.createAcls(List.of(
            BrokerFixture.allow(ResourceType.TOPIC, "alice-only", "User:alice", AclOperation.WRITE),
            BrokerFixture.allow(ResourceType.TOPIC, "alice-only", "User:alice", AclOperation.DESCRIBE),
            BrokerFixture.allow(ResourceType.TOPIC, "alice-only", "User:bob", AclOperation.DESCRIBE)));
        anonymous = anonymous();
        admin = superUser();
        alice = anonymous.as("alice", ALICE_PASSWORD);
        bob = anonymous.as("bob", BOB_PASSWORD);
        int portB;
        portB = TestPorts.freePort();
        replicaB = new SpringApplicationBuilder(RestProxyApplication.class).run(
            "--server.port=" + portB,
            "--kafka.bootstrap-servers=" + broker.bootstrapServers(),
            "--kafka.security-protocol=SASL_PLAINTEXT",
            "--rest-proxy.authentication.method=basic",
            "--rest-proxy.replica-id=replicab",
            "--rest-proxy.peers=http://127.0.0.1:" + port);
        anonymousB = new HttpJson("http://127.0.0.1:" + portB);
        // After the second replica started: starting an application resets the logging system.
        logs = LogCapture.open();
    }

    @AfterAll
    void stop() {
        try {
            logs.close();
        } finally {
            replicaB.close();
        }
    }

    @Test
    void withoutCredentialsAnswers401WithBasicChallenge() {
        Response response = anonymous.get("/topics");

        assertThat(response.status()).isEqualTo(401);
        assertThat(response.header("WWW-Authenticate")).isEqualTo("Basic realm=\"tributary\"");
        assertThat(response.errorCode()).isEqualTo(40101);
        assertThat(response.body().get("message").asString()).isNotBlank();
    }

    @Test
    void wrongPasswordAnswers401() {
        Response response = anonymous.as("alice", WRONG_PASSWORD).get("/topics");

        assertThat(response.status()).isEqualTo(401);
        assertThat(response.header("WWW-Authenticate")).isEqualTo("Basic realm=\"tributary\"");
        assertThat(response.errorCode()).isEqualTo(40101);
    }

    @Test
    void validUserListsTopics() {
        Response asAdmin = admin.get("/topics");
        Response asAlice = alice.get("/topics");

        assertThat(asAdmin.status()).isEqualTo(200);
        assertThat(asAdmin.body().valueStream().map(node -> node.asString())).contains("secured");
        // alice may describe no topic: the brokers leave them all out of her answer.
        assertThat(asAlice.status()).isEqualTo(200);
        assertThat(asAlice.body().valueStream().map(node -> node.asString())).doesNotContain("secured");
    }

    @Test
    void healthAndApiDocsStayOpen() {
        assertThat(anonymous.get("/actuator/health").status()).isIn(200, 503);
        Response apiDocs = anonymous.get("/v3/api-docs");
        assertThat(apiDocs.status()).isEqualTo(200);
        assertThat(apiDocs.body().get("components").get("securitySchemes").get("basic").get("scheme").asString())
            .isEqualTo("basic");
    }

    @Test
    void v2ProduceWithoutWriteAclAnswers403WithKafkaError() {
        Response response = alice.post("/topics/secured", JSON, "{\"records\":[{\"value\":{\"by\":\"alice\"}}]}");

        assertThat(response.status()).isEqualTo(403);
        assertThat(response.errorCode()).isEqualTo(40301);
        assertThat(response.body().get("message").asString()).contains("TopicAuthorizationException");
    }

    @Test
    void v3ProduceWithoutWriteAclAnswers403WithKafkaError() {
        String cluster = admin.get("/v3/clusters").body().get("data").get(0).get("cluster_id").asString();

        Response response = alice.post("/v3/clusters/" + cluster + "/topics/secured/records", "application/json",
            "{\"value\":{\"type\":\"STRING\",\"data\":\"by alice\"}}");

        assertThat(response.status()).isEqualTo(403);
        assertThat(response.errorCode()).isEqualTo(40301);
        assertThat(response.body().get("message").asString()).contains("TopicAuthorizationException");
    }

    @Test
    void superUserProducesAsItself() {
        String cluster = admin.get("/v3/clusters").body().get("data").get(0).get("cluster_id").asString();

        Response v2 = admin.post("/topics/secured", JSON, "{\"records\":[{\"value\":{\"by\":\"admin\"}}]}");
        Response v3 = admin.post("/v3/clusters/" + cluster + "/topics/secured/records", "application/json",
            "{\"value\":{\"type\":\"STRING\",\"data\":\"by admin\"}}");

        assertThat(v2.status()).isEqualTo(200);
        assertThat(v2.body().get("offsets").get(0).get("error_code").isNull()).isTrue();
        assertThat(v3.status()).isEqualTo(200);
        assertThat(v3.body().get("error_code").asInt()).isEqualTo(200);
        assertThat(broker.recordValues("secured")).contains("{\"by\":\"admin\"}", "by admin");
    }

    @Test
    void aUserWritesWhereAnAclLetsThemAndAsThemselves() {
        String cluster = admin.get("/v3/clusters").body().get("data").get(0).get("cluster_id").asString();
        String v3 = "/v3/clusters/" + cluster + "/topics/alice-only/records";
        // The authorizer follows ACL changes from ZooKeeper: wait until alice's WRITE has arrived.
        Awaitility.await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(alice.post(
            "/topics/alice-only", JSON, "{\"records\":[{\"value\":\"v2 by alice\"}]}").body().get("offsets").get(0)
            .get("error_code").isNull()).isTrue());

        Response aliceV3 = alice.post(v3, "application/json",
            "{\"value\":{\"type\":\"STRING\",\"data\":\"v3 by alice\"}}");
        Response bobV2 = bob.post("/topics/alice-only", JSON, "{\"records\":[{\"value\":\"v2 by bob\"}]}");
        Response bobV3 = bob.post(v3, "application/json", "{\"value\":{\"type\":\"STRING\",\"data\":\"v3 by bob\"}}");

        assertThat(aliceV3.status()).isEqualTo(200);
        assertThat(aliceV3.body().get("error_code").asInt()).as(aliceV3.text()).isEqualTo(200);
        // bob may describe the topic, so his records are refused one by one, as Confluent's proxy reports them.
        assertThat(bobV2.status()).isEqualTo(200);
        assertThat(bobV2.body().get("offsets").get(0).get("error_code").asInt()).as(bobV2.text()).isEqualTo(40301);
        assertThat(bobV2.body().get("offsets").get(0).get("error").asString()).contains("AuthorizationException");
        assertThat(bobV3.body().get("error_code").asInt()).as(bobV3.text()).isEqualTo(40301);
        // Only alice may write there, so what is there was written as alice.
        assertThat(broker.recordValues("alice-only")).contains("\"v2 by alice\"", "v3 by alice")
            .doesNotContain("\"v2 by bob\"", "v3 by bob");
    }

    @Test
    void workOnOtherThreadsRunsAsTheCallerWhoStartedIt() {
        assertThat(admin.post("/topics/secured", JSON, "{\"records\":[{\"value\":\"needle for admin\"}]}")
            .status()).isEqualTo(200);
        String cluster = admin.get("/v3/clusters").body().get("data").get(0).get("cluster_id").asString();
        String searches = "/v3/clusters/" + cluster + "/topics/secured/searches";

        // Partition reads run on the reader pool, searches on their own threads.
        Response adminRead = admin.get("/topics/secured/partitions/0/records?offset=0&count=100&format=json");
        Response aliceRead = alice.get("/topics/secured/partitions/0/records?offset=0&count=100&format=json");
        String searchId = admin.post(searches, "application/json", "{\"query\":\"needle\",\"in\":\"value\"}")
            .body().get("search_id").asString();
        Awaitility.await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(admin.get(searches + "/"
            + searchId).body().get("state").asString()).isNotEqualTo("RUNNING"));
        Response search = admin.get(searches + "/" + searchId);
        Response searchSeenByBob = bob.get(searches + "/" + searchId);

        assertThat(adminRead.status()).as(adminRead.text()).isEqualTo(200);
        assertThat(adminRead.text()).contains("needle for admin");
        assertThat(aliceRead.status()).as(aliceRead.text()).isEqualTo(403);
        assertThat(aliceRead.errorCode()).isEqualTo(40301);
        assertThat(search.body().get("state").asString()).as(search.text()).isEqualTo("DONE");
        assertThat(search.body().get("matched").asLong()).as(search.text()).isPositive();
        assertThat(searchSeenByBob.status()).isEqualTo(404);
    }

    @Test
    void consumerInstanceBelongsToItsCreator() {
        Response created = admin.post("/consumers/owned-group", "application/vnd.kafka.v2+json",
            "{\"name\":\"mine\",\"format\":\"json\"}");
        assertThat(created.status()).isEqualTo(200);
        String instance = "/consumers/owned-group/instances/mine";
        assertThat(admin.post(instance + "/subscription", "application/vnd.kafka.v2+json",
            "{\"topics\":[\"secured\"]}").status()).isEqualTo(204);

        Response read = bob.get(instance + "/subscription");
        Response delete = bob.delete(instance);

        assertThat(read.status()).isEqualTo(403);
        assertThat(read.errorCode()).isEqualTo(40301);
        assertThat(delete.status()).isEqualTo(403);
        assertThat(delete.errorCode()).isEqualTo(40301);
        Response ownersView = admin.get(instance + "/subscription");
        assertThat(ownersView.status()).isEqualTo(200);
        assertThat(ownersView.body().get("topics").get(0).asString()).isEqualTo("secured");
        assertThat(admin.delete(instance).status()).isEqualTo(204);
    }

    @Test
    void aShareConsumerInstanceReadsAsItsCreatorAndBelongsToThem() {
        assertThat(admin.post("/topics/secured", JSON, "{\"records\":[{\"value\":\"queued for admin\"}]}")
            .status()).isEqualTo(200);
        RestShareConsumer.configureGroup(broker, "admin-queue", Map.of());
        RestShareConsumer mine = RestShareConsumer.create(admin, "admin-queue", "{\"format\":\"json\"}");
        assertThat(mine.subscribe("secured").status()).isEqualTo(204);
        RestShareConsumer alices = RestShareConsumer.create(alice, "alice-queue", "{\"format\":\"json\"}");
        assertThat(alices.subscribe("secured").status()).isEqualTo(204);

        Response bobsView = mine.via(bob).records(0);
        Response bobsDelete = mine.via(bob).delete();
        Response alicesRead = alices.records(5000);
        List<JsonNode> read = new ArrayList<>();
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
            read.addAll(mine.read(2000));
            return !read.isEmpty();
        });

        assertThat(bobsView.status()).isEqualTo(403);
        assertThat(bobsView.errorCode()).isEqualTo(40301);
        assertThat(bobsDelete.errorCode()).isEqualTo(40301);
        assertThat(alicesRead.status()).as("alice may not read the group or topic: " + alicesRead.text())
            .isEqualTo(403);
        assertThat(alicesRead.errorCode()).isEqualTo(40301);
        assertThat(read).extracting(r -> r.get("value").asString()).contains("queued for admin");
        assertThat(mine.acknowledge(Map.of("type", "ACCEPT")).status()).isEqualTo(200);
        assertThat(mine.delete().status()).isEqualTo(204);
        assertThat(alices.delete().status()).isEqualTo(204);
    }

    @Test
    void anotherReplicaForwardsWithTheCallersCredentials() {
        assertThat(admin.post("/consumers/forwarded-group", "application/vnd.kafka.v2+json",
            "{\"name\":\"held-by-a\"}").status()).isEqualTo(200);
        String instance = "/consumers/forwarded-group/instances/held-by-a";
        assertThat(admin.post(instance + "/subscription", "application/vnd.kafka.v2+json",
            "{\"topics\":[\"secured\"]}").status()).isEqualTo(204);

        Response asOwner = anonymousB.as(BrokerFixture.SUPER_USER, ADMIN_PASSWORD).get(instance + "/subscription");
        Response asBob = anonymousB.as("bob", BOB_PASSWORD).get(instance + "/subscription");
        Response unsigned = anonymousB.get(instance + "/subscription");

        assertThat(asOwner.status()).as(asOwner.text()).isEqualTo(200);
        assertThat(asOwner.body().get("topics").get(0).asString()).isEqualTo("secured");
        assertThat(asBob.status()).isEqualTo(403);
        assertThat(asBob.errorCode()).isEqualTo(40301);
        assertThat(unsigned.status()).isEqualTo(401);
        assertThat(unsigned.header("WWW-Authenticate")).isEqualTo("Basic realm=\"tributary\"");
        assertThat(anonymousB.as(BrokerFixture.SUPER_USER, ADMIN_PASSWORD).delete(instance).status())
            .isEqualTo(204);
    }

    @Test
    void noPasswordReachesALogLine() {
        anonymous.as("alice", WRONG_PASSWORD).get("/brokers");
        alice.get("/brokers");
        bob.post("/topics/secured", JSON, "{\"records\":[{\"value\":1}]}");

        logs.assertNoLineContains(ADMIN_PASSWORD, ALICE_PASSWORD, BOB_PASSWORD, WRONG_PASSWORD);
    }

}
