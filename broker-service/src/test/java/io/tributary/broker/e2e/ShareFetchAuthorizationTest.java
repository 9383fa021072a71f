package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.WireClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.message.ShareAcknowledgeRequestData;
import org.apache.kafka.common.message.ShareFetchRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.SaslAuthenticateRequest;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.apache.kafka.common.requests.SaslHandshakeRequest;
import org.apache.kafka.common.requests.SaslHandshakeResponse;
import org.apache.kafka.common.requests.ShareAcknowledgeRequest;
import org.apache.kafka.common.requests.ShareAcknowledgeResponse;
import org.apache.kafka.common.requests.ShareFetchRequest;
import org.apache.kafka.common.requests.ShareFetchResponse;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ShareFetch and ShareAcknowledge need READ on the group (else GROUP_AUTHORIZATION_FAILED for the
 * request) and READ on each topic (else TOPIC_AUTHORIZATION_FAILED for its partitions), as Kafka.
 * The share coordinator's inter-broker APIs, and FindCoordinator with key type SHARE, need
 * CLUSTER_ACTION on the cluster (CLUSTER_AUTHORIZATION_FAILED).
 */
class ShareFetchAuthorizationTest {

    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required"
        + " username=\"admin\" password=\"admin-pw-1\" user_admin=\"admin-pw-1\" user_alice=\"alice-pw-2\";";

    @TempDir
    static Path dir;
    static TestBroker broker;
    static Uuid topicId;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir.resolve("broker"), Map.of(
            "broker.listeners", "SASL_PLAINTEXT://127.0.0.1:" + TestBroker.freePort(),
            "broker.listener-security-protocol-map", "SASL_PLAINTEXT:SASL_PLAINTEXT",
            "broker.sasl-enabled-mechanisms", "PLAIN",
            "broker.sasl-mechanism-inter-broker-protocol", "PLAIN",
            "broker.sasl-jaas-config", JAAS,
            "broker.authorizer-class-name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
            "broker.super-users", "User:admin"));
        Map<String, Object> configs = new HashMap<>();
        configs.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        configs.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        configs.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
        configs.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " username=\"admin\" password=\"admin-pw-1\";");
        try (Admin admin = Admin.create(configs)) {
            admin.createTopics(List.of(new NewTopic("guarded", 1, (short) 1))).all().get();
            topicId = admin.describeTopics(List.of("guarded")).allTopicNames().get().get("guarded").topicId();
        }
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    private static void allow(ResourceType type, String name) {
        broker.server().authorizer().aclsChanged(List.of(new AclBinding(new ResourcePattern(type, name,
            PatternType.LITERAL), new AccessControlEntry("User:alice", "*", AclOperation.READ, AclPermissionType.ALLOW))),
            List.of());
    }

    private static WireClient alice() throws Exception {
        WireClient c = WireClient.connect(broker.bootstrapServers());
        SaslHandshakeResponse hs = c.send(new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData()
            .setMechanism("PLAIN")).build((short) 1));
        assertThat(hs.error()).isEqualTo(Errors.NONE);
        SaslAuthenticateResponse auth = c.send(new SaslAuthenticateRequest.Builder(new SaslAuthenticateRequestData()
            .setAuthBytes("\0alice\0alice-pw-2".getBytes(StandardCharsets.UTF_8))).build((short) 2));
        assertThat(auth.error()).isEqualTo(Errors.NONE);
        return c;
    }

    private static ShareFetchRequest fetch(String group, int epoch) {
        ShareFetchRequestData data = new ShareFetchRequestData().setGroupId(group)
            .setMemberId(Uuid.randomUuid().toString()).setShareSessionEpoch(epoch).setMaxWaitMs(0).setMinBytes(1)
            .setMaxBytes(1 << 20).setMaxRecords(10).setBatchSize(10);
        ShareFetchRequestData.FetchTopic topic = new ShareFetchRequestData.FetchTopic().setTopicId(topicId);
        topic.partitions().add(new ShareFetchRequestData.FetchPartition().setPartitionIndex(0));
        data.topics().add(topic);
        return new ShareFetchRequest.Builder(data).build((short) 2);
    }

    @Test
    void readOnTheGroupAndOnTheTopicAreNeeded() throws Exception {
        try (WireClient client = alice()) {
            ShareFetchResponse noGroup = client.send(fetch("audited", 0));
            assertThat(Errors.forCode(noGroup.data().errorCode())).isEqualTo(Errors.GROUP_AUTHORIZATION_FAILED);
            ShareAcknowledgeResponse noGroupAck = client.send(new ShareAcknowledgeRequest.Builder(
                new ShareAcknowledgeRequestData().setGroupId("audited").setMemberId(Uuid.randomUuid().toString())
                    .setShareSessionEpoch(1)).build((short) 2));
            assertThat(Errors.forCode(noGroupAck.data().errorCode())).isEqualTo(Errors.GROUP_AUTHORIZATION_FAILED);

            allow(ResourceType.GROUP, "audited");
            ShareFetchResponse noTopic = client.send(fetch("audited", 0));
            assertThat(Errors.forCode(noTopic.data().errorCode())).isEqualTo(Errors.NONE);
            assertThat(Errors.forCode(noTopic.data().responses().iterator().next().partitions().get(0).errorCode()))
                .isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED);

            allow(ResourceType.TOPIC, "guarded");
            ShareFetchResponse allowed = client.send(fetch("audited", 0));
            assertThat(Errors.forCode(allowed.data().responses().iterator().next().partitions().get(0).errorCode()))
                .isEqualTo(Errors.NONE);
        }
    }

    @Test
    void theShareStateApisNeedClusterAction() throws Exception {
        try (WireClient client = alice()) {
            org.apache.kafka.common.requests.WriteShareGroupStateResponse write = client.send(
                new org.apache.kafka.common.requests.WriteShareGroupStateRequest.Builder(
                    new org.apache.kafka.common.message.WriteShareGroupStateRequestData().setGroupId("g").setTopics(List.of(
                        new org.apache.kafka.common.message.WriteShareGroupStateRequestData.WriteStateData()
                            .setTopicId(topicId).setPartitions(List.of(
                                new org.apache.kafka.common.message.WriteShareGroupStateRequestData.PartitionData()
                                    .setPartition(0).setStartOffset(0)))))).build((short) 1));
            assertThat(write.data().results().get(0).partitions().get(0).errorCode())
                .isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED.code());

            org.apache.kafka.common.requests.FindCoordinatorResponse find = client.send(
                new org.apache.kafka.common.requests.FindCoordinatorRequest.Builder(
                    new org.apache.kafka.common.message.FindCoordinatorRequestData().setKeyType((byte) 2)
                        .setCoordinatorKeys(List.of("g:" + topicId + ":0"))).build((short) 6));
            assertThat(find.data().coordinators().get(0).errorCode()).isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED.code());
        }
    }
}
