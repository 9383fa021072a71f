package io.tributary.restproxy.v3;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.restproxy.testing.BrokerFixture;
import io.tributary.restproxy.testing.HttpJson;
import io.tributary.restproxy.testing.HttpJson.Response;
import io.tributary.restproxy.testing.SecuredProxyTestBase;
import java.util.List;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code include_authorized_operations=true} on the v3 topic, topic list and cluster: the
 * operations each signed-in caller may do, as the brokers' ACLs (StandardAuthorizer) decide them,
 * so a UI can offer only what will work.
 */
class V3AuthorizedOperationsTest extends SecuredProxyTestBase {

    // Users of this test alone: the broker and its ACLs are shared.
    private static final String ALICE = "operations-alice";
    private static final String BOB = "operations-bob";
    private static final String CAROL = "operations-carol";
    private static final String ALICE_PASSWORD = "alice-pw-Tq35";
    private static final String BOB_PASSWORD = "bob-pw-Wc82";
    private static final String WITH_OPERATIONS = "?include_authorized_operations=true";

    private HttpJson alice;
    private HttpJson bob;
    private String cluster;

    @BeforeAll
    void clients() {
        BrokerFixture broker = broker();
        broker.createScramUser(ALICE, ALICE_PASSWORD);
        broker.createScramUser(BOB, BOB_PASSWORD);
        broker.createScramUser(CAROL, "carol-pw-Lm04");
        broker.createTopic("t", 1);
        broker.createTopic("carol-only", 1);
        // alice: everything on t, and may create topics (the brokers report cluster operations only to
        // whom may DESCRIBE the cluster, as Kafka's); bob: read t; carol: see carol-only.
        broker.createAcls(List.of(
            BrokerFixture.allow(ResourceType.TOPIC, "t", "User:" + ALICE, AclOperation.ALL),
            BrokerFixture.allow(ResourceType.CLUSTER, "kafka-cluster", "User:" + ALICE, AclOperation.CREATE),
            BrokerFixture.allow(ResourceType.CLUSTER, "kafka-cluster", "User:" + ALICE, AclOperation.DESCRIBE),
            BrokerFixture.allow(ResourceType.TOPIC, "t", "User:" + BOB, AclOperation.READ),
            BrokerFixture.allow(ResourceType.TOPIC, "t", "User:" + BOB, AclOperation.DESCRIBE),
            BrokerFixture.allow(ResourceType.TOPIC, "carol-only", "User:" + CAROL, AclOperation.DESCRIBE)));
        HttpJson anonymous = anonymous();
        alice = anonymous.as(ALICE, ALICE_PASSWORD);
        bob = anonymous.as(BOB, BOB_PASSWORD);
        cluster = alice.get("/v3/clusters").body().get("data").get(0).get("cluster_id").asString();
    }

    @Test
    void topicCarriesTheCallersOperations() {
        Response asAlice = alice.get("/v3/clusters/" + cluster + "/topics/t" + WITH_OPERATIONS);
        Response asBob = bob.get("/v3/clusters/" + cluster + "/topics/t" + WITH_OPERATIONS);

        assertThat(asAlice.status()).isEqualTo(200);
        assertThat(operations(asAlice.body())).contains("READ", "WRITE", "DELETE", "DESCRIBE", "ALTER",
            "ALTER_CONFIGS");
        assertThat(asBob.status()).isEqualTo(200);
        assertThat(operations(asBob.body())).contains("READ", "DESCRIBE")
            .doesNotContain("WRITE", "DELETE", "ALTER", "ALTER_CONFIGS");
    }

    @Test
    void operationsOnlyWhenAskedFor() {
        Response plain = bob.get("/v3/clusters/" + cluster + "/topics/t");

        assertThat(plain.status()).isEqualTo(200);
        assertThat(plain.body().has("authorized_operations")).isFalse();
        assertThat(bob.get("/v3/clusters/" + cluster).body().has("authorized_operations")).isFalse();
    }

    @Test
    void topicListCarriesEachTopicsOperationsAndOnlyVisibleTopics() {
        Response list = bob.get("/v3/clusters/" + cluster + "/topics" + WITH_OPERATIONS);

        assertThat(list.status()).isEqualTo(200);
        List<JsonNode> topics = list.body().get("data").valueStream().toList();
        assertThat(topics).extracting(t -> t.get("topic_name").asString()).containsExactly("t");
        assertThat(operations(topics.get(0))).contains("READ", "DESCRIBE").doesNotContain("WRITE", "DELETE");
    }

    @Test
    void clusterCarriesTheCallersClusterOperations() {
        Response asAlice = alice.get("/v3/clusters/" + cluster + WITH_OPERATIONS);
        Response asBob = bob.get("/v3/clusters/" + cluster + WITH_OPERATIONS);

        assertThat(asAlice.status()).isEqualTo(200);
        assertThat(operations(asAlice.body())).contains("CREATE");
        assertThat(asBob.status()).isEqualTo(200);
        assertThat(asBob.body().has("authorized_operations")).isTrue();
        assertThat(operations(asBob.body())).doesNotContain("CREATE");
    }

    @Test
    void partitionsOfAReadableTopicWithoutSizesWhenLogDirsMayNotBeDescribed() {
        Response asBob = bob.get("/v3/clusters/" + cluster + "/topics/t/partitions");
        Response asAlice = alice.get("/v3/clusters/" + cluster + "/topics/t/partitions");

        assertThat(asBob.status()).as(asBob.text()).isEqualTo(200);
        JsonNode partition = asBob.body().get("data").get(0);
        assertThat(partition.get("partition_id").asInt()).isZero();
        assertThat(partition.get("size_bytes").isNull()).as("no DESCRIBE on the cluster: no log dir sizes").isTrue();
        assertThat(asAlice.status()).isEqualTo(200);
        assertThat(asAlice.body().get("data").get(0).get("size_bytes").isNumber()).isTrue();
    }

    private static List<String> operations(JsonNode resource) {
        JsonNode operations = resource.get("authorized_operations");
        assertThat(operations).as("authorized_operations of " + resource).isNotNull();
        return operations.valueStream().map(JsonNode::asString).toList();
    }
}
