package io.tributary.restproxy.atomic;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.restproxy.RestProxyApplication;
import io.tributary.restproxy.testing.AtomicBodies;
import io.tributary.restproxy.testing.BrokerFixture;
import io.tributary.restproxy.testing.BrokerFixture.StoredRecord;
import io.tributary.restproxy.testing.HttpJson;
import io.tributary.restproxy.testing.HttpJson.Response;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Atomic produce with authentication on, with exactly the ACLs the README lists: the proxy signs
 * HTTP callers in (Basic) and each caller's transaction runs as that caller, under the
 * transactional id {@code tributary-rest-<user>-<slot>}; the proxy's own login ({@code kafka.client.*}
 * SASL settings) creates and reads the idempotency topic. A caller without WRITE on its
 * transactional ids is refused (403) and writes nothing; one with them commits, and a retry with
 * the same key is answered from the stored outcome.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DirtiesContext
@SpringBootTest(classes = RestProxyApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
        "rest-proxy.authentication.method=basic",
        "kafka.security-protocol=SASL_PLAINTEXT",
        "kafka.client.[sasl.mechanism]=SCRAM-SHA-512",
        "kafka.client.[sasl.jaas.config]=org.apache.kafka.common.security.scram.ScramLoginModule required"
            + " username=\"proxy\" password=\"proxy-pw-Lw52\";",
        "kafka.producer.[max.block.ms]=10000",
        "spring.mvc.async.request-timeout=30s"})
class AtomicProduceAuthenticationTest {

    private static final String TOPIC = "transfers";
    private static final String KEYS = "_tributary_rest_idempotency";

    private static BrokerFixture broker;

    @LocalServerPort
    int port;

    private HttpJson alice;
    private HttpJson bob;
    private String cluster;

    @DynamicPropertySource
    static void kafka(DynamicPropertyRegistry registry) {
        registry.add("kafka.bootstrap-servers", () -> broker().bootstrapServers());
    }

    private static synchronized BrokerFixture broker() {
        if (broker == null) {
            broker = BrokerFixture.startSasl();
            broker.createScramUser("proxy", "proxy-pw-Lw52");
            broker.createScramUser("alice", "alice-pw-Tq90");
            broker.createScramUser("bob", "bob-pw-Vm13");
            broker.createTopic(TOPIC, 2);
            broker.createAcls(List.of(
                // The proxy's own login: creates the idempotency topic and reads the keys.
                allow("User:proxy", AclOperation.CREATE, ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL),
                allow("User:proxy", AclOperation.READ, ResourceType.TOPIC, KEYS, PatternType.LITERAL),
                // alice: the topic, the idempotency topic, and her transactional ids.
                allow("User:alice", AclOperation.WRITE, ResourceType.TOPIC, TOPIC, PatternType.LITERAL),
                allow("User:alice", AclOperation.WRITE, ResourceType.TOPIC, KEYS, PatternType.LITERAL),
                allow("User:alice", AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, "tributary-rest-alice-",
                    PatternType.PREFIXED),
                // bob: the topics, but not the transactional ids.
                allow("User:bob", AclOperation.WRITE, ResourceType.TOPIC, TOPIC, PatternType.LITERAL),
                allow("User:bob", AclOperation.WRITE, ResourceType.TOPIC, KEYS, PatternType.LITERAL)));
        }
        return broker;
    }

    private static AclBinding allow(String principal, AclOperation operation, ResourceType type, String name,
                                    PatternType pattern) {
        return new AclBinding(new ResourcePattern(type, name, pattern),
            new AccessControlEntry(principal, "*", operation, AclPermissionType.ALLOW));
    }

    @BeforeAll
    void clients() {
        HttpJson anonymous = new HttpJson("http://127.0.0.1:" + port);
        alice = anonymous.as("alice", "alice-pw-Tq90");
        bob = anonymous.as("bob", "bob-pw-Vm13");
        cluster = alice.get("/v3/clusters").body().get("data").get(0).get("cluster_id").asString();
    }

    @AfterAll
    void stop() {
        broker.close();
    }

    @Test
    void aCallerWithHerTransactionalIdsCommitsAndARetryIsReplayed() {
        String body = AtomicBodies.entries(List.of("alice-debit", "alice-credit"), List.of(0, 1));
        Response first = AtomicBodies.postUntilSettled(alice, cluster, TOPIC, "alice-order-1", body);
        Response retry = AtomicBodies.post(alice, cluster, TOPIC, "alice-order-1", body);

        assertThat(first.status()).as(first.text()).isEqualTo(200);
        assertThat(first.body().get("outcome").asString()).isEqualTo("COMMITTED");
        assertThat(first.body().get("transactional_id").asString()).startsWith("tributary-rest-alice-");
        assertThat(retry.status()).as(retry.text()).isEqualTo(200);
        assertThat(retry.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(AtomicBodies.offsets(retry)).isEqualTo(AtomicBodies.offsets(first));
        assertThat(broker.records(TOPIC, true).stream().map(StoredRecord::value).filter(v -> v.startsWith("alice-")))
            .as("written once, committed").containsExactlyInAnyOrder("alice-debit", "alice-credit");
    }

    @Test
    void aCallerWithoutWriteOnTheTransactionalIdIsRefusedAndWritesNothing() {
        Response refused = AtomicBodies.post(bob, cluster, TOPIC, "bob-order-1",
            AtomicBodies.entries(List.of("bob-1"), Arrays.asList((Integer) null)));

        assertThat(refused.status()).as(refused.text()).isEqualTo(403);
        assertThat(refused.errorCode()).isEqualTo(40301);
        assertThat(refused.body().get("message").asString()).as("names what the caller lacks")
            .contains("WRITE on TRANSACTIONAL_ID tributary-rest-bob-").contains("prefix tributary-rest-bob-");
        assertThat(broker.records(TOPIC, false).stream().map(StoredRecord::value)).doesNotContain("bob-1");
    }
}
