package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.security.BrokerAuthorizer;
import java.util.List;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.quota.ClientQuotaFilterComponent;
import org.apache.kafka.common.requests.DescribeClientQuotasRequest;
import org.apache.kafka.common.requests.DescribeClientQuotasResponse;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link DescribeClientQuotasHandler} with Kafka's StandardAuthorizer: a valid filter matches no
 * entity (no quotas are enforced); filters are checked as Kafka checks them (an empty or repeated
 * entity type and an IP with a user are INVALID_REQUEST, a custom entity type is
 * UNSUPPORTED_VERSION, with the message and no entries); without DESCRIBE_CONFIGS on the cluster
 * it is CLUSTER_AUTHORIZATION_FAILED before the filter is looked at.
 */
class DescribeClientQuotasHandlerTest {

    private final BrokerAuthorizer authorizer = BrokerAuthorizer.standard("User:admin", false);
    private final DescribeClientQuotasHandler handler = new DescribeClientQuotasHandler(authorizer);

    @AfterEach
    void closeAuthorizer() throws Exception {
        authorizer.close();
    }

    private void allowAliceToDescribeConfigs() {
        authorizer.aclsChanged(List.of(new AclBinding(
            new ResourcePattern(ResourceType.CLUSTER, BrokerAuthorizer.CLUSTER_NAME, PatternType.LITERAL),
            new AccessControlEntry(Wire.ALICE.toString(), "*", AclOperation.DESCRIBE_CONFIGS, AclPermissionType.ALLOW))),
            List.of());
    }

    private DescribeClientQuotasResponse describe(ClientQuotaFilterComponent... components) {
        DescribeClientQuotasRequest request = new DescribeClientQuotasRequest.Builder(
            ClientQuotaFilter.contains(List.of(components))).build((short) 1);
        return Wire.exchange(handler, request, Wire.ALICE);
    }

    @Test
    void aValidFilterMatchesNoEntity() {
        allowAliceToDescribeConfigs();

        DescribeClientQuotasResponse response = describe(ClientQuotaFilterComponent.ofEntity(ClientQuotaEntity.USER,
            "alice"), ClientQuotaFilterComponent.ofDefaultEntity(ClientQuotaEntity.CLIENT_ID));

        assertThat(response.data().errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(response.data().entries()).isEmpty();
        assertThat(response.throttleTimeMs()).isZero();
    }

    @Test
    void anEmptyEntityTypeIsInvalidRequest() {
        allowAliceToDescribeConfigs();

        DescribeClientQuotasResponse response = describe(ClientQuotaFilterComponent.ofEntity("", "x"));

        assertThat(Errors.forCode(response.data().errorCode())).isEqualTo(Errors.INVALID_REQUEST);
        assertThat(response.data().errorMessage()).contains("empty");
        assertThat(response.data().entries()).isNull();
    }

    @Test
    void aRepeatedEntityTypeIsInvalidRequest() {
        allowAliceToDescribeConfigs();

        DescribeClientQuotasResponse response = describe(ClientQuotaFilterComponent.ofEntity(ClientQuotaEntity.USER,
            "alice"), ClientQuotaFilterComponent.ofEntity(ClientQuotaEntity.USER, "bob"));

        assertThat(Errors.forCode(response.data().errorCode())).isEqualTo(Errors.INVALID_REQUEST);
        assertThat(response.data().errorMessage()).contains("Duplicate user");
    }

    @Test
    void aCustomEntityTypeIsUnsupportedVersion() {
        allowAliceToDescribeConfigs();

        DescribeClientQuotasResponse response = describe(ClientQuotaFilterComponent.ofEntity("tenant", "t1"));

        assertThat(Errors.forCode(response.data().errorCode())).isEqualTo(Errors.UNSUPPORTED_VERSION);
        assertThat(response.data().errorMessage()).contains("tenant");
    }

    @Test
    void anIpWithAUserIsInvalidRequest() {
        allowAliceToDescribeConfigs();

        DescribeClientQuotasResponse response = describe(ClientQuotaFilterComponent.ofEntity(ClientQuotaEntity.IP,
            "10.0.0.1"), ClientQuotaFilterComponent.ofEntity(ClientQuotaEntity.USER, "alice"));

        assertThat(Errors.forCode(response.data().errorCode())).isEqualTo(Errors.INVALID_REQUEST);
        assertThat(response.data().errorMessage()).contains("IP filter");
    }

    @Test
    void withoutDescribeConfigsOnTheClusterItIsClusterAuthorizationFailedWhateverTheFilter() {
        DescribeClientQuotasResponse valid = describe(ClientQuotaFilterComponent.ofEntity(ClientQuotaEntity.USER,
            "alice"));
        DescribeClientQuotasResponse invalid = describe(ClientQuotaFilterComponent.ofEntity("tenant", "t1"));

        assertThat(Errors.forCode(valid.data().errorCode())).isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED);
        assertThat(Errors.forCode(invalid.data().errorCode())).isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED);
    }
}
