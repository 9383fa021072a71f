package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.security.BrokerAuthorizer;
import java.util.List;
import java.util.Map;
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
    private final Map<io.tributary.broker.quota.ClientQuotaEntity, Map<String, Double>> stored = new java.util.LinkedHashMap<>();
    private final DescribeClientQuotasHandler handler = new DescribeClientQuotasHandler(() -> stored, authorizer);

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
    void filtersMatchExactNamesDefaultsAndAnyNameStrictlyOrNot() {
        allowAliceToDescribeConfigs();
        String d = io.tributary.broker.quota.ClientQuotaEntity.DEFAULT;
        stored.put(new io.tributary.broker.quota.ClientQuotaEntity("alice", null), Map.of("producer_byte_rate", 1000.0));
        stored.put(new io.tributary.broker.quota.ClientQuotaEntity("alice", "app"), Map.of("consumer_byte_rate", 2000.0));
        stored.put(new io.tributary.broker.quota.ClientQuotaEntity(d, null), Map.of("request_percentage", 50.0));
        stored.put(new io.tributary.broker.quota.ClientQuotaEntity(null, "app"), Map.of("producer_byte_rate", 3000.0));

        assertThat(entities(describe(ClientQuotaFilterComponent.ofEntity(ClientQuotaEntity.USER, "alice"))))
            .containsExactlyInAnyOrder("user=alice", "user=alice,client-id=app");
        DescribeClientQuotasRequest strict = new DescribeClientQuotasRequest.Builder(ClientQuotaFilter.containsOnly(
            List.of(ClientQuotaFilterComponent.ofEntity(ClientQuotaEntity.USER, "alice")))).build((short) 1);
        assertThat(entities(Wire.exchange(handler, strict, Wire.ALICE))).containsExactly("user=alice");
        assertThat(entities(describe(ClientQuotaFilterComponent.ofDefaultEntity(ClientQuotaEntity.USER))))
            .containsExactly("user=null");
        assertThat(entities(describe(ClientQuotaFilterComponent.ofEntityType(ClientQuotaEntity.USER))))
            .containsExactlyInAnyOrder("user=alice", "user=alice,client-id=app");
        assertThat(entities(describe(ClientQuotaFilterComponent.ofEntity(ClientQuotaEntity.CLIENT_ID, "app"))))
            .containsExactlyInAnyOrder("user=alice,client-id=app", "client-id=app");
        assertThat(entities(describe())).hasSize(4);
        assertThat(describe(ClientQuotaFilterComponent.ofEntity(ClientQuotaEntity.CLIENT_ID, "app")).data().entries())
            .anySatisfy(e -> assertThat(e.values()).singleElement().satisfies(v -> {
                assertThat(v.key()).isEqualTo("producer_byte_rate");
                assertThat(v.value()).isEqualTo(3000.0);
            }));
    }

    private static List<String> entities(DescribeClientQuotasResponse response) {
        return response.data().entries().stream().map(e -> String.join(",", e.entity().stream()
            .map(x -> x.entityType() + "=" + x.entityName()).toList())).toList();
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
