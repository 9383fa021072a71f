package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.security.BrokerAuthorizer;
import java.net.InetAddress;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

class AuthorizedOperationsTest {

    private static final RequestContext ALICE = new RequestContext(
        new RequestHeader(ApiKeys.DESCRIBE_CLUSTER, (short) 1, "test", 1), "local-remote",
        InetAddress.getLoopbackAddress(), "SASL_PLAINTEXT", SecurityProtocol.SASL_PLAINTEXT,
        new KafkaPrincipal(KafkaPrincipal.USER_TYPE, "alice"));

    private static int bits(AclOperation... operations) {
        return Utils.to32BitField(Set.of(operations).stream().map(AclOperation::code).collect(Collectors.toSet()));
    }

    private static AclBinding allow(ResourceType type, String name, AclOperation operation) {
        return new AclBinding(new ResourcePattern(type, name, PatternType.LITERAL),
            new AccessControlEntry("User:alice", "*", operation, AclPermissionType.ALLOW));
    }

    @Test
    void withoutAnAuthorizerEveryOperationOfTheTypeIsReported() {
        BrokerAuthorizer none = BrokerAuthorizer.allowAll();
        assertThat(AuthorizedOperations.of(none, ALICE, ResourceType.TOPIC, "t")).isEqualTo(AuthorizedOperations.TOPIC_ALL);
        assertThat(AuthorizedOperations.cluster(none, ALICE)).isEqualTo(AuthorizedOperations.CLUSTER_ALL);
        assertThat(AuthorizedOperations.of(none, ALICE, ResourceType.GROUP, "g")).isEqualTo(bits(AclOperation.READ,
            AclOperation.DESCRIBE, AclOperation.DELETE, AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS));
    }

    @Test
    void reportsWhatTheAclsAllowWithImpliedDescribe() throws Exception {
        try (BrokerAuthorizer authorizer = BrokerAuthorizer.standard("User:admin", false)) {
            assertThat(AuthorizedOperations.of(authorizer, ALICE, ResourceType.TOPIC, "t")).isZero();
            assertThat(AuthorizedOperations.cluster(authorizer, ALICE)).isZero();
            authorizer.aclsChanged(List.of(allow(ResourceType.TOPIC, "t", AclOperation.READ),
                allow(ResourceType.CLUSTER, BrokerAuthorizer.CLUSTER_NAME, AclOperation.IDEMPOTENT_WRITE)), List.of());
            assertThat(AuthorizedOperations.of(authorizer, ALICE, ResourceType.TOPIC, "t"))
                .isEqualTo(bits(AclOperation.READ, AclOperation.DESCRIBE));
            // The cluster's operations are withheld without DESCRIBE on it.
            assertThat(AuthorizedOperations.cluster(authorizer, ALICE)).isZero();
            authorizer.aclsChanged(List.of(allow(ResourceType.CLUSTER, BrokerAuthorizer.CLUSTER_NAME, AclOperation.ALTER)),
                List.of());
            assertThat(AuthorizedOperations.cluster(authorizer, ALICE))
                .isEqualTo(bits(AclOperation.IDEMPOTENT_WRITE, AclOperation.ALTER, AclOperation.DESCRIBE));
        }
    }
}
