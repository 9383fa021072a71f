package io.tributary.restproxy.v3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.restproxy.testing.BrokerFixture;
import io.tributary.restproxy.testing.HttpJson;
import io.tributary.restproxy.testing.HttpJson.Response;
import io.tributary.restproxy.testing.SecuredProxyTestBase;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;

/**
 * The v3 share group endpoints per HTTP user, on a broker that authorizes with Kafka's
 * {@code StandardAuthorizer}: each user sees and changes only what the group ACLs let their Kafka
 * login do, and {@code authorized_operations} says so, for a UI to offer only what will work.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class V3ShareGroupsAuthorizationTest extends SecuredProxyTestBase {

    // Users of this test alone: the broker and its ACLs are shared.
    private static final String ALICE = "share-groups-alice";
    private static final String BOB = "share-groups-bob";
    private static final String CAROL = "share-groups-carol";
    private static final String ALICE_PASSWORD = "alice-pw-Hv71";
    private static final String BOB_PASSWORD = "bob-pw-Rk20";
    private static final String CAROL_PASSWORD = "carol-pw-Zp93";
    private static final String GROUP = "acl-workers";
    private static final String TOPIC = "acl-jobs";
    /** A group bob may describe whose members read a topic he may not. */
    private static final String SECRET_GROUP = "acl-secret-workers";
    private static final String SECRET_TOPIC = "acl-secret";

    private HttpJson alice;
    private HttpJson bob;
    private HttpJson carol;
    private String group;

    @BeforeAll
    void clients() {
        BrokerFixture broker = broker();
        broker.createScramUser(ALICE, ALICE_PASSWORD);
        broker.createScramUser(BOB, BOB_PASSWORD);
        broker.createScramUser(CAROL, CAROL_PASSWORD);
        broker.createTopic(TOPIC, 1);
        broker.createTopic(SECRET_TOPIC, 1);
        // alice: everything on the group; bob: describe it; carol: nothing. Both may describe the topic,
        // which describing a group whose members use it needs.
        broker.createAcls(List.of(
            BrokerFixture.allow(ResourceType.GROUP, GROUP, "User:" + ALICE, AclOperation.ALL),
            BrokerFixture.allow(ResourceType.GROUP, GROUP, "User:" + BOB, AclOperation.DESCRIBE),
            BrokerFixture.allow(ResourceType.GROUP, SECRET_GROUP, "User:" + BOB, AclOperation.DESCRIBE),
            BrokerFixture.allow(ResourceType.TOPIC, TOPIC, "User:" + ALICE, AclOperation.DESCRIBE),
            BrokerFixture.allow(ResourceType.TOPIC, TOPIC, "User:" + BOB, AclOperation.DESCRIBE)));
        HttpJson anonymous = anonymous();
        alice = anonymous.as(ALICE, ALICE_PASSWORD);
        bob = anonymous.as(BOB, BOB_PASSWORD);
        carol = anonymous.as(CAROL, CAROL_PASSWORD);
        String cluster = alice.get("/v3/clusters").body().get("data").get(0).get("cluster_id").asString();
        group = "/v3/clusters/" + cluster + "/share-groups/" + GROUP;
        // The group exists once a share consumer (the internal listener's super user) has joined it.
        Map<String, Object> settings = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker().internalServers(),
            ConsumerConfig.GROUP_ID_CONFIG, GROUP);
        try (KafkaShareConsumer<byte[], byte[]> consumer = new KafkaShareConsumer<>(settings,
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(TOPIC));
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                consumer.poll(Duration.ofMillis(100));
                assertThat(alice.get(group).body().path("member_count").asInt()).isEqualTo(1);
            });
        }
    }

    @Test
    void eachUserGetsTheGroupOperationsTheAclsGiveThem() {
        Response asAlice = alice.get(group + "?include_authorized_operations=true");
        Response asBob = bob.get(group + "?include_authorized_operations=true");

        assertThat(asAlice.status()).as(asAlice.text()).isEqualTo(200);
        assertThat(operations(asAlice.body())).contains("DESCRIBE", "DELETE", "DESCRIBE_CONFIGS", "ALTER_CONFIGS");
        assertThat(asBob.status()).as(asBob.text()).isEqualTo(200);
        assertThat(operations(asBob.body())).contains("DESCRIBE").doesNotContain("DELETE", "ALTER_CONFIGS");
    }

    @Test
    void aUserWithoutRightsOnTheGroupNeitherSeesNorChangesIt() {
        Response described = carol.get(group);
        assertThat(described.status()).isEqualTo(403);
        assertThat(described.errorCode()).isEqualTo(40301);
        assertThat(carol.get(group.substring(0, group.lastIndexOf('/'))).body().get("data").valueStream()
            .map(g -> g.get("group_id").asString())).doesNotContain(GROUP);
        assertThat(bob.get(group.substring(0, group.lastIndexOf('/'))).body().get("data").valueStream()
            .map(g -> g.get("group_id").asString())).contains(GROUP);
    }

    @Test
    void onlyAUserAllowedToAlterTheGroupsConfigsChangesThem() {
        Response byBob = put(bob, group + "/configs/share.delivery.count.limit", "{\"value\":\"4\"}");
        Response bobReads = bob.get(group + "/configs");
        Response byAlice = put(alice, group + "/configs/share.delivery.count.limit", "{\"value\":\"4\"}");

        assertThat(byBob.status()).as(byBob.text()).isEqualTo(403);
        assertThat(byBob.errorCode()).isEqualTo(40301);
        assertThat(bobReads.status()).as("bob may not DESCRIBE_CONFIGS").isEqualTo(403);
        assertThat(byAlice.status()).as(byAlice.text()).isEqualTo(204);
        assertThat(alice.get(group + "/configs/share.delivery.count.limit").body().get("value").asString())
            .isEqualTo("4");
    }

    /** Last: it deletes the group the others describe. */
    @Test
    @Order(Integer.MAX_VALUE)
    void onlyAUserAllowedToDeleteTheGroupDeletesIt() {
        Response byBob = bob.delete(group);
        assertThat(byBob.status()).isEqualTo(403);
        assertThat(byBob.errorCode()).isEqualTo(40301);
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
            assertThat(alice.get(group).body().get("state").asString()).isEqualTo("EMPTY"));
        assertThat(alice.delete(group).status()).isEqualTo(204);
        assertThat(alice.get(group).status()).isEqualTo(404);
    }

    @Test
    void aGroupWhoseTopicsTheUserMayNotDescribeIsLeftOutOfTheListNotFailingIt() throws Exception {
        AtomicBoolean running = new AtomicBoolean(true);
        Map<String, Object> settings = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker().internalServers(),
            ConsumerConfig.GROUP_ID_CONFIG, SECRET_GROUP);
        Thread member = new Thread(() -> {
            try (KafkaShareConsumer<byte[], byte[]> consumer = new KafkaShareConsumer<>(settings,
                    new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                consumer.subscribe(List.of(SECRET_TOPIC));
                while (running.get()) {
                    consumer.poll(Duration.ofMillis(100));
                }
            }
        }, "acl-secret-member");
        member.start();
        String list = group.substring(0, group.lastIndexOf('/'));
        String secret = list + "/" + SECRET_GROUP;
        try {
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(alice.get(list).body().get("data").valueStream().map(g -> g.get("group_id").asString()))
                    .as("alice may not describe it at all").doesNotContain(SECRET_GROUP));
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(bob.get(secret).status()).as("refused once a member uses the secret topic").isEqualTo(403));
            Response asBob = bob.get(list);
            assertThat(asBob.status()).as(asBob.text()).isEqualTo(200);
            assertThat(asBob.body().get("data").valueStream().map(g -> g.get("group_id").asString()))
                .contains(GROUP).doesNotContain(SECRET_GROUP);
        } finally {
            running.set(false);
            member.join(Duration.ofSeconds(30).toMillis());
        }
    }

    private static Response put(HttpJson as, String path, String body) {
        return as.send(as.request(path).header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private static List<String> operations(JsonNode resource) {
        JsonNode operations = resource.get("authorized_operations");
        assertThat(operations).as("authorized_operations of " + resource).isNotNull();
        return operations.valueStream().map(JsonNode::asString).toList();
    }
}
