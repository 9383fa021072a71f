package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.cluster.BrokerFeatures;
import io.tributary.broker.cluster.FinalizedFeatures;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.feature.SupportedVersionRange;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.junit.jupiter.api.Test;

/**
 * {@link ApiVersionsHandler} over hand-written handlers: it lists each handler's advertised range
 * (the advertised minimum, not the served one) in api key order, itself at 0-5, with throttle
 * time 0 and no finalized features; a v3+ request with an invalid client software name is
 * INVALID_REQUEST, as is a v5 request with a cluster id but no node id; a v5 request naming another
 * cluster or another node is REBOOTSTRAP_REQUIRED (KIP-1242), and one naming this cluster and
 * node, or none, is answered normally.
 */
class ApiVersionsHandlerTest {

    private static final String CLUSTER_ID = "cluster-a";
    private static final int BROKER_ID = 1;

    private final FakeApiHandler metadata = new FakeApiHandler(ApiKeys.METADATA, 1, 12, (context, request) -> null);
    private final FakeApiHandler produce = new FakeApiHandler(ApiKeys.PRODUCE, 3, 12, (context, request) -> null)
        .advertisingFrom(0);
    private final ApiVersionsHandler handler = new ApiVersionsHandler(List.of(metadata, produce), () -> CLUSTER_ID,
        BROKER_ID);

    private ApiVersionsResponse exchange(ApiVersionsRequest request) {
        return Wire.exchange(handler, request, KafkaPrincipal.ANONYMOUS);
    }

    private static ApiVersionsRequestData java(String clusterId, int nodeId) {
        return new ApiVersionsRequestData().setClientSoftwareName("apache-kafka-java").setClientSoftwareVersion("4.4.0")
            .setClusterId(clusterId).setNodeId(nodeId);
    }

    @Test
    void listsEachHandlersAdvertisedRangeInApiKeyOrder() {
        ApiVersionsResponse response = exchange(new ApiVersionsRequest.Builder().build((short) 3));

        assertThat(response.data().errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(response.data().apiKeys()).extracting(ApiVersionsResponseData.ApiVersion::apiKey)
            .containsExactly(ApiKeys.PRODUCE.id, ApiKeys.METADATA.id, ApiKeys.API_VERSIONS.id);
        assertThat(response.apiVersion(ApiKeys.PRODUCE.id).minVersion()).as("advertised, not served").isZero();
        assertThat(response.apiVersion(ApiKeys.PRODUCE.id).maxVersion()).isEqualTo((short) 12);
        assertThat(response.apiVersion(ApiKeys.METADATA.id).minVersion()).isEqualTo((short) 1);
        assertThat(response.apiVersion(ApiKeys.API_VERSIONS.id).minVersion()).isZero();
        assertThat(response.apiVersion(ApiKeys.API_VERSIONS.id).maxVersion()).isEqualTo((short) 5);
        assertThat(response.throttleTimeMs()).isZero();
        assertThat(response.data().finalizedFeaturesEpoch()).isEqualTo(-1L);
    }

    @Test
    void v4CarriesTheSupportedAndFinalizedFeaturesAndV3LeavesOutThoseFromLevelZero() {
        BrokerFeatures supported = new BrokerFeatures(Map.of("transaction.version", new SupportedVersionRange((short) 0, (short) 1),
            "x.version", new SupportedVersionRange((short) 1, (short) 3)));
        ApiVersionsHandler withFeatures = new ApiVersionsHandler(List.of(metadata), () -> CLUSTER_ID, BROKER_ID, supported,
            () -> new FinalizedFeatures(Map.of("transaction.version", (short) 1, "x.version", (short) 0), 4));

        ApiVersionsResponse v4 = Wire.exchange(withFeatures, new ApiVersionsRequest.Builder().build((short) 4),
            KafkaPrincipal.ANONYMOUS);
        assertThat(v4.data().supportedFeatures()).extracting(f -> f.name() + " " + f.minVersion() + "-" + f.maxVersion())
            .containsExactlyInAnyOrder("transaction.version 0-1", "x.version 1-3");
        assertThat(v4.data().finalizedFeatures()).as("level 0 is not sent")
            .extracting(f -> f.name() + " " + f.minVersionLevel() + "-" + f.maxVersionLevel())
            .containsExactly("transaction.version 1-1");
        assertThat(v4.data().finalizedFeaturesEpoch()).isEqualTo(4L);

        ApiVersionsResponse v3 = Wire.exchange(withFeatures, new ApiVersionsRequest.Builder().build((short) 3),
            KafkaPrincipal.ANONYMOUS);
        assertThat(v3.data().supportedFeatures()).as("KAFKA-17492").extracting(f -> f.name()).containsExactly("x.version");
        assertThat(v3.data().finalizedFeatures()).hasSize(1);
    }

    @Test
    void allHandlersIncludesItself() {
        assertThat(handler.allHandlers()).containsExactly(metadata, produce, handler);
    }

    @Test
    void anInvalidClientSoftwareNameIsInvalidRequest() {
        ApiVersionsRequest request = new ApiVersionsRequest(new ApiVersionsRequestData()
            .setClientSoftwareName("not a name!").setClientSoftwareVersion("1.0"), (short) 3);

        ApiVersionsResponse response = exchange(request);

        assertThat(Errors.forCode(response.data().errorCode())).isEqualTo(Errors.INVALID_REQUEST);
    }

    @Test
    void aV5RequestForAnotherClusterIsRebootstrapRequired() {
        ApiVersionsResponse response = exchange(new ApiVersionsRequest(java("cluster-b", BROKER_ID), (short) 5));

        assertThat(Errors.forCode(response.data().errorCode())).isEqualTo(Errors.REBOOTSTRAP_REQUIRED);
    }

    @Test
    void aV5RequestForAnotherNodeIsRebootstrapRequired() {
        ApiVersionsResponse response = exchange(new ApiVersionsRequest(java(CLUSTER_ID, BROKER_ID + 1), (short) 5));

        assertThat(Errors.forCode(response.data().errorCode())).isEqualTo(Errors.REBOOTSTRAP_REQUIRED);
    }

    @Test
    void aV5RequestNamingAClusterWithoutANodeIsInvalidRequest() {
        // kafka-clients' own check: cluster id and node id come together or not at all.
        ApiVersionsResponse response = exchange(new ApiVersionsRequest(java(CLUSTER_ID, -1), (short) 5));

        assertThat(Errors.forCode(response.data().errorCode())).isEqualTo(Errors.INVALID_REQUEST);
    }

    @Test
    void aV5RequestForThisClusterAndNodeOrNoneIsAnswered() {
        ApiVersionsResponse named = exchange(new ApiVersionsRequest(java(CLUSTER_ID, BROKER_ID), (short) 5));
        ApiVersionsResponse unnamed = exchange(new ApiVersionsRequest(java(null, -1), (short) 5));

        assertThat(named.data().errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(unnamed.data().errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(named.data().apiKeys()).hasSize(3);
    }
}
